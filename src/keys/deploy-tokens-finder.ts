// Deploy tokens as the API lists and finds them, and as git over HTTP resolves one.
import type { Deps } from '../platform/deps.js';
import type { DeployTokenRow } from './entities.js';

export type DeployTokenOwner = { kind: 'project' | 'group'; id: number };

type TokensQuery = ReturnType<typeof allDeployTokensQuery>;

function allDeployTokensQuery(deps: Deps) {
  return deps.db.selectFrom('deploy_tokens').selectAll().orderBy('id');
}

/** Only the usable tokens of a query: not revoked and not expired. */
export function onlyActive(query: TokensQuery, now: number): TokensQuery {
  return query.where('revoked', '=', 0).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
}

/** Every deploy token (administrators), or only the usable ones. */
export function instanceDeployTokensQuery(deps: Deps, activeOnly: boolean) {
  const query = allDeployTokensQuery(deps);
  return activeOnly ? onlyActive(query, deps.clock.now()) : query;
}

export function deployTokensOfQuery(deps: Deps, owner: DeployTokenOwner) {
  return allDeployTokensQuery(deps).where(owner.kind === 'project' ? 'project_id' : 'group_id', '=', owner.id);
}

export async function findDeployToken(deps: Deps, owner: DeployTokenOwner, tokenId: number): Promise<DeployTokenRow | undefined> {
  return deployTokensOfQuery(deps, owner).where('id', '=', tokenId).executeTakeFirst();
}
