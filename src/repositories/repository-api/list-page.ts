// Offset pagination over lists read from git (GitLab pages them with Kaminari.paginate_array): the
// same page parameters and headers as the database lists.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageOf, setPageHeaders, type Page } from '../../platform/http/pagination.js';

export interface PageContext {
  request: FastifyRequest;
  reply: FastifyReply;
  input: Record<string, unknown>;
  deps: { config: { baseUrl: string } };
}

/** One page of `items` with X-Total and the Link header. */
export function pageArray<T>(context: PageContext, items: readonly T[]): T[] {
  const page = pageOf(context.input);
  setPageHeaders(context.deps.config.baseUrl, context.request, context.reply, page, items.length);
  return items.slice(page.offset, page.offset + page.perPage);
}

export function requestedPage(context: PageContext): Page {
  return pageOf(context.input);
}

/**
 * Headers for a page whose total is not counted (GitLab's commit list): a full page announces a
 * next one; a short page is the last, and then its total is known.
 */
export function setOpenEndedHeaders(context: PageContext, page: Page, fetched: number): void {
  const total = fetched < page.perPage ? page.offset + fetched : null;
  setPageHeaders(context.deps.config.baseUrl, context.request, context.reply, page, total);
}
