// A user's to-dos (GitLab's TodosFinder): their own, whose target they may still read (checked in
// SQL on every read, so a to-do on an issue made confidential or a project left since drops out),
// with optional filters applied one after another, newest first.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { TodoAction, TodoTargetType } from '../platform/db/tables/todos.js';
import { groupAndDescendantIds } from '../labels/api.js';
import { NotFoundError } from '../platform/errors.js';
import { readableTargetSql } from './todos-queries.js';

/** GitLab's action names (Todo::ACTION_NAMES) a filter may name; those Kiln never creates match nothing. */
export const TODO_ACTIONS = ['assigned', 'mentioned', 'build_failed', 'marked', 'approval_required', 'unmergeable', 'directly_addressed', 'merge_train_removed', 'review_requested', 'member_access_requested', 'review_submitted'] as const;
export const TODO_TYPES = ['Issue', 'MergeRequest', 'Commit', 'Epic', 'DesignManagement::Design', 'AlertManagement::Alert'] as const;

export interface TodoFilters {
  action?: string;
  authorId?: number;
  projectId?: number;
  groupId?: number;
  /** `pending` (the default) or `done`. */
  state?: 'pending' | 'done';
  type?: string;
}

export async function todosQuery(deps: Deps, viewer: AuthUser, filters: TodoFilters) {
  let query = deps.db.selectFrom('todos as t').selectAll('t')
    .where('t.user_id', '=', viewer.id)
    .where('t.state', '=', filters.state ?? 'pending')
    .where(readableTargetSql(viewer, deps.clock.now()));
  if (filters.action !== undefined) query = query.where('t.action', '=', filters.action as TodoAction);
  if (filters.authorId !== undefined) query = query.where('t.author_id', '=', filters.authorId);
  if (filters.projectId !== undefined) query = query.where('t.project_id', '=', filters.projectId);
  if (filters.groupId !== undefined) {
    const groups = await groupAndDescendantIds(deps.db, filters.groupId);
    query = query.where('t.project_id', 'in', (eb) => eb.selectFrom('projects').select('id').where('namespace_id', 'in', groups.length ? groups : [-1]));
  }
  if (filters.type !== undefined) query = query.where('t.target_type', '=', filters.type as TodoTargetType);
  return query.orderBy('t.id', 'desc');
}

export type TodoRow = Awaited<ReturnType<Awaited<ReturnType<typeof todosQuery>>['execute']>>[number];

/** How many pending to-dos the viewer has (the top bar's count), stopping at `cap`. */
export async function pendingTodosCount(deps: Deps, viewer: AuthUser, cap = 100): Promise<number> {
  const rows = await (await todosQuery(deps, viewer, {})).clearSelect().clearOrderBy().select('t.id').limit(cap).execute();
  return rows.length;
}

/** One of the viewer's own to-dos, whatever its state (404 for anyone else's, as GitLab's current_user.todos.find). */
export async function findOwnTodo(deps: Deps, viewer: AuthUser, id: number) {
  return deps.db.selectFrom('todos as t').selectAll('t').where('t.user_id', '=', viewer.id).where('t.id', '=', id).where(readableTargetSql(viewer, deps.clock.now())).executeTakeFirst();
}

/** A merge request of a project whose merge requests the caller reads (GitLab's find_merge_request_with_access). */
export async function findMergeRequestTarget(deps: Deps, projectId: number, iid: number) {
  const mr = await deps.db.selectFrom('merge_requests').select(['id', 'target_project_id']).where('target_project_id', '=', projectId).where('iid', '=', iid).executeTakeFirst();
  if (!mr) throw new NotFoundError('Merge Request');
  return mr;
}

/** The time zone the user reads times in (their preference). */
export async function timeZoneOf(deps: Deps, userId: number): Promise<string> {
  return (await deps.db.selectFrom('users').select('time_zone').where('id', '=', userId).executeTakeFirst())?.time_zone ?? 'UTC';
}
