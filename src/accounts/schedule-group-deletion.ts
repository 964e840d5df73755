// DELETE /groups/:id (GitLab's Groups::DestroyService#async_execute): the group is marked for
// deletion and a job removes it with its subgroups and projects. The mark and the job commit together.
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import type { GroupAccess } from '../platform/auth/subjects.js';
import { inTransaction } from '../platform/db/database.js';
import { enqueue } from '../platform/jobs/queue.js';
import { BadRequestError } from '../platform/errors.js';

export const DESTROY_GROUP_JOB = 'accounts.destroy_group';

export async function scheduleGroupDeletion(deps: Deps, actor: Principal, access: GroupAccess): Promise<void> {
  const now = deps.clock.now();
  const marked = await inTransaction(deps.db, async (trx) => {
    const result = await trx
      .updateTable('namespaces')
      .set({ deletion_scheduled_at: now, updated_at: now })
      .where('id', '=', access.group.id)
      .where('deletion_scheduled_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await enqueue(trx, deps.clock, DESTROY_GROUP_JOB, { groupId: Number(access.group.id), userId: actor.user.id });
    return true;
  });
  if (!marked) throw new BadRequestError('Group has been already marked for deletion');
  deps.pokeWorker();
}
