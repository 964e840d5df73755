import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { inTransaction } from '../platform/db/database.js';
import { nextInternalId } from '../platform/db/internal-ids.js';
import { ValidationError } from '../platform/errors.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import type { DeploymentRow, EnvironmentRow } from './entities.js';
import { findEnvironmentByName, lastSuccessfulDeployment } from './finder.js';
import { createEnvironment } from './create-environment.js';
import { startEnvironmentAfterSuccess } from './start-environment.js';
import { authorizeProject } from '../platform/auth/policies/index.js';
import type { ApiDeploymentStatus } from './deployment-status.js';

export interface CreateDeploymentInput {
  access: ProjectAccess;
  /** Environment name: found, or created when the project has none of that name. */
  environment: string;
  sha: string;
  ref: string;
  tag: boolean;
  status: ApiDeploymentStatus;
}

/**
 * Record a deployment made outside CI (`POST /projects/:id/deployments`, GitLab's lib/api/deployments.rb
 * and Deployments::CreateService). It takes the next per-project iid; a `success` makes it the
 * environment's `last_deployment` and starts a stopped environment. Posting again exactly what the
 * last successful deployment says (ref, sha, tag and status) answers that deployment, as GitLab does.
 */
export async function createDeployment(deps: Deps, actor: Principal, input: CreateDeploymentInput): Promise<{ deployment: DeploymentRow; environment: EnvironmentRow }> {
  authorizeProject(input.access, 'create_deployment');
  const errors: Record<string, string[]> = {};
  if (input.sha.trim() === '') errors.sha = ["can't be blank"];
  if (input.ref.trim() === '') errors.ref = ["can't be blank"];
  const projectId = Number(input.access.project.id);
  const environment = await findOrCreateEnvironment(deps, actor, input.access, input.environment);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const last = await lastSuccessfulDeployment(deps.db, Number(environment.id));
  const same = last?.deployment;
  if (same && same.ref === input.ref && same.sha === input.sha && (same.tag === 1) === input.tag && same.status === input.status) {
    return { deployment: same, environment };
  }
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const iid = await nextInternalId(trx, projectId, 'deployments');
    const deployment = await trx
      .insertInto('deployments')
      .values({
        project_id: projectId,
        environment_id: environment.id,
        iid,
        ref: input.ref,
        sha: input.sha,
        tag: input.tag ? 1 : 0,
        status: input.status,
        user_id: actor.user.id,
        created_at: now,
        updated_at: now,
        finished_at: input.status === 'running' ? null : now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (input.status === 'success') await startEnvironmentAfterSuccess(trx, Number(environment.id), now);
    // Webhooks' Deployment Hook (domain-events.ts).
    await deps.domainEvents.publish(trx, { kind: 'deployment.status_changed', projectId, actorId: actor.user.id, deploymentId: Number(deployment.id), status: deployment.status });
    return { deployment, environment };
  });
}

async function findOrCreateEnvironment(deps: Deps, actor: Principal, access: ProjectAccess, name: string): Promise<EnvironmentRow> {
  const projectId = Number(access.project.id);
  const existing = await findEnvironmentByName(deps.db, projectId, name);
  if (existing) return existing;
  try {
    return await createEnvironment(deps, actor, { access, name });
  } catch (error) {
    // A racing request created it first: use theirs.
    const raced = await findEnvironmentByName(deps.db, projectId, name);
    if (raced) return raced;
    throw error;
  }
}
