// Schedules a group repository storage move (GitLab's REST API documentation): source = the shard of the group's
// wiki repository, destination given or picked by weight; the group becomes read-only and the move
// job is enqueued, all in one transaction.
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import type { GroupRepositoryStorageMovesTable } from '../platform/db/tables/repositories.js';
import type { NamespaceRow } from '../platform/auth/subjects.js';
import { ValidationError } from '../platform/errors.js';
import { enqueue } from '../platform/jobs/queue.js';
import { ensureRepository } from './ensure-repository.js';
import { findShard, pickShard } from './shards.js';
import { applyTransition } from './apply-transition.js';

export type MoveRow = Selectable<GroupRepositoryStorageMovesTable>;

export const MOVE_JOB = 'repositories.storage_move';

export interface ScheduleMoveInput {
  group: NamespaceRow;
  destinationStorageName?: string;
  /** The bulk scheduler only moves groups still on this shard (their storage may change meanwhile). */
  expectedSource?: string;
}

export async function scheduleStorageMove(deps: Deps, input: ScheduleMoveInput): Promise<MoveRow> {
  const { storages } = deps.config;
  const destination = input.destinationStorageName ?? pickShard(storages).name;
  if (!findShard(storages, destination)) throw new ValidationError({ destination_storage_name: ['is not included in the list'] });
  const { row: repository } = await ensureRepository(deps, { type: 'group', id: Number(input.group.id) });
  if (input.expectedSource !== undefined && repository.shard !== input.expectedSource) {
    throw new ValidationError({ source_storage_name: ['has changed'] });
  }
  const now = deps.clock.now();
  try {
    const move = await inTransaction(deps.db, async (trx) => {
      // GitLab refuses a group that is already read-only (`set_repository_read_only!`).
      const locked = await trx
        .updateTable('namespaces')
        .set({ read_only: 1, updated_at: now })
        .where('id', '=', input.group.id)
        .where('read_only', '=', 0)
        .executeTakeFirst();
      if (Number(locked.numUpdatedRows) !== 1) throw new ValidationError({ group: ['is read-only'] });
      const current = await trx.selectFrom('repositories').select('shard').where('container_type', '=', 'group').where('container_id', '=', input.group.id).executeTakeFirstOrThrow();
      const created = await trx
        .insertInto('group_repository_storage_moves')
        .values({
          group_id: input.group.id,
          state: 'initial',
          source_storage_name: current.shard,
          destination_storage_name: destination,
          error_message: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await applyTransition(trx, deps.clock, { id: Number(created.id), group_id: Number(created.group_id) }, 'schedule');
      await enqueue(trx, deps.clock, MOVE_JOB, { move_id: Number(created.id) });
      return trx.selectFrom('group_repository_storage_moves').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    });
    deps.pokeWorker();
    return move;
  } catch (error) {
    // The partial unique index: another move of this group is still unfinished.
    if (isUniqueViolation(error)) throw new ValidationError({ group: ['already has a repository storage move in progress'] });
    throw error;
  }
}
