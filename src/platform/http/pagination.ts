// Offset pagination with GitLab's headers (GitLab's REST API documentation). Counting stops at 10,001 rows:
// above 10,000, X-Total, X-Total-Pages and rel="last" are omitted (docs/decisions.md, X-Total at scale).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { ParamError } from '../errors.js';
import type { ReadCache } from '../db/read-cache.js';
import { JsonText } from './json-text.js';
import { boundedCountQuery, pageSize } from './pagination-queries.js';
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
export async function boundedCount(db: Kysely<any>, readCache: ReadCache, query: SelectQueryBuilder<any, any, any>): Promise<number | null> {
  const rows = await readCache.compiled(boundedCountQuery(db, query, COUNT_LIMIT), { cache: true });
  const n = Number(rows[0]?.n ?? 0);
  return n > COUNT_LIMIT ? null : n;
}

/**
 * Run an ordered query for one page and set the headers. Page and count go through the read cache
 * (platform/db/read-cache.ts): clients poll the same pages, and both are exact until the next write.
 * The rows are shared with other callers: map them, never change them.
 */
export async function paginate<Row>(
  db: Kysely<any>,
  readCache: ReadCache,
  baseUrl: string,
  request: FastifyRequest,
  reply: FastifyReply,
  input: Record<string, unknown>,
  query: SelectQueryBuilder<any, any, Row>,
): Promise<Row[]> {
  const page = pageOf(input);
  const { count, rows } = await pageWithCount(db, readCache, query, page);
  setPageHeaders(baseUrl, request, reply, page, count);
  return rows;
}

/** One page of an ordered query and its bounded count, both through the read cache. */
async function pageWithCount<Row>(db: Kysely<any>, readCache: ReadCache, query: SelectQueryBuilder<any, any, Row>, page: Page): Promise<{ count: number | null; rows: Row[] }> {
  const [count, rows] = await Promise.all([boundedCount(db, readCache, query), readCache.compiled(query.limit(pageSize(page.perPage)).offset(page.offset).compile(), { cache: true })]);
  return { count, rows: rows as Row[] };
}

export interface CachedListing<Row, Out> {
  /**
   * Every input of `query` and `present` besides the data and the caller (filters, the path's ids):
   * the route context adds the route and the caller's access scope.
   */
  key: unknown[];
  /** The ordered query; may check access first (a miss runs it, a hit needs no check: same key, same answer). */
  query: () => SelectQueryBuilder<any, any, Row> | Promise<SelectQueryBuilder<any, any, Row>>;
  present: (rows: Row[]) => Out[] | Promise<Out[]>;
}

/** A page as its statement returned it: the presented body and the bounded count (`null` above COUNT_LIMIT). */
export interface PresentedPage {
  count: number | null;
  body: JsonText;
}

/**
 * A page presented once per database version: `scopedKey` names the listing (the route, the caller's
 * access scope and every other input of `fetch`; route.ts builds it), and `fetch` runs only on a
 * miss. For listings whose statement returns the page already presented with its count; with the
 * read cache off (`KILN_READ_CACHE=false`) `fetch` always runs.
 */
export async function cachedPresentedPage(
  readCache: ReadCache,
  baseUrl: string,
  request: FastifyRequest,
  reply: FastifyReply,
  input: Record<string, unknown>,
  scopedKey: string,
  fetch: (page: Page) => Promise<PresentedPage>,
  arrivedAt?: number,
): Promise<JsonText> {
  const page = pageOf(input);
  const { count, body } = await readCache.memo(`${scopedKey}\u0000page\u0000${page.perPage}\u0000${page.offset}`, () => fetch(page), arrivedAt);
  setPageHeaders(baseUrl, request, reply, page, count);
  return body;
}

/**
 * A listing's page through `cachedPresentedPage`: the page and its count come from the read cache,
 * and `present` runs only on a miss. With the read cache off it is `paginate` followed by `present`.
 */
export function cachedPage<Row, Out>(
  db: Kysely<any>,
  readCache: ReadCache,
  baseUrl: string,
  request: FastifyRequest,
  reply: FastifyReply,
  input: Record<string, unknown>,
  scopedKey: string,
  listing: CachedListing<Row, Out>,
  arrivedAt?: number,
): Promise<JsonText> {
  return cachedPresentedPage(
    readCache,
    baseUrl,
    request,
    reply,
    input,
    scopedKey,
    async (page) => {
      const { count, rows } = await pageWithCount(db, readCache, await listing.query(), page);
      return { count, body: new JsonText(await listing.present(rows)) };
    },
    arrivedAt,
  );
}
