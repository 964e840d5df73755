// A project's merge requests (GitLab's Merge requests page): Open, Merged, Closed and All tabs with
// counts, filters by author, assignee, reviewer, label and milestone, a search, the sort orders of
// GitLab's page and pages of 20, read through the same query as the API's list.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { usersById } from '../../issues/api.js';
import { projectMergeRequestsQuery, type MergeRequestFilters, type OrderBy } from '../merge-requests-queries.js';
import { isDraftTitle } from '../draft.js';
import { mergeRequestsRoot, mrStateBadge, openCount, userLink } from './shared.js';
import { when } from './time.js';

export const MERGE_REQUESTS_PATTERN = /^(?<path>.+?)\/-\/merge_requests$/;
const TABS = [['opened', 'Open'], ['merged', 'Merged'], ['closed', 'Closed'], ['all', 'All']] as const;
type Tab = (typeof TABS)[number][0];
/** GitLab's `sort` values of the page, as order and direction. */
const SORTS: Record<string, [string, OrderBy, 'asc' | 'desc']> = {
  created_date: ['Created date', 'created_at', 'desc'],
  created_asc: ['Oldest created', 'created_at', 'asc'],
  updated_desc: ['Updated date', 'updated_at', 'desc'],
  updated_asc: ['Oldest updated', 'updated_at', 'asc'],
  merged_at_desc: ['Merged date', 'merged_at', 'desc'],
  title_asc: ['Title', 'title', 'asc'],
};
const FILTERS = [['author_username', 'Author'], ['assignee_username', 'Assignee'], ['reviewer_username', 'Reviewer'], ['label_name', 'Label'], ['milestone_title', 'Milestone']] as const;
const PER_PAGE = 20;

function text(value: string | undefined, max = 255): string {
  return typeof value === 'string' ? value.trim().slice(0, max) : '';
}

export async function renderMergeRequestList(context: PageContext, access: ProjectAccess) {
  const { deps, query } = context;
  const state: Tab = TABS.some(([name]) => name === query.state) ? (query.state as Tab) : 'opened';
  const sort = SORTS[query.sort ?? ''] ? (query.sort as string) : 'created_date';
  const chosen = Object.fromEntries(FILTERS.map(([name]) => [name, text(query[name])]).filter(([, value]) => value)) as Record<string, string>;
  const search = text(query.search);
  const pageNumber = Math.max(1, Math.min(1000, Number.parseInt(query.page ?? '1', 10) || 1));
  const filters = (tab: Tab): MergeRequestFilters => ({
    state: tab,
    ...(search ? { search } : {}),
    ...(chosen.author_username ? { authorUsername: chosen.author_username } : {}),
    ...(chosen.assignee_username ? { assigneeUsernames: [chosen.assignee_username] } : {}),
    ...(chosen.reviewer_username ? { reviewerUsername: chosen.reviewer_username } : {}),
    ...(chosen.label_name ? { labels: [chosen.label_name] } : {}),
    ...(chosen.milestone_title ? { milestone: chosen.milestone_title } : {}),
  });
  const projectId = Number(access.project.id);
  const viewer = context.user ?? null;
  const count = async (tab: Tab) => Number((await projectMergeRequestsQuery(deps, projectId, filters(tab), viewer).clearSelect().clearOrderBy().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const [, orderBy, direction] = SORTS[sort];
  const [counts, openTotal, rows] = await Promise.all([
    Promise.all(TABS.map(([tab]) => count(tab))),
    // The sidebar counts every open merge request, whatever the filters.
    openCount(deps, access),
    projectMergeRequestsQuery(deps, projectId, { ...filters(state), orderBy, sort: direction }, viewer).limit(PER_PAGE + 1).offset((pageNumber - 1) * PER_PAGE).execute(),
  ]);
  const shown = rows.slice(0, PER_PAGE);
  const users = await usersById(deps.db, shown.map((row) => row.author_id));
  const root = mergeRequestsRoot(access);
  const kept = { state, ...(search ? { search } : {}), ...chosen, ...(sort !== 'created_date' ? { sort } : {}) };
  const link = (overrides: Record<string, string | number>) => `${root}?${new URLSearchParams({ ...kept, ...Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, String(v)])) }).toString()}`;
  const filtered = Boolean(search) || Object.keys(chosen).length > 0;
  const body = html`
<div class="actions">
  ${canOnProject(access, 'create_merge_request_in') ? html`<a class="button" id="new-merge-request" href="${root}/new">New merge request</a>` : ''}
</div>
<details class="filters"${filtered ? html` open` : ''}><summary>Search and filter</summary>
<form method="get" action="${root}" class="stacked" role="search" id="merge-request-filters">
<input type="hidden" name="state" value="${state}">
<label for="mr-search">Search</label><input id="mr-search" type="search" name="search" value="${search}" placeholder="Search or filter results">
${FILTERS.map(([name, label]) => html`<label for="mr-${name}">${label}</label><input id="mr-${name}" type="text" name="${name}" value="${chosen[name] ?? ''}">`)}
<label for="mr-sort">Sort by</label><select id="mr-sort" name="sort">${Object.entries(SORTS).map(([value, [label]]) => html`<option value="${value}"${value === sort ? html` selected` : ''}>${label}</option>`)}</select>
<p class="actions"><button type="submit" class="secondary">Filter</button>${filtered ? html` <a href="${root}?state=${state}">Clear</a>` : ''}</p>
</form></details>
<nav class="tabs" aria-label="Merge requests by state">${TABS.map(([tab, label], index) => html`<a href="${link({ state: tab, page: 1 })}" class="${tab === state ? 'active' : ''}" data-tab="${tab}"${tab === state ? html` aria-current="page"` : ''}>${label} <span class="badge">${counts[index]}</span></a>`)}</nav>
${
  shown.length
    ? html`<ul class="plain" id="merge-requests">${shown.map(
        (mr) => html`<li data-iid="${mr.iid}"><div><a class="title" href="${root}/${mr.iid}">${mr.title}</a> ${isDraftTitle(mr.title) ? html`<span class="badge">Draft</span>` : ''}</div>
<div class="muted">!${mr.iid} · opened ${when(mr.created_at)} by ${userLink(users, mr.author_id)} · <code>${mr.source_branch}</code> → <code>${mr.target_branch}</code></div><div>${mrStateBadge(mr)}</div></li>`,
      )}</ul>`
    : html`<p class="empty">${filtered ? 'No merge requests match these filters.' : `There are no ${state === 'all' ? '' : `${TABS.find(([tab]) => tab === state)![1].toLowerCase()} `}merge requests.`}</p>`
}
<nav class="pagination" aria-label="Pages">${pageNumber > 1 ? html`<a href="${link({ page: pageNumber - 1 })}" rel="prev">Previous</a>` : ''}${rows.length > PER_PAGE ? html`<a href="${link({ page: pageNumber + 1 })}" rel="next">Next</a>` : ''}</nav>`;
  return page({ title: `Merge requests · ${access.project.name}`, heading: html`<h1>Merge requests</h1>`, body, sidebar: projectSidebar(access, 'merge_requests', { mergeRequests: openTotal }) });
}
