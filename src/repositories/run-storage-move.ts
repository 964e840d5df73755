// The move job (gitlab-rest.md §2.5): scheduled → started → (copy, verify) → replicated → (delete the
// source) → finished; any error → failed, or cleanup failed after replication. Every step is
// idempotent and the state is re-read on each pass, so a job re-claimed after a crash (kill -9: its
// lease expires) resumes from whatever the database says: before `replicated` the repository is
// served from the source and the copy is redone; from `replicated` on it is served from the
// destination and only the source's deletion remains.
import { existsSync } from 'node:fs';
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';
import { inTransaction } from '../platform/db/database.js';
import { applyTransition } from './apply-transition.js';
import { copyRepository, removeRepository, verifyCopy } from './copy-repository.js';
import { atStep } from './move-hooks.js';
import { repositoryPath } from './shards.js';
import { holdLease } from './move-lease.js';
import type { MoveRow } from './schedule-storage-move.js';
import { waitForPushes } from './push-leases.js';

async function loadMove(deps: Deps, id: number): Promise<MoveRow | undefined> {
  return deps.db.selectFrom('group_repository_storage_moves').selectAll().where('id', '=', id).executeTakeFirst();
}

function ref(move: MoveRow) {
  return { id: Number(move.id), group_id: Number(move.group_id) };
}

/** Copy and verify, then switch the group's shard and clear read-only in one transaction. */
async function replicate(deps: Deps, move: MoveRow): Promise<void> {
  const repository = await deps.db
    .selectFrom('repositories')
    .selectAll()
    .where('container_type', '=', 'group')
    .where('container_id', '=', move.group_id)
    .executeTakeFirstOrThrow();
  const { storages } = deps.config;
  const sameShard = move.source_storage_name === move.destination_storage_name;
  // After a crash between the copy and the commit, the row may already name the destination
  // (only if that commit happened — then the state is `replicated` and we are not here).
  if (!sameShard && repository.shard === move.source_storage_name) {
    const source = repositoryPath(storages, move.source_storage_name, repository.disk_path);
    const destination = repositoryPath(storages, move.destination_storage_name, repository.disk_path);
    // GitLab copies the wiki only if it exists; the row without a directory has nothing to move.
    if (existsSync(source)) {
      await waitForPushes(deps, Number(move.group_id));
      await copyRepository(source, destination);
      await atStep(deps, 'copied', Number(move.id));
      await verifyCopy(source, destination);
      await atStep(deps, 'verified', Number(move.id));
    }
  }
  await inTransaction(deps.db, async (trx) => {
    const reached = await applyTransition(trx, deps.clock, ref(move), 'finish_replication');
    if (reached !== 'replicated') return;
    await trx
      .updateTable('repositories')
      .set({ shard: move.destination_storage_name, updated_at: deps.clock.now() })
      .where('id', '=', repository.id)
      .execute();
  });
}

async function cleanup(deps: Deps, move: MoveRow): Promise<void> {
  if (move.source_storage_name !== move.destination_storage_name) {
    const repository = await deps.db
      .selectFrom('repositories')
      .select(['disk_path', 'shard'])
      .where('container_type', '=', 'group')
      .where('container_id', '=', move.group_id)
      .executeTakeFirstOrThrow();
    // Never delete the live copy: only the source of a move whose destination is now recorded.
    if (repository.shard === move.destination_storage_name) {
      await removeRepository(repositoryPath(deps.config.storages, move.source_storage_name, repository.disk_path));
    }
  }
  await atStep(deps, 'source_deleted', Number(move.id));
  await inTransaction(deps.db, (trx) => applyTransition(trx, deps.clock, ref(move), 'finish_cleanup'));
}

/** Mark the move failed; before replication also throw away any copy at the destination. */
async function fail(deps: Deps, move: MoveRow, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  deps.log.warn({ err: error, move: move.id }, 'repository storage move failed');
  const reached = await inTransaction(deps.db, (trx) => applyTransition(trx, deps.clock, ref(move), 'fail', message));
  if (reached === 'failed' && move.source_storage_name !== move.destination_storage_name) {
    const repository = await deps.db
      .selectFrom('repositories')
      .select(['disk_path', 'shard'])
      .where('container_type', '=', 'group')
      .where('container_id', '=', move.group_id)
      .executeTakeFirst();
    if (repository && repository.shard === move.source_storage_name) {
      await removeRepository(repositoryPath(deps.config.storages, move.destination_storage_name, repository.disk_path)).catch(() => undefined);
    }
  }
}

export async function advanceStorageMove(deps: Deps, moveId: number): Promise<void> {
  for (;;) {
    const move = await loadMove(deps, moveId);
    if (!move) return;
    try {
      switch (move.state) {
        case 'initial':
        case 'scheduled':
          await inTransaction(deps.db, (trx) => applyTransition(trx, deps.clock, ref(move), move.state === 'initial' ? 'schedule' : 'start'));
          await atStep(deps, 'started', moveId);
          continue;
        case 'started':
          await replicate(deps, move);
          await atStep(deps, 'replicated', moveId);
          continue;
        case 'replicated':
          await cleanup(deps, move);
          continue;
        default:
          return;
      }
    } catch (error) {
      await fail(deps, move, error);
      return;
    }
  }
}

export async function runStorageMoveJob(deps: Deps, payload: { move_id: number }, job: ClaimedJob): Promise<void> {
  await holdLease(deps, job, () => advanceStorageMove(deps, Number(payload.move_id)));
}
