// Project and group access tokens as the API lists and finds them: the tokens of the bot users who
// are direct members of the project or group, with the bot's role there.
import type { Deps } from '../platform/deps.js';
import type { MemberSource } from './member-source.js';
import { today } from './access.js';
import type { TokenRow } from './token-entities.js';

export type ResourceTokenRow = TokenRow & { access_level: number };

export function resourceTokensQuery(deps: Deps, source: MemberSource) {
  return deps.db
    .selectFrom('personal_access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('members as m', (join) => join.onRef('m.user_id', '=', 'u.id').on('m.source_type', '=', source.type).on('m.source_id', '=', source.id))
    .selectAll('t')
    .select('m.access_level')
    .where('u.user_type', '=', 'project_bot')
    .orderBy('t.id');
}

/** `active` (the default, as GitLab lists them): neither revoked nor expired; `inactive`: the others. */
export function listedResourceTokensQuery(deps: Deps, source: MemberSource, state: 'active' | 'inactive' | undefined) {
  const day = today(deps.clock.now());
  const query = resourceTokensQuery(deps, source);
  if (state === 'inactive') return query.where((eb) => eb.or([eb('t.revoked', '=', 1), eb('t.expires_at', '<', day)]));
  return query.where('t.revoked', '=', 0).where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>=', day)]));
}

export async function findResourceToken(deps: Deps, source: MemberSource, tokenId: number): Promise<ResourceTokenRow | undefined> {
  return resourceTokensQuery(deps, source).where('t.id', '=', tokenId).executeTakeFirst();
}
