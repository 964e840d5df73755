// What the explore pages share: who may open them, the reader's time zone, the page number and the
// page links, and the search box.
import type { Deps } from '../platform/deps.js';
import { html, type Html } from '../platform/web/html.js';
import type { PageContext } from '../platform/web/page-route.js';
import { redirect, type RedirectResult } from '../platform/web/page.js';
import { readApplicationSettings } from '../application-settings/api.js';
import { uploadedAvatarUrl } from '../accounts/api.js';

export const PER_PAGE = 20;
const MAX_PAGE = 1000;

/**
 * GitLab's explore pages are open to anonymous visitors unless the administrator restricted the
 * Public level (Explore::ApplicationController signs them in then): what the sign-in asks for.
 */
export async function signInFirst(context: PageContext): Promise<RedirectResult | null> {
  if (context.user) return null;
  const { restricted_visibility_levels: restricted } = await readApplicationSettings(context.deps.db);
  return restricted.includes('public') ? redirect(`/users/sign_in?return_to=${encodeURIComponent(context.request.url)}`, null, 302) : null;
}

export async function zoneOf(deps: Deps, context: PageContext): Promise<string> {
  if (!context.user) return 'UTC';
  return (await deps.db.selectFrom('users').select('time_zone').where('id', '=', context.user.id).executeTakeFirst())?.time_zone || 'UTC';
}

/** A list's choices from its address: the name filter (GitLab's `name`), a known sort, the page. */
export interface ListState<S> {
  search: string;
  sort: S;
  pageNumber: number;
  /** The address of another page of `root`, keeping the filter (and the sort unless it is the default). */
  href(root: string, page: number, keepSort?: boolean): string;
}

export function listStateOf<S extends readonly [string, ...unknown[]]>(query: Record<string, string>, sorts: readonly S[]): ListState<S> {
  const search = typeof query.name === 'string' ? query.name.trim().slice(0, 255) : '';
  const sort = sorts.find(([name]) => name === query.sort) ?? sorts[0];
  const pageNumber = Math.max(1, Math.min(MAX_PAGE, Number.parseInt(query.page ?? '1', 10) || 1));
  const href = (root: string, page: number, keepSort = true) => {
    const params = new URLSearchParams();
    if (search) params.set('name', search);
    if (keepSort && sort !== sorts[0]) params.set('sort', sort[0]);
    if (page > 1) params.set('page', String(page));
    const text = params.toString();
    return text ? `${root}?${text}` : root;
  };
  return { search, sort, pageNumber, href };
}

export function pageLinks(href: (page: number) => string, pageNumber: number, hasNext: boolean): Html {
  return html`<nav class="pagination" aria-label="Pages">${pageNumber > 1 ? html`<a href="${href(pageNumber - 1)}" rel="prev">Previous</a>` : ''}${hasNext ? html`<a href="${href(pageNumber + 1)}" rel="next">Next</a>` : ''}</nav>`;
}

/** A plain GET form: the search and, where the list has them, the sort choices. */
export function filterForm(action: string, what: string, search: string, sorts: ReadonlyArray<readonly [string, string]>, sort: string): Html {
  return html`<form method="get" action="${action}" role="search" class="explore-filter">
<label for="explore-name">Filter by name</label> <input type="search" id="explore-name" name="name" value="${search}" placeholder="Filter ${what} by name">
${sorts.length ? html`<label for="explore-sort">Sort by</label> <select id="explore-sort" name="sort">${sorts.map(([value, label]) => html`<option value="${value}"${value === sort ? html` selected` : ''}>${label}</option>`)}</select>` : ''}
<button type="submit" class="secondary">Filter</button></form>`;
}

export function sectionTabs(label: string, tabs: ReadonlyArray<readonly [string, string]>, current: string): Html {
  return html`<nav class="tabs" aria-label="${label}">${tabs.map(([href, text]) => html`<a href="${href}"${href === current ? html` class="active" aria-current="page"` : ''}>${text}</a>`)}</nav>`;
}

/** The two halves of Explore. */
export const EXPLORE_TABS = [['/explore/projects', 'Projects'], ['/explore/groups', 'Groups']] as const;

/** A project's or group's uploaded avatar, else its initial (decorative: the name follows it). */
export function avatarOf(model: 'project' | 'group', row: { id: number; name: string; avatar: string | null }): Html {
  const url = uploadedAvatarUrl('', model, Number(row.id), row.avatar);
  return url ? html`<img class="avatar" src="${url}" alt="" width="32" height="32">` : html`<span class="avatar" aria-hidden="true">${row.name.slice(0, 1).toUpperCase()}</span>`;
}
