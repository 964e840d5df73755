// Schedules a repository storage move (GitLab's REST API documentation) of a group's wiki or a
// snippet's repository: source = the shard the repository is on, destination given or picked by
// weight; the container becomes read-only and the move job is enqueued, all in one transaction.
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import { enqueue } from '../platform/jobs/queue.js';
import { ensureRepository } from './ensure-repository.js';
import { findShard, pickShard } from './shards.js';
import { applyTransition } from './apply-transition.js';
import { insertMove, loadMove, setReadOnly, GROUP_MOVES, type MoveKind, type MoveRow } from './move-kinds.js';

export type { MoveRow };

export const MOVE_JOB = GROUP_MOVES.moveJob;

export interface ScheduleMoveInput {
  kind: MoveKind;
  containerId: number;
  destinationStorageName?: string;
  /** The bulk scheduler only moves containers still on this shard (their storage may change meanwhile). */
  expectedSource?: string;
}

export async function scheduleStorageMove(deps: Deps, input: ScheduleMoveInput): Promise<MoveRow> {
  const { storages } = deps.config;
  const { kind, containerId } = input;
  const destination = input.destinationStorageName ?? pickShard(storages).name;
  if (!findShard(storages, destination)) throw new ValidationError({ destination_storage_name: ['is not included in the list'] });
  const { row: repository } = await ensureRepository(deps, { type: kind.type, id: containerId, defaultBranch: kind.defaultBranch });
  if (input.expectedSource !== undefined && repository.shard !== input.expectedSource) {
    throw new ValidationError({ source_storage_name: ['has changed'] });
  }
  const now = deps.clock.now();
  try {
    const move = await inTransaction(deps.db, async (trx) => {
      // GitLab refuses a container that is already read-only (`set_repository_read_only!`).
      if (!(await setReadOnly(trx, kind, containerId, true, now, true))) throw new ValidationError({ [kind.type]: ['is read-only'] });
      const current = await trx.selectFrom('repositories').select('shard').where('container_type', '=', kind.type).where('container_id', '=', containerId).executeTakeFirstOrThrow();
      const created = await insertMove(trx, kind, containerId, {
        state: 'initial',
        source_storage_name: current.shard,
        destination_storage_name: destination,
        error_message: null,
        created_at: now,
        updated_at: now,
      }).executeTakeFirstOrThrow();
      await applyTransition(trx, deps.clock, kind, { id: Number(created.id), container_id: containerId }, 'schedule');
      await enqueue(trx, deps.clock, kind.moveJob, { move_id: Number(created.id) });
      return (await loadMove(trx, kind, Number(created.id)))!;
    });
    deps.pokeWorker();
    return move;
  } catch (error) {
    // The partial unique index: another move of this container is still unfinished.
    if (isUniqueViolation(error)) throw new ValidationError({ [kind.type]: ['already has a repository storage move in progress'] });
    throw error;
  }
}
