// Housekeeping: prunes finished jobs and stale rate-limit windows so both tables stay small (every
// query on them must stay index-served, ARCHITECTURE.md "Data"). Dead jobs are kept: they are the
// visible record of work that needs an operator. The job re-schedules itself hourly.
import type { Deps } from '../deps.js';
import type { Feature } from '../feature.js';
import type { Executor } from '../db/database.js';
import { enqueue } from './queue.js';
import { DAY_MS } from '../clock.js';

export const HOUSEKEEPING_JOB = 'platform.housekeeping';
export const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;
/** Rate-limit windows are minutes long; a row untouched for a day is certainly stale. */
const RATE_LIMIT_KEEP_MS = DAY_MS;

export interface HousekeepingResult {
  jobsPruned: number;
  rateLimitsPruned: number;
}

export async function pruneHousekeeping(deps: Deps): Promise<HousekeepingResult> {
  const now = deps.clock.now();
  const jobs = await deps.db
    .deleteFrom('jobs')
    .where('state', '=', 'done')
    .where('updated_at', '<', now - deps.config.jobRetentionDays * DAY_MS)
    .executeTakeFirst();
  const limits = await deps.db.deleteFrom('rate_limits').where('window_start', '<', now - RATE_LIMIT_KEEP_MS).executeTakeFirst();
  return { jobsPruned: Number(jobs.numDeletedRows), rateLimitsPruned: Number(limits.numDeletedRows) };
}

/** Queue the next run unless one is already queued (several nodes may start at once; an extra run is harmless). */
export async function scheduleHousekeeping(executor: Executor, deps: Deps, runAt: number): Promise<void> {
  const pending = await executor.selectFrom('jobs').select('id').where('kind', '=', HOUSEKEEPING_JOB).where('state', '=', 'queued').executeTakeFirst();
  if (!pending) await enqueue(executor, deps.clock, HOUSEKEEPING_JOB, {}, { runAt, maxAttempts: 3 });
}

export const housekeepingFeature: Feature = {
  name: 'platform',
  jobs: {
    async [HOUSEKEEPING_JOB](deps) {
      const result = await pruneHousekeeping(deps);
      deps.log.info(result, 'housekeeping done');
      await scheduleHousekeeping(deps.db, deps, deps.clock.now() + HOUSEKEEPING_INTERVAL_MS);
    },
  },
  async onStart(deps) {
    await scheduleHousekeeping(deps.db, deps, deps.clock.now() + 60_000);
  },
};
