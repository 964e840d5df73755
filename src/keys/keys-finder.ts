// Users' SSH keys as the API lists and finds them.
import type { Deps } from '../platform/deps.js';
import type { KeyRow } from './entities.js';

/** A user's own keys (not deploy keys they created), oldest first. */
export function userKeysQuery(deps: Deps, userId: number) {
  return deps.db.selectFrom('keys').selectAll().where('user_id', '=', userId).where('type', '=', 'Key').orderBy('id');
}

export async function findUserKey(deps: Deps, userId: number, keyId: number): Promise<KeyRow | undefined> {
  return deps.db.selectFrom('keys').selectAll().where('id', '=', keyId).where('user_id', '=', userId).where('type', '=', 'Key').executeTakeFirst();
}

export async function findKeyById(deps: Deps, keyId: number): Promise<KeyRow | undefined> {
  return deps.db.selectFrom('keys').selectAll().where('id', '=', keyId).executeTakeFirst();
}

/** Any key (a user's or a deploy key) by its SHA-256 fingerprint: what the SSH server authenticates with. */
export async function findKeyBySha256(deps: Deps, fingerprint: string): Promise<KeyRow | undefined> {
  return deps.db.selectFrom('keys').selectAll().where('fingerprint_sha256', '=', fingerprint).executeTakeFirst();
}

export async function findKeyByMd5(deps: Deps, fingerprint: string): Promise<KeyRow | undefined> {
  return deps.db.selectFrom('keys').selectAll().where('fingerprint_md5', '=', fingerprint).orderBy('id').limit(1).executeTakeFirst();
}
