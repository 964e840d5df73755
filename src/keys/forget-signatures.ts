// Verified commit signatures depend on the keys: a GPG key added turns "unknown key" into an answer,
// one removed or an SSH key added or removed changes who signed. The kept outcomes naming the key
// (commit_signatures.signer: a GPG key id, an SSH fingerprint) are deleted, and verified again when
// next asked (repositories/commit-signatures).
import type { Deps } from '../platform/deps.js';

export async function forgetSignaturesBy(deps: Deps, signers: string[]): Promise<void> {
  if (!signers.length) return;
  await deps.db.deleteFrom('commit_signatures').where('signer', 'in', signers).execute();
}

/** The key ids a GPG key's signatures name: its primary key's and its subkeys'. */
export async function gpgKeyids(deps: Deps, gpgKeyId: number): Promise<string[]> {
  const key = await deps.db.selectFrom('gpg_keys').select('primary_keyid').where('id', '=', gpgKeyId).executeTakeFirst();
  const subkeys = await deps.db.selectFrom('gpg_key_subkeys').select('keyid').where('gpg_key_id', '=', gpgKeyId).execute();
  return [...(key ? [key.primary_keyid] : []), ...subkeys.map((row) => row.keyid)];
}
