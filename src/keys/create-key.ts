// POST /user/keys and /users/:id/keys (GitLab's Keys::CreateService): a user's SSH key, unique across
// every key of the instance (deploy keys included), announced to its owner by e-mail in the same
// transaction.
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import type { KeyUsageType } from '../platform/db/tables/keys.js';
import type { KeyRow } from './entities.js';
import { validateKey, type KeyInput } from './validate-key.js';
import type { SshPublicKey } from './ssh-public-key.js';
import { queueKeyEmail, type KeyOwner } from './key-emails.js';
import { forgetSignaturesBy } from './forget-signatures.js';

export interface CreateKeyInput extends KeyInput {
  usageType: KeyUsageType;
}

export const TAKEN = { fingerprint_sha256: ['has already been taken'] };

/** The row of a new key, a user's or a deploy key, from its validated text. */
export function keyValues(type: 'Key' | 'DeployKey', userId: number | null, input: CreateKeyInput, parsed: SshPublicKey, now: number) {
  return {
    type,
    user_id: userId,
    title: input.title.trim(),
    key: parsed.text,
    comment: parsed.comment,
    algorithm: parsed.algorithm,
    bits: parsed.bits,
    fingerprint_md5: parsed.fingerprintMd5,
    fingerprint_sha256: parsed.fingerprintSha256,
    usage_type: input.usageType,
    expires_at: input.expiresAt,
    last_used_at: null,
    before_expiry_notified_at: null,
    expiry_notified_at: null,
    created_at: now,
    updated_at: now,
  };
}

export async function createKey(deps: Deps, owner: KeyOwner, input: CreateKeyInput): Promise<KeyRow> {
  const parsed = await validateKey(deps, input);
  const now = deps.clock.now();
  let added: KeyRow;
  try {
    added = await inTransaction(deps.db, async (trx) => {
      const row = await trx
        .insertInto('keys')
        .values(keyValues('Key', owner.id, input, parsed, now))
        .returningAll()
        .executeTakeFirstOrThrow();
      await queueKeyEmail(deps, trx, 'added', owner, row);
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError(TAKEN);
    throw error;
  }
  await forgetSignaturesBy(deps, [added.fingerprint_sha256]);
  return added;
}
