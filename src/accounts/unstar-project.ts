// POST /projects/:id/unstar: false when the user had not starred the project (GitLab answers 304).
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';

export async function unstarProject(deps: Deps, userId: number, projectId: number): Promise<boolean> {
  return inTransaction(deps.db, async (trx) => {
    const removed = await trx.deleteFrom('users_star_projects').where('user_id', '=', userId).where('project_id', '=', projectId).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) return false;
    await trx.updateTable('projects').set((eb) => ({ star_count: eb('star_count', '-', 1) })).where('id', '=', projectId).execute();
    return true;
  });
}
