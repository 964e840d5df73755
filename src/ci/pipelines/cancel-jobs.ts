// Cancelling jobs (GitLab's job `cancel` event), shared by the users' cancel (jobs/job-actions.ts) and
// the auto-cancel of redundant pipelines (cancel-redundant-pipelines.ts). Each job moves to `canceled`
// by an UPDATE guarded by its status, so a job that finished or was cancelled since the caller read it
// keeps its status and publishes nothing. A running job's token stops working with it: its runner's
// next trace or keep-alive answers 403 with `Job-Status: canceled`, and the runner stops the job.
import type { Deps } from '../../platform/deps.js';
import type { DbTransaction } from '../../platform/db/database.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import type { CiBuildRow } from '../../commit-statuses/api.js';
import { jobStatusChanged } from './job-status-changed.js';

/** GitLab's cancelable job statuses (alive, or waiting to be played or to start). */
export const CANCELABLE_JOB_STATUSES: CiStatus[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'manual', 'scheduled'];

/** The still cancelable of `builds` canceled, noting the pipeline that auto-cancelled them; answers how many moved. */
export async function cancelBuilds(trx: DbTransaction, deps: Deps, builds: CiBuildRow[], autoCanceledById: number | null = null): Promise<number> {
  const now = deps.clock.now();
  let moved = 0;
  for (const build of builds) {
    if (!CANCELABLE_JOB_STATUSES.includes(build.status)) continue;
    const canceled = await trx
      .updateTable('ci_builds')
      .set({ status: 'canceled', finished_at: now, updated_at: now, ...(autoCanceledById === null ? {} : { auto_canceled_by_id: autoCanceledById }) })
      .where('id', '=', build.id)
      .where('status', 'in', CANCELABLE_JOB_STATUSES)
      .returning('id')
      .executeTakeFirst();
    if (!canceled) continue;
    moved += 1;
    await jobStatusChanged(trx, deps, build, 'canceled');
  }
  return moved;
}
