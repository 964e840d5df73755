// Who an SSH key is (gitlab-sshd's authorized-keys look-up by SHA256 fingerprint among users' keys and
// deploy keys): a user through their key, or a deploy key. Keys for signing only do not authenticate
// (GitLab's Key.auth scope). Whether the key may still be used (expiry, the restriction settings) is
// asked again by every command, as GitAccess#check_valid_actor! does.
import type { Deps } from '../platform/deps.js';
import { findUserRow, keptOutUnconfirmed, toAuthUser, unconfirmedTokenMessage, type UserRow } from '../accounts/api.js';
import { checkKeyRestriction, findKeyBySha256, keyTypeOf, keyUseMessage, type KeyRow } from '../keys/api.js';
import { readApplicationSettings } from '../application-settings/api.js';
import type { GitActor } from '../repositories/api.js';

export type SshIdentity = { kind: 'user'; key: KeyRow; user: UserRow } | { kind: 'deploy_key'; key: KeyRow };

export async function identityOfKey(deps: Deps, fingerprintSha256: string): Promise<SshIdentity | null> {
  const key = await findKeyBySha256(deps, fingerprintSha256);
  if (!key || key.usage_type === 'signing') return null;
  if (key.type === 'DeployKey') return { kind: 'deploy_key', key };
  const user = key.user_id === null ? undefined : await findUserRow(deps, Number(key.user_id));
  return user ? { kind: 'user', key, user } : null;
}

/** The identity as it is now (the user may have been blocked since the connection began). */
export async function currentIdentity(deps: Deps, identity: SshIdentity): Promise<SshIdentity | null> {
  if (identity.kind === 'deploy_key') return identity;
  const user = await findUserRow(deps, Number(identity.user.id));
  return user ? { ...identity, user } : null;
}

export function actorOf(identity: SshIdentity): GitActor {
  if (identity.kind === 'deploy_key') return { kind: 'deploy_key', keyId: Number(identity.key.id), userId: identity.key.user_id === null ? null : Number(identity.key.user_id) };
  return { kind: 'user', user: toAuthUser(identity.user), scopes: null };
}

/**
 * Why the key's account may not use git now, or null: one kept out for its unconfirmed primary address
 * (GitLab's GlobalPolicy `inactive` prevents access_git; GitAccess answers UserAccessDeniedReason's
 * message). Blocked and deactivated accounts are refused by the git access decision itself.
 */
export async function accountRefusal(deps: Deps, identity: SshIdentity): Promise<string | null> {
  if (identity.kind !== 'user' || !(await keptOutUnconfirmed(deps, identity.user, deps.clock.now()))) return null;
  return unconfirmedTokenMessage(deps.config.baseUrl);
}

/** Why the key may not be used now (`Your SSH key has expired.`), or null. */
export async function keyRefusal(deps: Deps, key: KeyRow): Promise<string | null> {
  if (key.expires_at !== null && Number(key.expires_at) <= deps.clock.now()) return 'Your SSH key has expired.';
  const type = keyTypeOf(key.algorithm);
  return type ? keyUseMessage(checkKeyRestriction(await readApplicationSettings(deps.db), { type, bits: key.bits })) : 'Your SSH key type is forbidden.';
}
