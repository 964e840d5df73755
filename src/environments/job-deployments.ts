// Deployments made by CI jobs (issue 39; GitLab's Environments::CreateForBuildService and the
// deployment's status sync): a job with `environment:` (action `start`) finds or creates its
// environment when its pipeline is created and records a deployment (status `created`) whose
// `deployable` is the job. The deployment then follows the job's status; on success the environment
// takes the job's `url` and starts. Runs in the CI's transaction; CI decided who may do it.
import type { Deps } from '../platform/deps.js';
import type { DbTransaction } from '../platform/db/database.js';
import { nextInternalId } from '../platform/db/internal-ids.js';
import type { DeploymentStatus, EnvironmentTier } from '../platform/db/tables/environments.js';
import { environmentSlug } from './slug.js';
import { findEnvironmentByName } from './finder.js';
import { guessTier, TIERS } from './tier.js';
import { startEnvironmentAfterSuccess } from './start-environment.js';

export interface JobEnvironment {
  name: string;
  action: string;
  deploymentTier?: string;
}

export interface JobDeploymentInput {
  projectId: number;
  buildId: number;
  environment: JobEnvironment;
  ref: string;
  sha: string;
  tag: boolean;
  userId: number | null;
}

export async function createJobDeployment(trx: DbTransaction, deps: Deps, input: JobDeploymentInput): Promise<void> {
  const now = deps.clock.now();
  const name = input.environment.name;
  let environment = await findEnvironmentByName(trx, input.projectId, name);
  if (!environment) {
    const tier = (TIERS as readonly string[]).includes(input.environment.deploymentTier ?? '') ? (input.environment.deploymentTier as EnvironmentTier) : guessTier(name);
    environment = await trx
      .insertInto('environments')
      .values({ project_id: input.projectId, name, slug: environmentSlug(name), external_url: null, state: 'available', tier, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  if (input.environment.action !== 'start') return;
  const iid = await nextInternalId(trx, input.projectId, 'deployments');
  await trx
    .insertInto('deployments')
    .values({
      project_id: input.projectId, environment_id: environment.id, iid, ref: input.ref, sha: input.sha, tag: input.tag ? 1 : 0, status: 'created',
      user_id: input.userId, created_at: now, updated_at: now, finished_at: null, deployable_id: input.buildId,
    })
    .execute();
}

const FOLLOWED: Record<string, DeploymentStatus> = { running: 'running', success: 'success', failed: 'failed', canceled: 'canceled', skipped: 'canceled' };

/** The job's new status copied to its deployment; `externalUrl`: the job's `environment:url` on success. */
export async function jobDeploymentChanged(trx: DbTransaction, deps: Deps, buildId: number, jobStatus: string, externalUrl?: string): Promise<void> {
  const status = FOLLOWED[jobStatus];
  if (!status) return;
  const now = deps.clock.now();
  const deployment = await trx
    .updateTable('deployments')
    .set({ status, updated_at: now, ...(status === 'running' ? {} : { finished_at: now }) })
    .where('deployable_id', '=', buildId)
    .where('status', '!=', status)
    .returningAll()
    .executeTakeFirst();
  if (!deployment) return;
  if (status === 'success') {
    await startEnvironmentAfterSuccess(trx, Number(deployment.environment_id), now);
    if (externalUrl) await trx.updateTable('environments').set({ external_url: externalUrl, updated_at: now }).where('id', '=', deployment.environment_id).execute();
  }
  await deps.domainEvents.publish(trx, { kind: 'deployment.status_changed', projectId: Number(deployment.project_id), actorId: deployment.user_id === null ? null : Number(deployment.user_id), deploymentId: Number(deployment.id), status });
}
