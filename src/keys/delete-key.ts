// DELETE /user/keys/:key_id and /users/:id/keys/:key_id: a user's key, looked up through its owner.
import type { Deps } from '../platform/deps.js';
import { NotFoundError } from '../platform/errors.js';
import { forgetSignaturesBy } from './forget-signatures.js';

export async function deleteKey(deps: Deps, userId: number, keyId: number): Promise<void> {
  const deleted = await deps.db.deleteFrom('keys').where('id', '=', keyId).where('user_id', '=', userId).where('type', '=', 'Key').returning('fingerprint_sha256').executeTakeFirst();
  if (!deleted) throw new NotFoundError('Key');
  await forgetSignaturesBy(deps, [deleted.fingerprint_sha256]);
}
