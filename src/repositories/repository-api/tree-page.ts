// Keyset pages of a tree (`pagination=keyset`, GitLab's GitalyKeysetPager): `per_page` entries and,
// when more follow, a Link rel="next" whose `page_token` is the last entry's id. No totals.
import { pageOf } from '../../platform/http/pagination.js';
import type { PageContext } from './list-page.js';
import type { TreeEntry } from './tree-entries.js';

export function treePage(context: PageContext, entries: TreeEntry[]): TreeEntry[] {
  const { perPage } = pageOf({ per_page: context.input.per_page });
  const page = entries.slice(0, perPage);
  if (entries.length > perPage) {
    const url = new URL(context.request.url, 'http://placeholder');
    url.searchParams.set('page_token', page[page.length - 1].id);
    url.searchParams.set('per_page', String(perPage));
    context.reply.header('link', `<${context.deps.config.baseUrl}${url.pathname}${url.search}>; rel="next"`);
  }
  return page;
}
