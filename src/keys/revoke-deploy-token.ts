// Revoking a deploy token from the settings pages (GitLab's DeployTokens::RevokeService): the row is
// kept, marked revoked, so git over HTTP refuses it and the admin list still shows it; the API's
// DELETE removes the row instead, as GitLab's does.
import type { Deps } from '../platform/deps.js';
import { NotFoundError } from '../platform/errors.js';
import type { DeployTokenOwner } from './deploy-tokens-finder.js';

export async function revokeDeployToken(deps: Deps, owner: DeployTokenOwner, tokenId: number): Promise<void> {
  const revoked = await deps.db
    .updateTable('deploy_tokens')
    .set({ revoked: 1 })
    .where('id', '=', tokenId)
    .where(owner.kind === 'project' ? 'project_id' : 'group_id', '=', owner.id)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  if (Number(revoked.numUpdatedRows) === 0) throw new NotFoundError('Deploy Token');
}
