// POST /group_repository_storage_moves and /snippet_repository_storage_moves (GitLab's REST API
// documentation, GitLab's ScheduleBulkRepositoryShardMovesMethods): answer 202 at once and let a job
// schedule a move for every repository of the kind on the source shard. Failures for one container
// are logged, not fatal.
import type { Deps } from '../platform/deps.js';
import { enqueue } from '../platform/jobs/queue.js';
import { inTransaction } from '../platform/db/database.js';
import { scheduleStorageMove } from './schedule-storage-move.js';
import type { MoveKind } from './move-kinds.js';

export interface BulkMoveInput {
  sourceStorageName: string;
  destinationStorageName?: string;
}

export async function scheduleBulkStorageMoves(deps: Deps, kind: MoveKind, input: BulkMoveInput): Promise<void> {
  await inTransaction(deps.db, (trx) => enqueue(trx, deps.clock, kind.bulkJob, { source_storage_name: input.sourceStorageName, destination_storage_name: input.destinationStorageName ?? null }));
  deps.pokeWorker();
}

const BATCH = 100;

interface BulkPayload {
  source_storage_name: string;
  destination_storage_name: string | null;
}

/**
 * The job: walk the shard's repositories of the kind by container id (keyset, bounded batches);
 * idempotent on replay. A repository whose container is gone (pruned later) is skipped like any refusal.
 */
export function bulkStorageMovesJob(kind: MoveKind) {
  return async (deps: Deps, payload: BulkPayload): Promise<void> => {
    let after = 0;
    for (;;) {
      const rows = await deps.db
        .selectFrom('repositories')
        .select('container_id')
        .where('container_type', '=', kind.type)
        .where('shard', '=', payload.source_storage_name)
        .where('container_id', '>', after)
        .orderBy('container_id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) return;
      for (const row of rows) {
        try {
          await scheduleStorageMove(deps, {
            kind,
            containerId: Number(row.container_id),
            destinationStorageName: payload.destination_storage_name ?? undefined,
            expectedSource: payload.source_storage_name,
          });
        } catch (error) {
          deps.log.info({ err: error, [kind.type]: row.container_id }, 'bulk storage move: repository skipped');
        }
      }
      after = Number(rows[rows.length - 1].container_id);
    }
  };
}
