// The periodic safety net of resource groups (GitLab's stale-release of a group's resource): every
// change to a job of a group settles it in its own transaction (assign-resource.ts), but a waiting job
// passed over while another transaction held it, which then rolled back, leaves the resource free with
// nobody to hand it on until the group's next change. The stuck-jobs check settles every group that
// has a waiting job and a resource that is free or held by a job that is complete.
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import { lockResources } from '../resource-groups/assign-resource.js';
import { settleResources } from './process-pipeline.js';

/** Groups settled per run; the rest wait for the next run. */
const BATCH = 100;
const HELD_WHILE_ACTIVE = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'manual', 'scheduled'] as const;

/** Answers how many groups were settled. */
export async function settleStaleResources(deps: Deps): Promise<number> {
  const stale = await deps.db
    .selectFrom('ci_resources as r')
    .leftJoin('ci_builds as holder', 'holder.id', 'r.build_id')
    .select('r.resource_group_id')
    .where((eb) => eb.or([eb('r.build_id', 'is', null), eb('holder.id', 'is', null), eb('holder.status', 'not in', HELD_WHILE_ACTIVE)]))
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('ci_builds as w').select('w.id').whereRef('w.resource_group_id', '=', 'r.resource_group_id').where('w.status', '=', 'waiting_for_resource').where('w.retried', '=', 0)))
    .orderBy('r.resource_group_id')
    .limit(BATCH)
    .execute();
  for (const { resource_group_id: groupId } of stale) {
    await inTransaction(deps.db, async (trx) => {
      await lockResources(trx, deps, [Number(groupId)]);
      await settleResources(trx, deps, [Number(groupId)]);
    });
  }
  return stale.length;
}
