// Deploy tokens as the API lists and finds them, and as git over HTTP resolves one.
import type { Deps } from '../platform/deps.js';
import type { DeployTokenRow } from './entities.js';

export type DeployTokenOwner = { kind: 'project' | 'group'; id: number };

/** Every deploy token (administrators), or only the usable ones: not revoked and not expired. */
export function instanceDeployTokensQuery(deps: Deps, activeOnly: boolean) {
  const query = deps.db.selectFrom('deploy_tokens').selectAll().orderBy('id');
  if (!activeOnly) return query;
  const now = deps.clock.now();
  return query.where('revoked', '=', 0).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
}

export function deployTokensOfQuery(deps: Deps, owner: DeployTokenOwner) {
  return deps.db.selectFrom('deploy_tokens').selectAll().where(owner.kind === 'project' ? 'project_id' : 'group_id', '=', owner.id).orderBy('id');
}

export async function findDeployToken(deps: Deps, owner: DeployTokenOwner, tokenId: number): Promise<DeployTokenRow | undefined> {
  return deployTokensOfQuery(deps, owner).where('id', '=', tokenId).executeTakeFirst();
}
