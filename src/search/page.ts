// Pages of search results with GitLab's headers. Global and group searches page without counting
// (SearchResults#objects `without_count`: no X-Total, X-Total-Pages or rel="last"; the next page is
// known by reading one row more); blobs are an array, counted as found.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import { pageOf, setPageHeaders, type Page } from '../platform/http/pagination.js';

function link(baseUrl: string, request: FastifyRequest, page: number, perPage: number): string {
  const url = new URL(request.url, 'http://placeholder');
  url.searchParams.set('page', String(page));
  url.searchParams.set('per_page', String(perPage));
  url.searchParams.sort();
  return `${baseUrl}${url.pathname}?${url.searchParams.toString()}`;
}

/** Headers of a page whose total is not counted. */
function setUncountedHeaders(baseUrl: string, request: FastifyRequest, reply: FastifyReply, page: Page, hasNext: boolean): void {
  const parts: string[] = [];
  if (page.page > 1) parts.push(`<${link(baseUrl, request, page.page - 1, page.perPage)}>; rel="prev"`);
  if (hasNext) parts.push(`<${link(baseUrl, request, page.page + 1, page.perPage)}>; rel="next"`);
  parts.push(`<${link(baseUrl, request, 1, page.perPage)}>; rel="first"`);
  reply.header('x-page', String(page.page));
  reply.header('x-per-page', String(page.perPage));
  reply.header('x-next-page', hasNext ? String(page.page + 1) : '');
  reply.header('x-prev-page', page.page > 1 ? String(page.page - 1) : '');
  reply.header('link', parts.join(', '));
}

export interface PageContext {
  baseUrl: string;
  request: FastifyRequest;
  reply: FastifyReply;
  input: Record<string, unknown>;
}

/** One page of an ordered query, without a count. */
export async function uncountedPage<Row>(context: PageContext, query: SelectQueryBuilder<any, any, Row>): Promise<Row[]> {
  const page = pageOf(context.input);
  const rows = await query.limit(page.perPage + 1).offset(page.offset).execute();
  setUncountedHeaders(context.baseUrl, context.request, context.reply, page, rows.length > page.perPage);
  return rows.slice(0, page.perPage);
}

/** An empty page, as a scope with nothing to find answers. */
export function emptyPage(context: PageContext): [] {
  setUncountedHeaders(context.baseUrl, context.request, context.reply, pageOf(context.input), false);
  return [];
}

/** One page of an array, counted. */
export function arrayPage<T>(context: PageContext, items: T[]): T[] {
  const page = pageOf(context.input);
  setPageHeaders(context.baseUrl, context.request, context.reply, page, items.length);
  return items.slice(page.offset, page.offset + page.perPage);
}
