import type { Executor } from '../platform/db/database.js';

/**
 * A successful deployment fires the environment's `start` event (GitLab's
 * Deployments::UpdateEnvironmentService; GitLab's REST API documentation): a stopped environment is
 * available again. Runs in the deployment's transaction.
 */
export async function startEnvironmentAfterSuccess(trx: Executor, environmentId: number, now: number): Promise<void> {
  await trx.updateTable('environments').set({ state: 'available', updated_at: now }).where('id', '=', environmentId).where('state', '=', 'stopped').execute();
}
