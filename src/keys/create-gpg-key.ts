// POST /user/gpg_keys and /users/:id/gpg_keys (GitLab's GpgKeys::CreateService and GpgKey's
// validations): an armored public key block that gpg can read, unique on the instance by fingerprint.
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { forgetSignaturesBy } from './forget-signatures.js';
import { ValidationError } from '../platform/errors.js';
import { readGpgPublicKey } from './gpg-public-key.js';
import type { GpgKeyRow } from './entities.js';

const ARMORED = /^-----BEGIN PGP PUBLIC KEY BLOCK-----[\s\S]+-----END PGP PUBLIC KEY BLOCK-----\s*$/;
const TAKEN = { fingerprint: ['has already been taken'] };

export async function createGpgKey(deps: Deps, userId: number, key: string): Promise<GpgKeyRow> {
  const text = key.trim();
  if (text === '') throw new ValidationError({ key: ["can't be blank"] });
  if (!ARMORED.test(text) || text.length > 100_000) throw new ValidationError({ key: ['is invalid'] });
  const parsed = await readGpgPublicKey(text);
  if (!parsed) throw new ValidationError({ primary_keyid: ["can't be blank"], fingerprint: ["can't be blank"] });
  let row: GpgKeyRow;
  try {
    row = await inTransaction(deps.db, async (trx) => {
      const inserted = await trx
        .insertInto('gpg_keys')
        .values({ user_id: userId, key: text, primary_keyid: parsed.primaryKeyid, fingerprint: parsed.fingerprint, emails: parsed.emails.join(' '), created_at: deps.clock.now() })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (parsed.subkeys.length) await trx.insertInto('gpg_key_subkeys').values(parsed.subkeys.map((subkey) => ({ gpg_key_id: inserted.id, ...subkey }))).execute();
      return inserted;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError(TAKEN);
    throw error;
  }
  await forgetSignaturesBy(deps, [parsed.primaryKeyid, ...parsed.subkeys.map((subkey) => subkey.keyid)]);
  return row;
}
