// The move job (GitLab's REST API documentation): scheduled → started → (copy, verify) → replicated → (delete the
// source) → finished; any error → failed, or cleanup failed after replication. Every step is
// idempotent and the state is re-read on each pass, so a job re-claimed after a crash (kill -9: its
// lease expires) resumes from whatever the database says: before `replicated` the repository is
// served from the source and the copy is redone; from `replicated` on it is served from the
// destination and only the source's deletion remains.
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';
import { inTransaction } from '../platform/db/database.js';
import { applyTransition } from './apply-transition.js';
import { copyRepository, removeRepository, verifyCopy } from './copy-repository.js';
import { atStep } from './move-hooks.js';
import { repositoryPath } from './shards.js';
import { closeReaders } from './git.js';
import { holdLease, stillHeld } from './move-lease.js';
import type { MoveRow } from './schedule-storage-move.js';
import { waitForPushes } from './push-leases.js';

async function loadMove(deps: Deps, id: number): Promise<MoveRow | undefined> {
  return deps.db.selectFrom('group_repository_storage_moves').selectAll().where('id', '=', id).executeTakeFirst();
}

function ref(move: MoveRow) {
  return { id: Number(move.id), group_id: Number(move.group_id) };
}

/** Copy and verify, then switch the group's shard and clear read-only in one transaction. */
async function replicate(deps: Deps, move: MoveRow, guard: () => Promise<void>): Promise<void> {
  const repository = await deps.db
    .selectFrom('repositories')
    .selectAll()
    .where('container_type', '=', 'group')
    .where('container_id', '=', move.group_id)
    .executeTakeFirstOrThrow();
  const { storages } = deps.config;
  const sameShard = move.source_storage_name === move.destination_storage_name;
  // GitLab 14.x raises SameFilesystemError here (UpdateRepositoryStorageMethods): a move to the shard
  // the repository is already on fails, and the group is writable again (issue 33).
  if (sameShard) throw new Error(`the repository is already on ${move.destination_storage_name} (SameFilesystemError)`);
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
  await guard();
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

/**
 * Delete the source, then finish. The source is first renamed to a name derived from the move
 * (atomic on its filesystem, so it stops being a repository at once and a replay finds the same
 * name), the move becomes `finished`, and the bytes are freed last: a crash in between only leaves
 * that directory, which the replayed job or the next move of the group removes.
 */
async function cleanup(deps: Deps, move: MoveRow, guard: () => Promise<void>): Promise<void> {
  let trash: string | null = null;
  if (move.source_storage_name !== move.destination_storage_name) {
    const repository = await deps.db
      .selectFrom('repositories')
      .select(['disk_path', 'shard'])
      .where('container_type', '=', 'group')
      .where('container_id', '=', move.group_id)
      .executeTakeFirstOrThrow();
    // Never delete the live copy: only the source of a move whose destination is now recorded.
    if (repository.shard === move.destination_storage_name) {
      const source = repositoryPath(deps.config.storages, move.source_storage_name, repository.disk_path);
      trash = `${source}.deleted-${move.id}`;
      closeReaders(source);
      if (existsSync(source)) await rename(source, trash);
    }
  }
  await atStep(deps, 'source_deleted', Number(move.id));
  await guard();
  await inTransaction(deps.db, (trx) => applyTransition(trx, deps.clock, ref(move), 'finish_cleanup'));
  if (trash) await removeRepository(trash);
}

/**
 * Mark the move failed. Before replication, the copy at the destination is thrown away first: once
 * the move is failed the group may be moved again at once, to the same place, so nothing of this
 * move may touch the destination after that commit.
 */
async function fail(deps: Deps, move: MoveRow, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  deps.log.warn({ err: error, move: move.id }, 'repository storage move failed');
  const current = await loadMove(deps, Number(move.id));
  if (current && (current.state === 'initial' || current.state === 'scheduled' || current.state === 'started') && move.source_storage_name !== move.destination_storage_name) {
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
  await inTransaction(deps.db, (trx) => applyTransition(trx, deps.clock, ref(move), 'fail', message));
}

async function removeLeftoverSource(deps: Deps, move: MoveRow): Promise<void> {
  if (move.source_storage_name === move.destination_storage_name) return;
  const repository = await deps.db.selectFrom('repositories').select('disk_path').where('container_type', '=', 'group').where('container_id', '=', move.group_id).executeTakeFirst();
  if (repository) await removeRepository(`${repositoryPath(deps.config.storages, move.source_storage_name, repository.disk_path)}.deleted-${move.id}`);
}

/** Thrown when a run finds that its job was re-claimed (it stalled past its lease): it stops silently. */
class ClaimLost extends Error {}

/**
 * Run the move from whatever state it is in. `held` is asked before every step and before failing,
 * so a run that stalled past its lease and was replaced stops instead of racing its successor.
 */
export async function advanceStorageMove(deps: Deps, moveId: number, held: () => Promise<boolean> = async () => true): Promise<void> {
  const guard = async () => {
    if (!(await held())) throw new ClaimLost(`move ${moveId}: the job was claimed by another run`);
  };
  for (;;) {
    await guard();
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
          await replicate(deps, move, guard);
          await atStep(deps, 'replicated', moveId);
          continue;
        case 'replicated':
          await cleanup(deps, move, guard);
          continue;
        case 'finished':
          // A replay after a crash between `finished` and freeing the renamed source.
          await removeLeftoverSource(deps, move);
          return;
        default:
          return;
      }
    } catch (error) {
      if (error instanceof ClaimLost || !(await held())) return;
      await fail(deps, move, error);
      return;
    }
  }
}

export async function runStorageMoveJob(deps: Deps, payload: { move_id: number }, job: ClaimedJob): Promise<void> {
  await holdLease(deps, job, () => advanceStorageMove(deps, Number(payload.move_id), () => stillHeld(deps, job)));
}
