// POST /group_repository_storage_moves (GitLab's REST API documentation, GitLab's
// ScheduleBulkRepositoryShardMovesMethods): answer 202 at once and let a job schedule a move for
// every group whose repository is on the source shard. Failures for one group are logged, not fatal.
import type { Deps } from '../platform/deps.js';
import { enqueue } from '../platform/jobs/queue.js';
import { inTransaction } from '../platform/db/database.js';
import { scheduleStorageMove } from './schedule-storage-move.js';

export const BULK_JOB = 'repositories.bulk_storage_moves';

export interface BulkMoveInput {
  sourceStorageName: string;
  destinationStorageName?: string;
}

export async function scheduleBulkStorageMoves(deps: Deps, input: BulkMoveInput): Promise<void> {
  await inTransaction(deps.db, (trx) => enqueue(trx, deps.clock, BULK_JOB, { source_storage_name: input.sourceStorageName, destination_storage_name: input.destinationStorageName ?? null }));
  deps.pokeWorker();
}

const BATCH = 100;

/** The job: walk the shard's group repositories by id (keyset, bounded batches); idempotent on replay. */
export async function runBulkStorageMovesJob(deps: Deps, payload: { source_storage_name: string; destination_storage_name: string | null }): Promise<void> {
  let after = 0;
  for (;;) {
    const groups = await deps.db
      .selectFrom('repositories as r')
      .innerJoin('namespaces as n', 'n.id', 'r.container_id')
      .selectAll('n')
      .where('r.container_type', '=', 'group')
      .where('r.shard', '=', payload.source_storage_name)
      .where('r.container_id', '>', after)
      .orderBy('r.container_id')
      .limit(BATCH)
      .execute();
    if (groups.length === 0) return;
    for (const group of groups) {
      try {
        await scheduleStorageMove(deps, {
          group,
          destinationStorageName: payload.destination_storage_name ?? undefined,
          expectedSource: payload.source_storage_name,
        });
      } catch (error) {
        deps.log.info({ err: error, group: group.id }, 'bulk storage move: group skipped');
      }
    }
    after = Number(groups[groups.length - 1].id);
  }
}
