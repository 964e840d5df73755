// DELETE /user/gpg_keys/:key_id (and an administrator's for a user), and the profile page's Remove: the
// key goes, and the kept signature outcomes that named it are forgotten.
import type { Deps } from '../platform/deps.js';
import { NotFoundError } from '../platform/errors.js';
import { forgetSignaturesBy, gpgKeyids } from './forget-signatures.js';

export async function deleteGpgKey(deps: Deps, userId: number, keyId: number): Promise<void> {
  const keyids = await gpgKeyids(deps, keyId);
  const deleted = await deps.db.deleteFrom('gpg_keys').where('id', '=', keyId).where('user_id', '=', userId).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new NotFoundError('GPG Key');
  await forgetSignaturesBy(deps, keyids);
}
