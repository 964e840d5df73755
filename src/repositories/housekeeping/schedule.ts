// Queueing a housekeeping run of a project's repository, under its lease (lease.ts): from the pushes
// that make one due (count-pushes.ts), the API and the settings page.
import type { Deps } from '../../platform/deps.js';
import type { Tx } from '../../platform/db/statements.js';
import type { Executor } from '../../platform/db/database.js';
import { enqueue } from '../../platform/jobs/queue.js';
import { takeHousekeepingLease } from './lease.js';
import type { HousekeepingTask } from './tasks.js';

export const HOUSEKEEPING_JOB = 'repositories.housekeeping';

export interface HousekeepingPayload {
  projectId: number;
  task: HousekeepingTask;
}

/** The queued job's id, or null while another run holds the repository's lease. */
export async function scheduleHousekeeping(deps: Deps, db: Tx, projectId: number, task: HousekeepingTask): Promise<number | null> {
  if (!(await takeHousekeepingLease(db, projectId, deps.clock.now()))) return null;
  return queueHousekeepingJob(deps, db, projectId, task);
}

/** The job alone, without a lease: for a project that has no repository (nothing to hold one). */
export function queueHousekeepingJob(deps: Deps, db: Tx | Executor, projectId: number, task: HousekeepingTask): Promise<number> {
  const payload: HousekeepingPayload = { projectId, task };
  return enqueue(db, deps.clock, HOUSEKEEPING_JOB, { ...payload });
}
