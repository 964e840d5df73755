import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { inTransaction } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import type { DeploymentRow } from './entities.js';
import { findDeployment } from './deployments-finder.js';
import { startEnvironmentAfterSuccess } from './start-environment.js';
import { authorizeProject } from '../platform/auth/policies/index.js';
import { transition, type ApiDeploymentStatus } from './deployment-status.js';

export interface UpdateDeploymentInput {
  access: ProjectAccess;
  deploymentId: number;
  status: ApiDeploymentStatus;
}

/**
 * Move a deployment to another status (`PUT /projects/:id/deployments/:deployment_id`) through the
 * state machine of deployment-status.ts. The UPDATE is conditional on the status read, so two racing
 * updates cannot both apply a transition computed from the same state.
 */
export async function updateDeploymentStatus(deps: Deps, actor: Principal, input: UpdateDeploymentInput): Promise<DeploymentRow> {
  authorizeProject(input.access, 'update_deployment');
  const projectId = Number(input.access.project.id);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const deployment = await findDeployment(deps.db, projectId, input.deploymentId);
    const step = transition(deployment.status, input.status);
    if (!step.ok) throw new ValidationError({ status: [step.message] });
    const now = deps.clock.now();
    const updated = await inTransaction(deps.db, async (trx) => {
      const row = await trx
        .updateTable('deployments')
        .set({ status: input.status, updated_at: now, finished_at: step.finished ? now : deployment.finished_at })
        .where('id', '=', deployment.id)
        .where('status', '=', deployment.status)
        .returningAll()
        .executeTakeFirst();
      if (row && input.status === 'success') await startEnvironmentAfterSuccess(trx, Number(deployment.environment_id), now);
      // Webhooks' Deployment Hook (domain-events.ts).
      if (row) await deps.domainEvents.publish(trx, { kind: 'deployment.status_changed', projectId, actorId: actor.user.id, deploymentId: Number(row.id), status: row.status });
      return row;
    });
    if (updated) return updated;
  }
  throw new Error(`deployment ${input.deploymentId} kept changing while being updated`);
}
