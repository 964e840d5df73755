// POST /projects/:id/deploy_keys/:key_id/enable (GitLab's Projects::EnableDeployKeyService): a deploy
// key the user may enable (public, or on another project they maintain) becomes usable on this project
// too, read-only; enabling it again changes nothing.
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { NotFoundError } from '../platform/errors.js';
import { findDeployKey, mayEnableDeployKey } from './deploy-keys-finder.js';
import type { KeyRow } from './entities.js';

/** The link of a key to a project; an existing link is kept as it is (the unique index decides). */
export async function linkDeployKey(db: Executor, keyId: number, projectId: number, canPush: boolean, now: number): Promise<void> {
  await db
    .insertInto('deploy_keys_projects')
    .values({ deploy_key_id: keyId, project_id: projectId, can_push: canPush ? 1 : 0, created_at: now, updated_at: now })
    .onConflict((conflict) => conflict.columns(['deploy_key_id', 'project_id']).doNothing())
    .execute();
}

export async function enableDeployKey(deps: Deps, user: AuthUser, projectId: number, keyId: number): Promise<KeyRow> {
  const key = await findDeployKey(deps, keyId);
  if (!key || !(await mayEnableDeployKey(deps, user, key))) throw new NotFoundError('Deploy Key');
  await linkDeployKey(deps.db, keyId, projectId, false, deps.clock.now());
  return key;
}
