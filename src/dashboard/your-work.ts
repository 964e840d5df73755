// "Your work" (GitLab's Dashboard › Issues and › Merge requests): the issues and merge requests the
// signed-in user may read across every project, assigned to them, opened by them, or (merge requests)
// waiting for their review, with state tabs and counts, newest first, pages of 20. The choices are
// query parameters that the tabs, the scope links and the pages keep, so everything works without JS.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { html, type Html } from '../platform/web/html.js';
import { pageRoute } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';
import { localTime } from '../platform/web/local-time.js';
import { readableIssuesQuery, usersById } from '../issues/api.js';
import { readableMergeRequestsQuery } from '../merge-requests/api.js';
import { projectPaths, timeZoneOf } from './finder.js';
import { PER_PAGE, pageNumberOf, pagination } from './pagination.js';

interface Row {
  id: number;
  iid: number;
  title: string;
  state: string;
  author_id: number;
  created_at: number;
  projectId: number;
}

interface Kind {
  url: string;
  title: string;
  noun: string;
  sigil: string;
  segment: string;
  /** Name, tab label, and how the empty list says it. */
  scopes: ReadonlyArray<readonly [string, string, string]>;
  states: ReadonlyArray<readonly [string, string]>;
  /** The query of one scope and state, newest first (readable records only). */
  query(deps: Deps, user: AuthUser, scope: string, state: string): { count(): Promise<number>; page(offset: number, limit: number): Promise<Row[]> };
}

const ISSUES: Kind = {
  url: '/dashboard/issues', title: 'Issues', noun: 'issues', sigil: '#', segment: 'issues',
  scopes: [['assigned_to_me', 'Assigned to you', 'assigned to you'], ['created_by_me', 'Created by you', 'created by you']],
  states: [['opened', 'Open'], ['closed', 'Closed'], ['all', 'All']],
  query(deps, user, scope, state) {
    const build = () => readableIssuesQuery(deps, user, { everywhere: true }, { scope: scope as 'assigned_to_me', state: state as 'opened', orderBy: 'created_at', sort: 'desc' });
    return {
      count: async () => Number((await build().clearSelect().clearOrderBy().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0),
      page: async (offset, limit) => (await build().limit(limit).offset(offset).execute()).map((row) => ({ ...row, id: Number(row.id), iid: Number(row.iid), author_id: Number(row.author_id), created_at: Number(row.created_at), projectId: Number(row.project_id) })),
    };
  },
};

const MERGE_REQUESTS: Kind = {
  url: '/dashboard/merge_requests', title: 'Merge requests', noun: 'merge requests', sigil: '!', segment: 'merge_requests',
  scopes: [['assigned_to_me', 'Assigned to you', 'assigned to you'], ['reviews_for_me', 'Review requests for you', 'waiting for your review'], ['created_by_me', 'Created by you', 'created by you']],
  states: [['opened', 'Open'], ['merged', 'Merged'], ['closed', 'Closed'], ['all', 'All']],
  query(deps, user, scope, state) {
    const build = () => readableMergeRequestsQuery(deps, user, { everywhere: true }, { scope: scope as 'assigned_to_me', state: state as 'opened', orderBy: 'created_at', sort: 'desc' });
    return {
      count: async () => Number((await build().clearSelect().clearOrderBy().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0),
      page: async (offset, limit) => (await build().limit(limit).offset(offset).execute()).map((row) => ({ ...row, id: Number(row.id), iid: Number(row.iid), author_id: Number(row.author_id), created_at: Number(row.created_at), projectId: Number(row.target_project_id) })),
    };
  },
};

function badge(state: string): Html {
  const label = state === 'opened' ? 'Open' : state === 'merged' ? 'Merged' : state === 'locked' ? 'Locked' : 'Closed';
  return html`<span class="badge state-${state === 'opened' ? 'open' : state === 'merged' ? 'merged' : 'closed'}">${label}</span>`;
}

/**
 * GitLab's own links to these lists filter by username (its Shift+R goes to
 * `/dashboard/merge_requests?reviewer_username=<you>`): naming the reader there picks the scope.
 */
const SCOPE_BY_USERNAME = [['assignee_username', 'assigned_to_me'], ['reviewer_username', 'reviews_for_me'], ['author_username', 'created_by_me']] as const;

function scopeOf(kind: Kind, query: Record<string, string>, username: string): string {
  if (kind.scopes.some(([name]) => name === query.scope)) return query.scope;
  const named = SCOPE_BY_USERNAME.find(([parameter, scope]) => query[parameter]?.toLowerCase() === username.toLowerCase() && kind.scopes.some(([name]) => name === scope));
  return named ? named[1] : kind.scopes[0][0];
}

function yourWorkPage(app: FastifyInstance, deps: Deps, kind: Kind): void {
  pageRoute(app, deps, {
    method: 'GET', url: kind.url, ability: { instance: 'log_in' },
    handler: async ({ user, query }) => {
      const scope = scopeOf(kind, query, user.username);
      const state = kind.states.some(([name]) => name === query.state) ? query.state : 'opened';
      const pageNumber = pageNumberOf(query);
      const link = (changes: { scope?: string; state?: string; page?: number }) => {
        const params = new URLSearchParams({ scope: changes.scope ?? scope, state: changes.state ?? state });
        const number = changes.page ?? 1;
        if (number > 1) params.set('page', String(number));
        return `${kind.url}?${params}`;
      };
      const [counts, rows] = await Promise.all([
        Promise.all(kind.states.map(([name]) => kind.query(deps, user, scope, name).count())),
        kind.query(deps, user, scope, state).page((pageNumber - 1) * PER_PAGE, PER_PAGE + 1),
      ]);
      const shown = rows.slice(0, PER_PAGE);
      const [paths, users, zone] = await Promise.all([projectPaths(deps, shown.map((row) => row.projectId)), usersById(deps.db, shown.map((row) => row.author_id)), timeZoneOf(deps, user.id)]);
      const scopeName = kind.scopes.find(([name]) => name === scope)![2];
      const body = html`
<nav class="tabs" aria-label="Whose ${kind.noun}">${kind.scopes.map(([name, label]) => html`<a href="${link({ scope: name })}" class="${name === scope ? 'active' : ''}"${name === scope ? html` aria-current="page"` : ''}>${label}</a>`)}</nav>
<nav class="tabs" aria-label="${kind.title} by state">${kind.states.map(([name, label], index) => html`<a href="${link({ state: name })}" class="${name === state ? 'active' : ''}" data-tab="${name}"${name === state ? html` aria-current="page"` : ''}>${label} <span class="badge">${counts[index]}</span></a>`)}</nav>
${shown.length
  ? html`<table id="your-work"><thead><tr><th>Title</th><th class="wide-only">Author</th><th class="wide-only">Created</th><th>State</th></tr></thead><tbody>${shown.map((row) => {
      const path = paths.get(row.projectId) ?? '';
      const author = users.get(row.author_id);
      return html`<tr><td><a href="/${path}/-/${kind.segment}/${row.iid}">${row.title}</a> <span class="muted">${path}${kind.sigil}${row.iid}</span></td><td class="wide-only">${author ? html`<a href="/${author.username}">${author.name}</a>` : html`<span class="muted">a deleted user</span>`}</td><td class="wide-only">${localTime(row.created_at, zone)}</td><td>${badge(row.state)}</td></tr>`;
    })}</tbody></table>`
  : html`<p class="empty">No ${state === 'all' ? '' : `${kind.states.find(([name]) => name === state)![1].toLowerCase()} `}${kind.noun} ${scopeName}. ${kind === ISSUES ? 'Issues appear here when someone assigns one to you or you open one in a project.' : 'Merge requests appear here when someone assigns one to you, asks for your review, or you open one.'}</p>`}
${pagination(pageNumber, rows.length > PER_PAGE, (number) => link({ page: number }))}`;
      return page({ title: kind.title, body });
    },
  });
}

export function yourWorkRoutes(app: FastifyInstance, deps: Deps): void {
  yourWorkPage(app, deps, ISSUES);
  yourWorkPage(app, deps, MERGE_REQUESTS);
}
