// Start-up recovery, so no group or snippet stays read-only for ever: release the move jobs of
// workers that died on this host, and give every unfinished move whose job is gone (dead after its
// retries, or deleted) a new one. The move job itself resumes from the recorded state.
import type { Deps } from '../platform/deps.js';
import { enqueue } from '../platform/jobs/queue.js';
import { inTransaction } from '../platform/db/database.js';
import { UNFINISHED_STATES } from './move-states.js';
import { releaseJobsOfDeadWorkers } from './move-lease.js';
import { MOVE_KINDS, selectMoves, type MoveKind } from './move-kinds.js';

async function requeueUnfinished(deps: Deps, kind: MoveKind): Promise<number> {
  const unfinished = await selectMoves(deps.db, kind).where('state', 'in', [...UNFINISHED_STATES]).execute();
  let requeued = 0;
  for (const move of unfinished) {
    const payload = JSON.stringify({ move_id: Number(move.id) });
    await inTransaction(deps.db, async (trx) => {
      const live = await trx
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', kind.moveJob)
        .where('payload', '=', payload)
        .where('state', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (live) return;
      await enqueue(trx, deps.clock, kind.moveJob, { move_id: Number(move.id) });
      requeued += 1;
    });
  }
  return requeued;
}

export async function recoverStorageMoves(deps: Deps): Promise<void> {
  const released = await releaseJobsOfDeadWorkers(deps, MOVE_KINDS.flatMap((kind) => [kind.moveJob, kind.bulkJob]));
  let requeued = 0;
  for (const kind of MOVE_KINDS) requeued += await requeueUnfinished(deps, kind);
  if (released || requeued) deps.log.info({ released, requeued }, 'recovered interrupted repository storage moves');
}
