// Offset pagination with GitLab's headers (GitLab's REST API documentation). Counting stops at 10,001 rows:
// above 10,000, X-Total, X-Total-Pages and rel="last" are omitted (docs/decisions.md, X-Total at scale).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CompiledQuery, Kysely, SelectQueryBuilder } from 'kysely';
import { ParamError } from '../errors.js';
import type { Reads } from '../db/reads.js';
import { boundedCountQuery, pageSize, pageWithCountQuery, TOTAL_COLUMN } from './pagination-queries.js';
import { BoundedMap } from '../bounded-map.js';
import { cacheSlot } from '../instance-caches.js';

export const MAX_PER_PAGE = 100;
export const COUNT_LIMIT = 10_000;

export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

function toInt(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
  return null;
}

/**
 * The last page anyone can ask for: its offset (and the next page's number) stay exact integers for
 * JavaScript and fit SQL's 64-bit OFFSET. Beyond it GitLab's database errs (500); here it is a 400.
 */
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PER_PAGE);

export function pageOf(input: Record<string, unknown>): Page {
  const requestedPerPage = toInt(input.per_page);
  if (requestedPerPage === 0) throw new ParamError('per_page has a value not allowed');
  if (input.per_page !== undefined && input.per_page !== '' && requestedPerPage === null) throw new ParamError('per_page is invalid');
  if (input.page !== undefined && input.page !== '' && toInt(input.page) === null) throw new ParamError('page is invalid');
  const perPage = requestedPerPage === null || requestedPerPage < 0 ? 20 : Math.min(requestedPerPage, MAX_PER_PAGE);
  const requestedPage = toInt(input.page);
  if (requestedPage !== null && requestedPage > MAX_PAGE) throw new ParamError('page does not have a valid value');
  const page = requestedPage === null || requestedPage < 1 ? 1 : requestedPage;
  return { page, perPage, offset: (page - 1) * perPage };
}

function linkFor(baseUrl: string, request: FastifyRequest, page: number, perPage: number): string {
  const url = new URL(request.url, 'http://placeholder');
  const query = new URLSearchParams(url.search);
  query.set('page', String(page));
  query.set('per_page', String(perPage));
  const sorted = new URLSearchParams([...query.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${baseUrl}${url.pathname}?${sorted.toString()}`;
}

// Link headers are a pure function of the base URL, the request URL and the page figures; building them (URL
// parsing, sorting the query) showed in the profile of every paginated request. Per app: the app is
// the request's server (app.ts hands it its caches).
const LINKS = cacheSlot('http.page-links', () => new BoundedMap<string, string>(5_000));

/** Set the pagination headers for a page of `count` rows in all (`null` = more than COUNT_LIMIT). */
export function setPageHeaders(baseUrl: string, request: FastifyRequest, reply: FastifyReply, page: Page, count: number | null): void {
  const totalPages = count === null ? null : Math.max(1, Math.ceil(count / page.perPage));
  const beyond = totalPages !== null && page.page > totalPages;
  const hasNext = count === null ? true : page.page < (totalPages as number);
  const next = hasNext && !beyond ? String(page.page + 1) : '';
  const prev = page.page > 1 && !beyond ? String(page.page - 1) : '';
  const linkKey = `${baseUrl}${request.url}\u0000${page.page}\u0000${page.perPage}\u0000${totalPages}\u0000${prev}\u0000${next}`;
  const links = request.server.caches.of(LINKS);
  let link = links.get(linkKey);
  if (link === undefined) {
    const parts: string[] = [];
    if (prev) parts.push(`<${linkFor(baseUrl, request, page.page - 1, page.perPage)}>; rel="prev"`);
    if (next) parts.push(`<${linkFor(baseUrl, request, page.page + 1, page.perPage)}>; rel="next"`);
    parts.push(`<${linkFor(baseUrl, request, 1, page.perPage)}>; rel="first"`);
    if (totalPages !== null) parts.push(`<${linkFor(baseUrl, request, totalPages, page.perPage)}>; rel="last"`);
    link = parts.join(', ');
    links.set(linkKey, link);
  }
  reply.header('x-page', String(page.page));
  reply.header('x-per-page', String(page.perPage));
  reply.header('x-next-page', next);
  reply.header('x-prev-page', prev);
  if (count !== null) {
    reply.header('x-total', String(count));
    reply.header('x-total-pages', String(totalPages));
  }
  reply.header('link', link);
}

/** Count the rows of `query` up to COUNT_LIMIT + 1; `null` when there are more than COUNT_LIMIT. */
export async function boundedCount(db: Kysely<any>, reads: Reads, query: SelectQueryBuilder<any, any, any>): Promise<number | null> {
  const rows = await reads.compiled(boundedCountQuery(db, query, COUNT_LIMIT));
  const n = Number(rows[0]?.n ?? 0);
  return n > COUNT_LIMIT ? null : n;
}

/**
 * The count of a page's query given the page's rows: a page that is not full is the last one, so the
 * count is the rows before it and on it, read by no statement (a project's few issues, an empty list
 * of merge requests: most listings clients ask for). A full page, or an empty one past the first
 * (past the last page: how many there are is still told), reads the bounded count.
 */
function countAfter(db: Kysely<any>, reads: Reads, query: SelectQueryBuilder<any, any, any>, page: Page, rowsOnPage: number): Promise<number | null> | number | null {
  if (rowsOnPage === page.perPage || (rowsOnPage === 0 && page.offset > 0)) return boundedCount(db, reads, query);
  const count = page.offset + rowsOnPage;
  return count > COUNT_LIMIT ? null : count;
}

/**
 * How a page reads its count. `after`: the page is read first, outside the query builder's per-query
 * work, and its bounded count only when the page does not tell it (`countAfter`). `in-page`: one
 * statement, the page's rows carrying the count (pagination-queries.ts, pageWithCountQuery, a column
 * the rows keep): for a listing read on most requests (the caller's projects), a statement less, and
 * on PostgreSQL a round trip. A `OnePass` function: the page's statement for a query with few rows (a
 * search's matches), which counts at most COUNT_LIMIT + 1 of them as it sorts them (pagination-
 * queries.ts, `onePassPageQuery`), so the matches are read once instead of twice; it answers null for
 * a page that reads as well `after`.
 */
export type PageCount = 'after' | 'in-page' | OnePass;
export type OnePass = (perPage: number, offset: number) => CompiledQuery<unknown> | null;

/**
 * Run an ordered query for one page and set the headers, its count read as `count` says. A page past
 * the last, which has no row to carry the count, reads it on its own. Beyond COUNT_LIMIT a one-pass
 * page was sorted from a part of the rows: it is read again by `query`, and the count is omitted as ever.
 */
export async function paginate<Row>(
  db: Kysely<any>,
  reads: Reads,
  baseUrl: string,
  request: FastifyRequest,
  reply: FastifyReply,
  input: Record<string, unknown>,
  query: SelectQueryBuilder<any, any, Row>,
  count: PageCount = 'after',
): Promise<Row[]> {
  const page = pageOf(input);
  const statement = count === 'after' ? null : count === 'in-page' ? pageWithCountQuery(query, page.perPage, page.offset, COUNT_LIMIT).compile() : count(page.perPage, page.offset);
  if (statement === null) {
    const rows = await reads.compiled(query.limit(pageSize(page.perPage)).offset(page.offset).compile());
    setPageHeaders(baseUrl, request, reply, page, await countAfter(db, reads, query, page, rows.length));
    return rows as Row[];
  }
  const rows = (await reads.compiled(statement)) as ReadonlyArray<Row & Record<typeof TOTAL_COLUMN, unknown>>;
  const counted = rows.length > 0 ? Number(rows[0][TOTAL_COLUMN]) : page.offset === 0 ? 0 : await boundedCount(db, reads, query);
  const exact = counted !== null && counted <= COUNT_LIMIT;
  setPageHeaders(baseUrl, request, reply, page, exact ? counted : null);
  if (exact || count === 'in-page') return rows as Row[];
  // A one-pass page of more rows than it counted is read from all of them (an empty one too, whose
  // offset may lie beyond the rows the statement sorted).
  return (await reads.compiled(query.limit(pageSize(page.perPage)).offset(page.offset).compile())) as Row[];
}
