// Housekeeping asked for by a project's administrator (the API and the settings page).
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { findRepository } from '../ensure-repository.js';
import { inTransaction } from '../../platform/db/database.js';
import { queueHousekeepingJob, scheduleHousekeeping } from './schedule.js';
import type { HousekeepingTask } from './tasks.js';

/**
 * The queued job's id, or null while another run holds the lease. A project nothing was pushed to has
 * no repository (nor a lease): its run is queued as GitLab queues it, and finds nothing to do.
 */
export async function runManualHousekeeping(deps: Deps, project: ProjectRow, task: HousekeepingTask): Promise<number | null> {
  const projectId = Number(project.id);
  // The lease and the job in one transaction: a lease is never left without the run that gives it back.
  if (await findRepository(deps, 'project', projectId)) return inTransaction(deps.db, (trx) => scheduleHousekeeping(deps, trx, projectId, task));
  return queueHousekeepingJob(deps, deps.db, projectId, task);
}
