// Every move of a CI job's status goes through here, in the transaction that made it: the deployment
// the job made follows it (sync-deployment.ts), and the move is published as `job.status_changed`
// (webhooks send Job Hooks for the statuses GitLab sends them for). A job's creation counts as a move
// to `created`.
import type { Deps } from '../../platform/deps.js';
import type { DbTransaction as Transaction } from '../../platform/db/database.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import { syncDeployment } from './sync-deployment.js';

export interface MovedJob {
  id: number | string;
  project_id: number | string;
  user_id: number | string | null;
  /** The job's `environment:` name when the caller has its row: null means it made no deployment, so none is looked for. */
  environment?: string | null;
}

export async function jobStatusChanged(trx: Transaction, deps: Deps, build: MovedJob, status: CiStatus): Promise<void> {
  if (status !== 'created' && build.environment !== null) await syncDeployment(trx, deps, Number(build.id), status);
  await publishJobStatus(trx, deps, build, status);
}

/**
 * The move published alone, for a caller that synced the deployment itself and publishes after its
 * pipeline was processed, so the Job Hook shows the pipeline's status after the move (GitLab sends it
 * after the commit).
 */
export async function publishJobStatus(trx: Transaction, deps: Deps, build: MovedJob, status: CiStatus): Promise<void> {
  await deps.domainEvents.publish(trx, {
    kind: 'job.status_changed', projectId: Number(build.project_id), actorId: build.user_id === null ? null : Number(build.user_id), buildId: Number(build.id), status,
  });
}
