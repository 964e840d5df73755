// Whether work may still be done in a user's name where no credential of theirs is presented (a
// pipeline schedule runs as its owner): an active user; the bot of a project or group access token
// only while one of its tokens is usable (neither revoked nor past its expiry day). Since a revoked
// or expired token's bot stays a member (revoke-resource-access-token.ts), its role alone would let
// what it set up go on acting as it.
import type { Deps } from '../platform/deps.js';
import type { UserRow } from './lookup.js';
import { today } from './access.js';

export async function actsInName(deps: Deps, user: Pick<UserRow, 'id' | 'state' | 'user_type'>): Promise<boolean> {
  if (user.state !== 'active') return false;
  if (user.user_type !== 'project_bot') return true;
  const live = await deps.db
    .selectFrom('personal_access_tokens')
    .select('id')
    .where('user_id', '=', Number(user.id))
    .where('revoked', '=', 0)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>=', today(deps.clock.now()))]))
    .limit(1)
    .executeTakeFirst();
  return live !== undefined;
}
