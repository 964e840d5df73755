// The move job of either kind (move-kinds.ts; GitLab's REST API documentation): scheduled → started → (copy, verify) → replicated → (delete the
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
import { waitForPushes } from './push-leases.js';
import { loadMove, type MoveKind, type MoveRow } from './move-kinds.js';

function repositoryOf(deps: Deps, kind: MoveKind, move: MoveRow) {
  return deps.db.selectFrom('repositories').selectAll().where('container_type', '=', kind.type).where('container_id', '=', move.container_id);
}

/** Copy and verify, then switch the repository's shard and clear read-only in one transaction. */
async function replicate(deps: Deps, kind: MoveKind, move: MoveRow, guard: () => Promise<void>): Promise<void> {
  const repository = await repositoryOf(deps, kind, move).executeTakeFirstOrThrow();
  const { storages } = deps.config;
  const sameShard = move.source_storage_name === move.destination_storage_name;
  // GitLab 14.x raises SameFilesystemError here (UpdateRepositoryStorageMethods): a move to the shard
  // the repository is already on fails, and the container is writable again (issue 33).
  if (sameShard) throw new Error(`the repository is already on ${move.destination_storage_name} (SameFilesystemError)`);
  // After a crash between the copy and the commit, the row may already name the destination
  // (only if that commit happened — then the state is `replicated` and we are not here).
  if (!sameShard && repository.shard === move.source_storage_name) {
    const source = repositoryPath(storages, move.source_storage_name, repository.disk_path);
    const destination = repositoryPath(storages, move.destination_storage_name, repository.disk_path);
    // GitLab copies the wiki only if it exists; the row without a directory has nothing to move.
    if (existsSync(source)) {
      await waitForPushes(deps, { type: kind.type, id: move.container_id, label: kind.label });
      await copyRepository(source, destination);
      await atStep(deps, 'copied', Number(move.id));
      await verifyCopy(source, destination);
      await atStep(deps, 'verified', Number(move.id));
    }
  }
  await guard();
  await inTransaction(deps.db, async (trx) => {
    const reached = await applyTransition(trx, deps.clock, kind, move, 'finish_replication');
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
 * that directory, which the replayed job or the next move of the container removes.
 */
async function cleanup(deps: Deps, kind: MoveKind, move: MoveRow, guard: () => Promise<void>): Promise<void> {
  let trash: string | null = null;
  if (move.source_storage_name !== move.destination_storage_name) {
    const repository = await repositoryOf(deps, kind, move).executeTakeFirstOrThrow();
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
  await inTransaction(deps.db, (trx) => applyTransition(trx, deps.clock, kind, move, 'finish_cleanup'));
  if (trash) await removeRepository(trash);
}

/**
 * Mark the move failed. Before replication, the copy at the destination is thrown away first: once
 * the move is failed the container may be moved again at once, to the same place, so nothing of this
 * move may touch the destination after that commit.
 */
async function fail(deps: Deps, kind: MoveKind, move: MoveRow, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  deps.log.warn({ err: error, move: move.id }, 'repository storage move failed');
  const current = await loadMove(deps.db, kind, move.id);
  if (current && (current.state === 'initial' || current.state === 'scheduled' || current.state === 'started') && move.source_storage_name !== move.destination_storage_name) {
    const repository = await repositoryOf(deps, kind, move).executeTakeFirst();
    if (repository && repository.shard === move.source_storage_name) {
      await removeRepository(repositoryPath(deps.config.storages, move.destination_storage_name, repository.disk_path)).catch(() => undefined);
    }
  }
  await inTransaction(deps.db, (trx) => applyTransition(trx, deps.clock, kind, move, 'fail', message));
}

async function removeLeftoverSource(deps: Deps, kind: MoveKind, move: MoveRow): Promise<void> {
  if (move.source_storage_name === move.destination_storage_name) return;
  const repository = await repositoryOf(deps, kind, move).executeTakeFirst();
  if (repository) await removeRepository(`${repositoryPath(deps.config.storages, move.source_storage_name, repository.disk_path)}.deleted-${move.id}`);
}

/** Thrown when a run finds that its job was re-claimed (it stalled past its lease): it stops silently. */
class ClaimLost extends Error {}

/**
 * Run the move from whatever state it is in. `held` is asked before every step and before failing,
 * so a run that stalled past its lease and was replaced stops instead of racing its successor.
 */
export async function advanceStorageMove(deps: Deps, kind: MoveKind, moveId: number, held: () => Promise<boolean> = async () => true): Promise<void> {
  const guard = async () => {
    if (!(await held())) throw new ClaimLost(`move ${moveId}: the job was claimed by another run`);
  };
  for (;;) {
    await guard();
    const move = await loadMove(deps.db, kind, moveId);
    if (!move) return;
    try {
      switch (move.state) {
        case 'initial':
        case 'scheduled':
          await inTransaction(deps.db, (trx) => applyTransition(trx, deps.clock, kind, move, move.state === 'initial' ? 'schedule' : 'start'));
          await atStep(deps, 'started', moveId);
          continue;
        case 'started':
          await replicate(deps, kind, move, guard);
          await atStep(deps, 'replicated', moveId);
          continue;
        case 'replicated':
          await cleanup(deps, kind, move, guard);
          continue;
        case 'finished':
          // A replay after a crash between `finished` and freeing the renamed source.
          await removeLeftoverSource(deps, kind, move);
          return;
        default:
          return;
      }
    } catch (error) {
      if (error instanceof ClaimLost || !(await held())) return;
      await fail(deps, kind, move, error);
      return;
    }
  }
}

/** The move job's handler for moves of `kind`. */
export function storageMoveJob(kind: MoveKind) {
  return async (deps: Deps, payload: { move_id: number }, job: ClaimedJob): Promise<void> => {
    await holdLease(deps, job, () => advanceStorageMove(deps, kind, Number(payload.move_id), () => stillHeld(deps, job)));
  };
}
