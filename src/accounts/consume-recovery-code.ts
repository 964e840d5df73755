// Use a recovery code once. The conditional UPDATE on the old list makes two concurrent uses of the
// same code give one success.
import type { Deps } from '../platform/deps.js';
import { safeEqual, sha256Hex } from '../platform/crypto.js';
import type { UserRow } from './lookup.js';

export async function consumeRecoveryCode(deps: Deps, user: UserRow, code: string): Promise<boolean> {
  if (!user.otp_backup_codes) return false;
  const digests = JSON.parse(user.otp_backup_codes) as string[];
  const digest = sha256Hex(code.trim().toLowerCase());
  const index = digests.findIndex((candidate) => safeEqual(candidate, digest));
  if (index === -1) return false;
  const remaining = digests.filter((_, i) => i !== index);
  const updated = await deps.db
    .updateTable('users')
    .set({ otp_backup_codes: JSON.stringify(remaining) })
    .where('id', '=', user.id)
    .where('otp_backup_codes', '=', user.otp_backup_codes)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}
