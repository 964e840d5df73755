// The keys a commit signature may name (repositories/commit-signatures verifies against them): a GPG
// key by its primary key's id or one of its subkeys' (GitLab's find_gpg_key), and an SSH key of a
// user by fingerprint when it may sign (usage_type signing or auth_and_signing, GitLab's Key.signing).
import type { Deps } from '../platform/deps.js';
import type { GpgKeyRow, KeyRow } from './entities.js';

export async function findGpgKeyByKeyid(deps: Deps, keyid: string): Promise<{ key: GpgKeyRow; subkeyId: number | null } | null> {
  const primary = await deps.db.selectFrom('gpg_keys').selectAll().where('primary_keyid', '=', keyid).executeTakeFirst();
  if (primary) return { key: primary, subkeyId: null };
  const subkey = await deps.db
    .selectFrom('gpg_key_subkeys')
    .innerJoin('gpg_keys', 'gpg_keys.id', 'gpg_key_subkeys.gpg_key_id')
    .selectAll('gpg_keys')
    .select('gpg_key_subkeys.id as subkey_id')
    .where('gpg_key_subkeys.keyid', '=', keyid)
    .executeTakeFirst();
  if (!subkey) return null;
  const { subkey_id: subkeyId, ...key } = subkey;
  return { key, subkeyId: Number(subkeyId) };
}

export async function findSigningSshKey(deps: Deps, fingerprintSha256: string): Promise<KeyRow | null> {
  const row = await deps.db
    .selectFrom('keys')
    .selectAll()
    .where('type', '=', 'Key')
    .where('fingerprint_sha256', '=', fingerprintSha256)
    .where('usage_type', 'in', ['signing', 'auth_and_signing'])
    .executeTakeFirst();
  return row ?? null;
}
