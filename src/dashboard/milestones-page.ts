// Your milestones (GitLab's Dashboard › Milestones, /dashboard/milestones, Shift+L): the milestones of
// the projects and groups the signed-in user is a member of, Open, Closed and All tabs with counts,
// each with where it lives, its due date and its progress (the issues on it the user may read, how
// many are closed), soonest due first, pages of 20.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { html, type Html } from '../platform/web/html.js';
import { pageRoute } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';
import { groupPaths, projectPaths } from './finder.js';
import { memberMilestonesQuery, milestoneProgress, orderedMilestones } from './milestones-queries.js';
import { PER_PAGE, pageNumberOf, pagination } from './pagination.js';

const TABS = [['active', 'Open'], ['closed', 'Closed'], ['all', 'All']] as const;
type State = (typeof TABS)[number][0];

function progressCell(title: string, progress: { total: number; closed: number } | undefined): Html {
  const { total, closed } = progress ?? { total: 0, closed: 0 };
  const percent = total ? Math.floor((closed * 100) / total) : 0;
  return html`<progress class="progress" max="100" value="${percent}" aria-label="${title}: ${percent}% complete">${percent}%</progress> <span class="muted">${percent}% · ${closed} of ${total} issues closed</span>`;
}

export function milestonesPageRoutes(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/dashboard/milestones', ability: { instance: 'log_in' },
    handler: async ({ user, query }) => {
      const state: State = TABS.find(([name]) => name === query.state)?.[0] ?? 'active';
      const number = pageNumberOf(query);
      const link = (changes: { state?: State; page?: number }) => `/dashboard/milestones?state=${changes.state ?? state}${(changes.page ?? 1) > 1 ? `&page=${changes.page}` : ''}`;
      const [byState, rows] = await Promise.all([
        memberMilestonesQuery(deps, user, 'all').clearSelect().select(['state', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('state').execute(),
        orderedMilestones(memberMilestonesQuery(deps, user, state)).limit(PER_PAGE + 1).offset((number - 1) * PER_PAGE).execute(),
      ]);
      // The three tabs' counts from one statement: open and closed by state, all their sum.
      const countOf = (name: State) => byState.filter((row) => name === 'all' || row.state === name).reduce((sum, row) => sum + Number(row.n), 0);
      const counts = TABS.map(([name]) => countOf(name));
      const shown = rows.slice(0, PER_PAGE);
      const [projects, groups, progress] = await Promise.all([
        projectPaths(deps, shown.filter((row) => row.project_id !== null).map((row) => Number(row.project_id))),
        groupPaths(deps, shown.filter((row) => row.group_id !== null).map((row) => Number(row.group_id))),
        milestoneProgress(deps, user, shown.map((row) => Number(row.id))),
      ]);
      const body = html`
<nav class="tabs" aria-label="Milestones by state">${TABS.map(([name, label], index) => html`<a href="${link({ state: name })}" class="${name === state ? 'active' : ''}" data-tab="${name}"${name === state ? html` aria-current="page"` : ''}>${label} <span class="badge">${counts[index]}</span></a>`)}</nav>
${shown.length
  ? html`<table id="your-milestones"><thead><tr><th>Milestone</th><th class="wide-only">Due</th><th>Progress</th><th>State</th></tr></thead><tbody>${shown.map((row) => {
      const [where, base] = row.project_id !== null ? [projects.get(Number(row.project_id)) ?? '', `/${projects.get(Number(row.project_id)) ?? ''}`] : [groups.get(Number(row.group_id)) ?? '', `/groups/${groups.get(Number(row.group_id)) ?? ''}`];
      return html`<tr data-milestone="${row.id}"><td><a href="${base}/-/milestones/${row.iid}">${row.title}</a> <span class="muted">${where}</span></td><td class="wide-only">${row.due_date ?? html`<span class="muted">No due date</span>`}</td><td>${progressCell(row.title, progress.get(Number(row.id)))}</td><td><span class="badge state-${row.state === 'active' ? 'open' : 'closed'}">${row.state === 'active' ? 'Open' : 'Closed'}</span></td></tr>`;
    })}</tbody></table>`
  : html`<div class="empty"><p>No ${state === 'all' ? '' : `${state === 'active' ? 'open' : 'closed'} `}milestones in your projects and groups.</p>${state === 'closed' ? '' : html`<p>A milestone gathers the issues due for a release or a date. Members with at least the Reporter role create them on a project's or group's Milestones page; they appear here for every member.</p>`}</div>`}
${pagination(number, rows.length > PER_PAGE, (n) => link({ page: n }))}`;
      return page({ title: 'Your milestones', body });
    },
  });
}
