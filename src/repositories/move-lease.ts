// Crash recovery for move jobs. The queue re-claims a job whose lease expired; a move holds a short
// lease that it renews while it works, so a worker killed with -9 frees its move within seconds and
// another node (or the restarted one) resumes it. A renewal is tied to the claim (`attempts`), so a
// run that was presumed dead and re-claimed can no longer extend the new claim's lease.
import { hostname } from 'node:os';
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';

export const MOVE_LEASE_MS = 30_000;
const RENEW_EVERY_MS = 10_000;

async function renew(deps: Deps, job: ClaimedJob): Promise<void> {
  await deps.db
    .updateTable('jobs')
    .set({ lease_until: deps.clock.now() + MOVE_LEASE_MS })
    .where('id', '=', job.id)
    .where('state', '=', 'running')
    .where('attempts', '=', job.attempts)
    .execute();
}

export async function holdLease<T>(deps: Deps, job: ClaimedJob, work: () => Promise<T>): Promise<T> {
  await renew(deps, job);
  const timer = setInterval(() => {
    renew(deps, job).catch((error) => deps.log.warn({ err: error, job: job.id }, 'could not renew the move lease'));
  }, RENEW_EVERY_MS);
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * At start-up: jobs of these kinds that a process on this host was running when it died (kill -9,
 * power loss) are released at once instead of waiting for their lease. Worker ids are
 * `<host>:<pid>:<random>` (platform/jobs/worker.ts).
 */
export async function releaseJobsOfDeadWorkers(deps: Deps, kinds: string[]): Promise<number> {
  const running = await deps.db.selectFrom('jobs').select(['id', 'locked_by']).where('state', '=', 'running').where('kind', 'in', kinds).execute();
  let released = 0;
  for (const job of running) {
    const [host, pid] = (job.locked_by ?? '').split(':');
    if (host !== hostname() || !/^\d+$/.test(pid ?? '') || Number(pid) === process.pid || processAlive(Number(pid))) continue;
    const result = await deps.db
      .updateTable('jobs')
      .set({ lease_until: 0 })
      .where('id', '=', job.id)
      .where('state', '=', 'running')
      .where('locked_by', '=', job.locked_by)
      .executeTakeFirst();
    released += Number(result.numUpdatedRows);
  }
  return released;
}
