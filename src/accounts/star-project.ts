// POST /projects/:id/star: one star per user and project, kept by the unique index; star_count moves
// in the same transaction, so two stars racing count once. False when the user had starred it already.
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';

export async function starProject(deps: Deps, userId: number, projectId: number): Promise<boolean> {
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      await trx.insertInto('users_star_projects').values({ user_id: userId, project_id: projectId, created_at: now }).execute();
      await trx.updateTable('projects').set((eb) => ({ star_count: eb('star_count', '+', 1) })).where('id', '=', projectId).execute();
      return true;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
