// New two-factor recovery codes for a user who has two-factor authentication (GitLab's
// User#generate_otp_backup_codes!, asked by gitlab-shell's 2fa_recovery_codes): the old ones stop
// working; the new ones are returned once and stored as SHA-256 digests.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { sha256Hex } from '../platform/crypto.js';
import { RECOVERY_CODE_COUNT } from './recovery-codes.js';

/** The codes, or null when the user has no two-factor authentication. */
export async function regenerateRecoveryCodes(deps: Deps, userId: number): Promise<string[] | null> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => randomBytes(8).toString('hex'));
  const updated = await deps.db
    .updateTable('users')
    .set({ otp_backup_codes: JSON.stringify(codes.map(sha256Hex)), updated_at: deps.clock.now() })
    .where('id', '=', userId)
    .where('otp_required', '=', 1)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? codes : null;
}
