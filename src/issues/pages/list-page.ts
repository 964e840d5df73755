// The issue and incident lists of a project (GitLab's Issues and Monitor › Incidents): open, closed and
// all tabs with counts, the filters of list-filters.ts, and pages of 20. Confidential issues only for those who may read them.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { projectIssuesQuery } from '../issues-queries.js';
import { narrowIssueSearch } from '../issue-search-queries.js';
import { confidentialScope } from '../finder.js';
import { usersById } from '../entities.js';
import { authorLink, confidentialBadge, stateBadge, when } from './shared.js';
import { filterChoices, filterForm, listFiltersOf } from './list-filters.js';

export const ISSUES_PATTERN = /^(?<path>.+?)\/-\/issues$/;
export const INCIDENTS_PATTERN = /^(?<path>.+?)\/-\/incidents$/;
const TABS = [['opened', 'Open'], ['closed', 'Closed'], ['all', 'All']] as const;
const PER_PAGE = 20;

export async function renderIssueList(context: PageContext, access: ProjectAccess, issueType: 'issue' | 'incident') {
  const { deps, query } = context;
  const state = TABS.some(([name]) => name === query.state) ? (query.state as 'opened' | 'closed' | 'all') : 'opened';
  const pageNumber = Math.max(1, Math.min(1000, Number.parseInt(query.page ?? '1', 10) || 1));
  const list = listFiltersOf(query);
  const search = list.values.search;
  const scope = confidentialScope(access);
  const searched = search ? await narrowIssueSearch(deps, { search }) : {};
  const filters = (tab: 'opened' | 'closed' | 'all') => ({ ...list.filters, ...searched, state: tab, issueType });
  const count = async (tab: 'opened' | 'closed' | 'all') =>
    Number((await projectIssuesQuery(deps, access.project.id, scope, filters(tab), context.user ?? null).clearSelect().clearOrderBy().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const [counts, rows] = await Promise.all([
    Promise.all(TABS.map(([tab]) => count(tab))),
    projectIssuesQuery(deps, access.project.id, scope, filters(state), context.user ?? null).limit(PER_PAGE + 1).offset((pageNumber - 1) * PER_PAGE).execute(),
  ]);
  const shown = rows.slice(0, PER_PAGE);
  const users = await usersById(deps.db, shown.map((row) => row.author_id));
  const base = `/${access.project.full_path}`;
  const root = `${base}/-/${issueType === 'incident' ? 'incidents' : 'issues'}`;
  const link = (overrides: { state?: string; page?: number }) => {
    const params = new URLSearchParams([['state', overrides.state ?? state], ...list.params]);
    const number = overrides.page ?? pageNumber;
    if (number > 1) params.set('page', String(number));
    return `${root}?${params}`;
  };
  const choices = await filterChoices(deps, access);
  const plural = issueType === 'incident' ? 'incidents' : 'issues';
  const body = html`
<div class="actions">
  ${canOnProject(access, 'create_issue') ? html`<a class="button" href="${base}/-/issues/new${issueType === 'incident' ? '?issue_type=incident' : ''}">New ${issueType}</a>` : ''}
</div>
${filterForm(root, state, list, choices, plural)}
<nav class="tabs" aria-label="${plural} by state">${TABS.map(([tab, label], index) => html`<a href="${link({ state: tab, page: 1 })}" class="${tab === state ? 'active' : ''}" data-tab="${tab}"${tab === state ? html` aria-current="page"` : ''}>${label} <span class="badge">${counts[index]}</span></a>`)}</nav>
${
  shown.length
    ? html`<table id="issues"><thead><tr><th>Title</th><th>Author</th><th>Created</th><th>State</th></tr></thead><tbody>${shown.map(
        (issue) => html`<tr data-iid="${issue.iid}"><td><a href="${base}/-/issues/${issue.iid}">${issue.title}</a> <span class="muted">#${issue.iid}</span> ${confidentialBadge(issue)}</td><td>${authorLink(users, issue.author_id)}</td><td>${when(issue.created_at)}</td><td>${stateBadge(issue)}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="empty">${list.params.some(([name]) => name !== 'sort') ? `No ${plural} match these filters.` : `There are no ${state === 'all' ? '' : state === 'opened' ? 'open ' : 'closed '}${plural}.`}</p>`
}
<nav class="pagination" aria-label="Pages">${pageNumber > 1 ? html`<a href="${link({ page: pageNumber - 1 })}" rel="prev">Previous</a>` : ''}${rows.length > PER_PAGE ? html`<a href="${link({ page: pageNumber + 1 })}" rel="next">Next</a>` : ''}</nav>`;
  return page({ title: `${issueType === 'incident' ? 'Incidents' : 'Issues'} · ${access.project.name}`, heading: html`<h1>${issueType === 'incident' ? 'Incidents' : 'Issues'}</h1>`, body, sidebar: projectSidebar(access, issueType === 'incident' ? 'incidents' : 'issues') });
}
