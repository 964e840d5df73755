// DELETE /projects/:id/deploy_keys/:key_id: the key is no longer enabled on the project; a key that is
// neither public nor enabled anywhere else is deleted with it (GitLab's
// DeployKeysProject#destroy_orphaned_deploy_key). DELETE /deploy_keys/:key_id deletes any deploy key
// (administrators).
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { NotFoundError } from '../platform/errors.js';

export async function removeDeployKeyFromProject(deps: Deps, projectId: number, keyId: number): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const removed = await trx.deleteFrom('deploy_keys_projects').where('deploy_key_id', '=', keyId).where('project_id', '=', projectId).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw new NotFoundError('Deploy Key');
    // In the same statement, so a concurrent enable elsewhere is either seen or keeps the key.
    await trx
      .deleteFrom('keys')
      .where('id', '=', keyId)
      .where('type', '=', 'DeployKey')
      .where('public', '=', 0)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('deploy_keys_projects').select('id').where('deploy_key_id', '=', keyId))))
      .execute();
  });
}

export async function deleteDeployKey(deps: Deps, keyId: number): Promise<void> {
  const deleted = await deps.db.deleteFrom('keys').where('id', '=', keyId).where('type', '=', 'DeployKey').executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new NotFoundError('Deploy Key');
}
