// PUT /projects/:id/deploy_keys/:key_id (GitLab's API over DeployKeysProject#update): the project's
// `can_push` by any maintainer of it; the key's title only by its creator or an administrator (others'
// titles are left as they are, as GitLab ignores them).
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { inTransaction } from '../platform/db/database.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { findProjectDeployKey, type ProjectDeployKeyRow } from './deploy-keys-finder.js';

export async function updateDeployKey(deps: Deps, user: AuthUser, projectId: number, keyId: number, input: { title?: string; canPush?: boolean }): Promise<ProjectDeployKeyRow> {
  const key = await findProjectDeployKey(deps, projectId, keyId);
  if (!key) throw new NotFoundError('Deploy Key');
  const now = deps.clock.now();
  const mayRename = user.admin || (key.user_id !== null && Number(key.user_id) === user.id);
  const title = input.title?.trim();
  if (mayRename && title !== undefined) {
    if (title === '') throw new ValidationError({ title: ["can't be blank"] });
    if (title.length > 255) throw new ValidationError({ title: ['is too long (maximum is 255 characters)'] });
  }
  await inTransaction(deps.db, async (trx) => {
    if (input.canPush !== undefined) {
      await trx.updateTable('deploy_keys_projects').set({ can_push: input.canPush ? 1 : 0, updated_at: now }).where('deploy_key_id', '=', keyId).where('project_id', '=', projectId).execute();
    }
    if (mayRename && title !== undefined) await trx.updateTable('keys').set({ title, updated_at: now }).where('id', '=', keyId).execute();
  });
  return (await findProjectDeployKey(deps, projectId, keyId))!;
}
