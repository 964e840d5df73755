// Daily maintenance jobs chain themselves: each run first schedules the next one a day later, then works,
// so a failed run is retried by the queue without breaking the chain. Every node enqueues the first run
// at start if none is waiting; the check and the insert are one atomic step, so nodes starting together
// queue one job, not several.
import type { Deps } from '../deps.js';
import { inTransaction } from '../db/database.js';
import { DAY_MS } from '../clock.js';
import { insertJobUnlessPending, schedulingLock } from './jobs-queries.js';

const SCHEDULE_LOCK = 74_105_109; // advisory lock key: Kiln's daily-job scheduling

/** Queue `kind` at `runAt` unless one is already queued (or, with `orRunning`, in progress). */
export async function scheduleOnce(deps: Deps, kind: string, runAt: number, options: { orRunning: boolean }): Promise<boolean> {
  const now = deps.clock.now();
  const states = options.orRunning ? ['queued', 'running'] : ['queued'];
  return inTransaction(deps.db, async (trx) => {
    // PostgreSQL under READ COMMITTED lets two "insert where not exists" race; a transaction-scoped
    // advisory lock serialises them. SQLite takes the write lock when the INSERT statement begins.
    if (deps.dialect === 'postgres') await schedulingLock(SCHEDULE_LOCK, kind).execute(trx);
    const result = await insertJobUnlessPending(kind, runAt, states, now).execute(trx);
    return Number(result.numAffectedRows ?? 0) > 0;
  });
}

/** Wrap a daily job's work: schedule tomorrow's run, then do today's. */
export function daily(kind: string, work: (deps: Deps) => Promise<void>) {
  return async (deps: Deps): Promise<void> => {
    await scheduleOnce(deps, kind, deps.clock.now() + DAY_MS, { orRunning: false });
    deps.pokeWorker();
    await work(deps);
  };
}
