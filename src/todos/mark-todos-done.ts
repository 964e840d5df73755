// Marking to-dos done (GitLab's TodoService#mark_todos_as_done_by_ids and #mark_todos_as_done): the
// caller's own, pending ones only; a conditional update, so a repeat changes nothing.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';

/** Marks the listed to-dos of `user` done; returns how many were pending. */
export async function markTodosDone(deps: Deps, user: AuthUser, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await deps.db.updateTable('todos').set({ state: 'done', updated_at: deps.clock.now() })
    .where('user_id', '=', user.id).where('state', '=', 'pending').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Marks a done to-do of `user` pending again (the page's "Undo"). */
export async function restoreTodo(deps: Deps, user: AuthUser, id: number): Promise<void> {
  await deps.db.updateTable('todos').set({ state: 'pending', updated_at: deps.clock.now() })
    .where('user_id', '=', user.id).where('state', '=', 'done').where('id', '=', id).execute();
}

/** Marks every pending to-do of `user` done. */
export async function markAllTodosDone(deps: Deps, user: AuthUser): Promise<number> {
  const result = await deps.db.updateTable('todos').set({ state: 'done', updated_at: deps.clock.now() })
    .where('user_id', '=', user.id).where('state', '=', 'pending').executeTakeFirst();
  return Number(result.numUpdatedRows);
}
