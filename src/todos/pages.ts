// The to-do list page (GitLab's /dashboard/todos): the signed-in user's pending or done to-dos with
// filters (action, type, project, author) as query parameters that a plain GET form sets and paging
// keeps; each item links to its target and has a "Mark as done" (or, when done, "Undo") form that
// htmx posts in place, updating the top bar's count out of band; without JavaScript the form posts
// and the page comes back. "Mark all as done" marks every pending to-do.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { html, type Html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { fragment, page, redirect, safeReturnTo } from '../platform/web/page.js';
import { localTime } from '../platform/web/local-time.js';
import { todosQuery, pendingTodosCount, findOwnTodo, timeZoneOf, type TodoFilters, type TodoRow } from './finder.js';
import { loadTargets, noteBodies, type PresentedTarget } from './entities.js';
import { markAllTodosDone, markTodosDone, restoreTodo } from './mark-todos-done.js';
import { usersById } from '../issues/api.js';

const PER_PAGE = 20;
const ROOT = '/dashboard/todos';

/** What the author did, as the list says it (GitLab's todos_helper#todo_action_name). */
const ACTIONS: Record<string, string> = {
  assigned: 'assigned you',
  mentioned: 'mentioned you on',
  directly_addressed: 'mentioned you on',
  review_requested: 'requested a review of',
  marked: 'added a to-do for',
};
const ACTION_FILTERS = [['', 'Any action'], ['assigned', 'Assigned'], ['mentioned', 'Mentioned'], ['directly_addressed', 'Directly addressed'], ['review_requested', 'Review requested'], ['marked', 'Added']] as const;
const TYPE_FILTERS = [['', 'Any type'], ['Issue', 'Issue'], ['MergeRequest', 'Merge request']] as const;

interface ListQuery {
  state: 'pending' | 'done';
  action: string;
  type: string;
  projectId: string;
  authorId: string;
  page: number;
}

function listQueryOf(query: Record<string, string>): ListQuery {
  const pick = (value: unknown, allowed: readonly (readonly [string, string])[]) => (typeof value === 'string' && allowed.some(([name]) => name === value) ? value : '');
  const id = (value: unknown) => (typeof value === 'string' && /^\d{1,12}$/.test(value) ? value : '');
  return {
    state: query.state === 'done' ? 'done' : 'pending',
    action: pick(query.action, ACTION_FILTERS),
    type: pick(query.type, TYPE_FILTERS),
    projectId: id(query.project_id),
    authorId: id(query.author_id),
    page: Math.max(1, Math.min(1000, Number.parseInt(query.page ?? '1', 10) || 1)),
  };
}

function linkOf(list: ListQuery, overrides: Partial<ListQuery> = {}): string {
  const merged = { ...list, ...overrides };
  const params = new URLSearchParams();
  if (merged.state !== 'pending') params.set('state', merged.state);
  if (merged.action) params.set('action', merged.action);
  if (merged.type) params.set('type', merged.type);
  if (merged.projectId) params.set('project_id', merged.projectId);
  if (merged.authorId) params.set('author_id', merged.authorId);
  if (merged.page > 1) params.set('page', String(merged.page));
  const text = params.toString();
  return text ? `${ROOT}?${text}` : ROOT;
}

function filtersOf(list: ListQuery, state: 'pending' | 'done'): TodoFilters {
  return {
    state,
    action: list.action || undefined,
    type: list.type || undefined,
    projectId: list.projectId ? Number(list.projectId) : undefined,
    authorId: list.authorId ? Number(list.authorId) : undefined,
  };
}

function reference(target: PresentedTarget, type: string): string {
  return `${target.project.full_path}${type === 'MergeRequest' ? '!' : '#'}${Number(target.entity.iid)}`;
}

function pathOf(target: PresentedTarget, type: string): string {
  return `/${target.project.full_path}/-/${type === 'MergeRequest' ? 'merge_requests' : 'issues'}/${Number(target.entity.iid)}`;
}

function stateForm(context: PageContext, row: TodoRow, returnTo: string): Html {
  const done = row.state === 'done';
  const action = `${ROOT}/${row.id}/${done ? 'restore' : 'done'}`;
  return html`<form method="post" action="${action}" hx-post="${action}" hx-target="#todo-${row.id}" hx-swap="outerHTML" class="inline">${csrfField(context)}<input type="hidden" name="return_to" value="${returnTo}"><button type="submit" class="small secondary">${done ? 'Undo' : 'Mark as done'}</button></form>`;
}

function todoItem(context: PageContext, row: TodoRow, target: PresentedTarget, author: { name: string; username: string } | undefined, body: string | null, returnTo: string, zone: string): Html {
  const who = author ? html`<a href="/${author.username}">${author.name}</a>` : html`<span class="muted">a deleted user</span>`;
  const self = author?.username === context.user.username;
  const verb = row.action === 'marked' && self ? 'You added a to-do for' : null;
  return html`<li id="todo-${row.id}" class="todo" data-action="${row.action}">
  <div class="todo-body">
    <p>${verb ?? html`${who} ${ACTIONS[row.action] ?? row.action}`} <a href="${pathOf(target, row.target_type)}">${reference(target, row.target_type)}</a> · ${target.entity.title}</p>
    ${body ? html`<p class="muted todo-note">${body}</p>` : ''}
    <p class="muted">${localTime(Number(row.created_at), zone)}</p>
  </div>
  ${stateForm(context, row, returnTo)}
</li>`;
}

async function renderList(context: PageContext): Promise<ReturnType<typeof page>> {
  const { deps, user } = context;
  const list = listQueryOf(context.query);
  const [pendingCount, doneRows, rows] = await Promise.all([
    countOf(deps, user, filtersOf(list, 'pending')),
    countOf(deps, user, filtersOf(list, 'done')),
    (await todosQuery(deps, user, filtersOf(list, list.state))).limit(PER_PAGE + 1).offset((list.page - 1) * PER_PAGE).execute(),
  ]);
  const shown = rows.slice(0, PER_PAGE);
  const targets = await loadTargets(deps, shown);
  const users = await usersById(deps.db, shown.map((row) => Number(row.author_id)));
  const notes = await noteBodies(deps, shown.map((row) => row.note_id).filter((id): id is number => id !== null).map(Number));
  const zone = await timeZoneOf(deps, user.id);
  const here = linkOf(list);
  const filtered = Boolean(list.action || list.type || list.projectId || list.authorId);
  const select = (name: string, label: string, value: string, options: readonly (readonly [string, string])[]) =>
    html`<label for="todo-${name}">${label}</label> <select id="todo-${name}" name="${name}">${options.map(([optionValue, text]) => html`<option value="${optionValue}"${optionValue === value ? html` selected` : ''}>${text}</option>`)}</select>`;
  const items = shown.flatMap((row) => {
    const target = targets.get(`${row.target_type}:${row.target_id}`);
    return target ? [todoItem(context, row, target, users.get(Number(row.author_id)), row.note_id === null ? null : (notes.get(Number(row.note_id)) ?? null), here, zone)] : [];
  });
  const empty = list.state === 'pending'
    ? (filtered ? 'No pending to-dos match these filters.' : 'Nothing to do. To-dos appear here when someone assigns you an issue or merge request, mentions you, or asks for your review.')
    : (filtered ? 'No done to-dos match these filters.' : 'No done to-dos yet. Mark a to-do as done and it moves here.');
  const body = html`
<nav class="tabs" aria-label="To-dos by state">
  <a href="${linkOf(list, { state: 'pending', page: 1 })}" class="${list.state === 'pending' ? 'active' : ''}"${list.state === 'pending' ? html` aria-current="page"` : ''}>To Do <span class="badge">${pendingCount}</span></a>
  <a href="${linkOf(list, { state: 'done', page: 1 })}" class="${list.state === 'done' ? 'active' : ''}"${list.state === 'done' ? html` aria-current="page"` : ''}>Done <span class="badge">${doneRows}</span></a>
</nav>
<form method="get" action="${ROOT}" class="todo-filters" role="search" aria-label="Filter to-dos">
  ${list.state === 'done' ? html`<input type="hidden" name="state" value="done">` : ''}
  ${select('action', 'Action', list.action, ACTION_FILTERS)}
  ${select('type', 'Type', list.type, TYPE_FILTERS)}
  ${list.projectId ? html`<input type="hidden" name="project_id" value="${list.projectId}">` : ''}
  ${list.authorId ? html`<input type="hidden" name="author_id" value="${list.authorId}">` : ''}
  <button type="submit" class="secondary">Filter</button>${filtered ? html` <a href="${linkOf({ ...list, action: '', type: '', projectId: '', authorId: '', page: 1 })}">Clear filters</a>` : ''}
</form>
${list.state === 'pending' && pendingCount > 0 ? html`<form method="post" action="${ROOT}/mark_all_done" class="actions">${csrfField(context)}<button type="submit" class="secondary">Mark all as done</button></form>` : ''}
${items.length ? html`<ul class="todo-list" id="todos">${items}</ul>` : html`<p class="empty">${empty}</p>`}
<nav class="pagination" aria-label="Pages">${list.page > 1 ? html`<a href="${linkOf(list, { page: list.page - 1 })}" rel="prev">Previous</a>` : ''}${rows.length > PER_PAGE ? html`<a href="${linkOf(list, { page: list.page + 1 })}" rel="next">Next</a>` : ''}</nav>`;
  return page({ title: 'To-Do List', body });
}

async function countOf(deps: Deps, user: AuthUser, filters: TodoFilters): Promise<number> {
  const row = await (await todosQuery(deps, user, filters)).clearSelect().clearOrderBy().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The top bar's count, swapped in out of band after an htmx mark. */
export function countBadge(count: number): Html {
  return html`<span id="todos-count" class="todos-count" hx-swap-oob="true">${count >= 100 ? '99+' : String(count)}</span>`;
}

async function changeState(context: PageContext, done: boolean) {
  const { deps, user } = context;
  const id = Number.parseInt(context.params.id ?? '', 10);
  const row = Number.isSafeInteger(id) ? await findOwnTodo(deps, user, id) : undefined;
  if (!row) return page({ title: 'To-do not found', body: html`<p class="error">This to-do does not exist or is no longer yours to see.</p>`, status: 404 });
  if (done) await markTodosDone(deps, user, [id]);
  else await restoreTodo(deps, user, id);
  const returnTo = safeReturnTo(context.form.return_to, ROOT);
  if (context.request.headers['hx-request'] !== 'true') return redirect(returnTo, done ? 'To-do marked as done.' : 'To-do restored.');
  const updated = (await findOwnTodo(deps, user, id))!;
  const targets = await loadTargets(deps, [updated]);
  const target = targets.get(`${updated.target_type}:${updated.target_id}`)!;
  const message = done ? 'Marked as done.' : 'Restored to your to-dos.';
  return fragment(html`<li id="todo-${id}" class="todo"><div class="todo-body" role="status"><p>${message} <a href="${pathOf(target, updated.target_type)}">${reference(target, updated.target_type)}</a></p></div>${stateForm(context, updated, returnTo)}</li>${countBadge(await pendingTodosCount(deps, user))}`);
}

export function todosPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'GET', url: ROOT, ability: { instance: 'log_in' }, handler: renderList });
  pageRoute(app, deps, { method: 'POST', url: `${ROOT}/:id/done`, ability: { instance: 'log_in' }, handler: (context) => changeState(context, true) });
  pageRoute(app, deps, { method: 'POST', url: `${ROOT}/:id/restore`, ability: { instance: 'log_in' }, handler: (context) => changeState(context, false) });
  pageRoute(app, deps, {
    method: 'POST', url: `${ROOT}/mark_all_done`, ability: { instance: 'log_in' },
    handler: async ({ user }) => {
      const count = await markAllTodosDone(deps, user);
      return redirect(ROOT, count === 1 ? '1 to-do marked as done.' : `${count} to-dos marked as done.`);
    },
  });
}
