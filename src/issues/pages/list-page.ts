// The issue and incident lists of a project (GitLab's Issues and Monitor › Incidents) and of a group
// (its projects' and subgroups' issues the reader may see, GitLab's group Issues): open, closed and
// all tabs with counts, the filters of list-filters.ts, and pages of 20. Confidential issues only
// for those who may read them. A page's rows, their authors and projects are read in a fixed number
// of statements, whatever the page holds.
import type { GroupAccess, ProjectAccess } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { html, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page } from '../../platform/web/page.js';
import { groupSidebar, projectSidebar } from '../../platform/web/project-nav.js';
import { groupAndDescendantIds } from '../../labels/api.js';
import { projectIssuesQuery, readableIssuesQuery, type IssueFilters } from '../issues-queries.js';
import { narrowIssueSearch } from '../issue-search-queries.js';
import { confidentialScope } from '../finder.js';
import { usersById, type IssueRow } from '../entities.js';
import { authorLink, confidentialBadge, projectPaths, stateBadge, when } from './shared.js';
import { filterChoices, filterForm, listFiltersOf } from './list-filters.js';

export const ISSUES_PATTERN = /^(?<path>.+?)\/-\/issues$/;
export const INCIDENTS_PATTERN = /^(?<path>.+?)\/-\/incidents$/;
export const GROUP_ISSUES_PATTERN = /^groups\/(?<path>.+?)\/-\/issues$/;
const TABS = [['opened', 'Open'], ['closed', 'Closed'], ['all', 'All']] as const;
type Tab = (typeof TABS)[number][0];
const PER_PAGE = 20;

/** Where a list reads its issues from and how it links them. */
interface ListSource {
  issues(filters: IssueFilters): ReturnType<typeof projectIssuesQuery>;
  /** The list's own URL (its filter form and tab links). */
  root: string;
  choices: Promise<{ labels: string[]; milestones: string[] }>;
  /** Each shown issue's page and the reference it is shown with, read once for the page's rows. */
  links(rows: IssueRow[]): Promise<(issue: IssueRow) => { href: string; reference: string }>;
  plural: string;
  actions: Html;
}

async function renderList(context: PageContext, source: ListSource, issueType: 'issue' | 'incident') {
  const { deps, query } = context;
  const state: Tab = TABS.some(([name]) => name === query.state) ? (query.state as Tab) : 'opened';
  const pageNumber = Math.max(1, Math.min(1000, Number.parseInt(query.page ?? '1', 10) || 1));
  const list = listFiltersOf(query);
  const search = list.values.search;
  const searched = search ? await narrowIssueSearch(deps, { search }) : {};
  const filters = (tab: Tab): IssueFilters => ({ ...list.filters, ...searched, state: tab, issueType });
  const count = async (tab: Tab) => Number((await source.issues(filters(tab)).clearSelect().clearOrderBy().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const [counts, rows, choices] = await Promise.all([
    Promise.all(TABS.map(([tab]) => count(tab))),
    source.issues(filters(state)).limit(PER_PAGE + 1).offset((pageNumber - 1) * PER_PAGE).execute(),
    source.choices,
  ]);
  const shown = rows.slice(0, PER_PAGE);
  const [users, linkOf] = await Promise.all([usersById(deps.db, shown.map((row) => row.author_id)), source.links(shown)]);
  const link = (overrides: { state?: string; page?: number }) => {
    const params = new URLSearchParams([['state', overrides.state ?? state], ...list.params]);
    const number = overrides.page ?? pageNumber;
    if (number > 1) params.set('page', String(number));
    return `${source.root}?${params}`;
  };
  const { plural } = source;
  return html`
${source.actions}
${filterForm(source.root, state, list, choices, plural)}
<nav class="tabs" aria-label="${plural} by state">${TABS.map(([tab, label], index) => html`<a href="${link({ state: tab, page: 1 })}" class="${tab === state ? 'active' : ''}" data-tab="${tab}"${tab === state ? html` aria-current="page"` : ''}>${label} <span class="badge">${counts[index]}</span></a>`)}</nav>
${
  shown.length
    ? html`<table id="issues"><thead><tr><th>Title</th><th>Author</th><th>Created</th><th>State</th></tr></thead><tbody>${shown.map((issue) => {
        const { href, reference } = linkOf(issue);
        return html`<tr data-iid="${issue.iid}"><td><a href="${href}">${issue.title}</a> <span class="muted issue-ref">${reference}</span> ${confidentialBadge(issue)}</td><td>${authorLink(users, issue.author_id)}</td><td>${when(issue.created_at)}</td><td>${stateBadge(issue)}</td></tr>`;
      })}</tbody></table>`
    : html`<p class="empty">${list.params.some(([name]) => name !== 'sort') ? `No ${plural} match these filters.` : `There are no ${state === 'all' ? '' : state === 'opened' ? 'open ' : 'closed '}${plural}.`}</p>`
}
<nav class="pagination" aria-label="Pages">${pageNumber > 1 ? html`<a href="${link({ page: pageNumber - 1 })}" rel="prev">Previous</a>` : ''}${rows.length > PER_PAGE ? html`<a href="${link({ page: pageNumber + 1 })}" rel="next">Next</a>` : ''}</nav>`;
}

export async function renderIssueList(context: PageContext, access: ProjectAccess, issueType: 'issue' | 'incident') {
  const { deps } = context;
  const scope = confidentialScope(access);
  const base = `/${access.project.full_path}`;
  const plural = issueType === 'incident' ? 'incidents' : 'issues';
  const body = await renderList(context, {
    issues: (filters) => projectIssuesQuery(deps, access.project.id, scope, filters, context.user ?? null),
    root: `${base}/-/${plural}`,
    choices: filterChoices(deps, { project: access.project }),
    links: async () => (issue) => ({ href: `${base}/-/issues/${issue.iid}`, reference: `#${issue.iid}` }),
    plural,
    actions: html`<div class="actions">
  ${canOnProject(access, 'create_issue') ? html`<a class="button" href="${base}/-/issues/new${issueType === 'incident' ? '?issue_type=incident' : ''}">New ${issueType}</a>` : ''}
</div>`,
  }, issueType);
  return page({ title: `${issueType === 'incident' ? 'Incidents' : 'Issues'} · ${access.project.name}`, heading: html`<h1>${issueType === 'incident' ? 'Incidents' : 'Issues'}</h1>`, body, sidebar: projectSidebar(access, issueType === 'incident' ? 'incidents' : 'issues') });
}

/**
 * A group's issues (GitLab's /groups/:group/-/issues, as GET /groups/:id/issues lists them): those of
 * every project in the group and its subgroups that the reader may read, each shown with its
 * project's reference (`group/project#12`); labels and milestones offered are the group's and its
 * ancestors'.
 */
export async function renderGroupIssueList(context: PageContext, access: GroupAccess) {
  const { deps } = context;
  const groupIds = await groupAndDescendantIds(deps.db, Number(access.group.id));
  const viewer = context.user ?? null;
  const body = await renderList(context, {
    issues: (filters) => readableIssuesQuery(deps, viewer, { groupIds }, filters),
    root: `/groups/${access.group.full_path}/-/issues`,
    choices: filterChoices(deps, { group: access.group }),
    links: async (rows) => {
      const paths = await projectPaths(deps, rows);
      return (issue) => {
        const path = paths.get(Number(issue.project_id)) ?? '';
        return { href: `/${path}/-/issues/${issue.iid}`, reference: `${path}#${issue.iid}` };
      };
    },
    plural: 'issues',
    actions: html``,
  }, 'issue');
  return page({ title: `Issues · ${access.group.name}`, heading: html`<h1>Issues</h1>`, body, sidebar: groupSidebar(access, 'issues') });
}
