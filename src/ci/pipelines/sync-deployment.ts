// A deployment follows its job (GitLab's Deployment status sync): every job transition to a
// deployment status is copied to the deployment the job made, if any; a success gives the
// environment the job's `environment:url`.
import type { Deps } from '../../platform/deps.js';
import type { DbTransaction as Transaction } from '../../platform/db/database.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import { jobDeploymentChanged } from '../../environments/api.js';
import { readOptions } from './build-options.js';

export async function syncDeployment(trx: Transaction, deps: Deps, buildId: number, status: CiStatus): Promise<void> {
  let url: string | undefined;
  if (status === 'success') {
    const row = await trx.selectFrom('ci_builds').select('options').where('id', '=', buildId).where('environment', 'is not', null).executeTakeFirst();
    url = row ? readOptions(row.options)?.environment?.url : undefined;
  }
  await jobDeploymentChanged(trx, deps, buildId, status, url);
}
