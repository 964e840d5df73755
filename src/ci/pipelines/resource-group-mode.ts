// A resource group's process mode changed (PUT /projects/:id/resource_groups/:key): saved with the
// group's resource row held, and the group settled by the new order in the same transaction, so a job
// the old order held back (`oldest_first` waiting for an older pipeline's job not ready yet) takes a
// free resource now rather than at the group's next change.
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import type { CiResourceGroupsTable } from '../../platform/db/tables/ci.js';
import type { Selectable } from 'kysely';
import { lockResources } from '../resource-groups/assign-resource.js';
import { settleResources } from './process-pipeline.js';
import { queueSignal } from '../queue-signal.js';

type ResourceGroupRow = Selectable<CiResourceGroupsTable>;

export async function changeProcessMode(deps: Deps, group: ResourceGroupRow, mode: ResourceGroupRow['process_mode']): Promise<ResourceGroupRow> {
  const saved = await inTransaction(deps.db, async (trx) => {
    await lockResources(trx, deps, [Number(group.id)]);
    const row = await trx.updateTable('ci_resource_groups').set({ process_mode: mode, updated_at: deps.clock.now() }).where('id', '=', group.id).returningAll().executeTakeFirstOrThrow();
    await settleResources(trx, deps, [Number(group.id)]);
    return row;
  });
  queueSignal(deps).tick();
  return saved;
}
