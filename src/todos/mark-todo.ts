// "Add a to-do" on an issue or a merge request the caller reads (GitLab's TodoService#mark_todo): a
// `marked` to-do for themselves, or nothing when they already have a pending one on it (the API then
// answers 304 Not Modified, as GitLab's).
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { TodoTargetType } from '../platform/db/tables/todos.js';
import { inTransaction } from '../platform/db/database.js';

export async function markTodo(deps: Deps, user: AuthUser, target: { type: TodoTargetType; id: number; projectId: number }): Promise<number | null> {
  return inTransaction(deps.db, async (trx) => {
    const pending = await trx.selectFrom('todos').select('id').where('user_id', '=', user.id).where('target_type', '=', target.type).where('target_id', '=', target.id).where('state', '=', 'pending').executeTakeFirst();
    if (pending) return null;
    const now = deps.clock.now();
    const row = await trx.insertInto('todos').values({
      user_id: user.id, project_id: target.projectId, author_id: user.id, target_type: target.type, target_id: target.id, action: 'marked', note_id: null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  });
}
