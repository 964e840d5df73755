// Confirm enrolment with a current code: two-factor becomes required, and the single-use recovery
// codes are returned (shown once) and stored as SHA-256 digests (docs/architecture.md, Data).
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { sha256Hex } from '../platform/crypto.js';
import type { UserRow } from './lookup.js';
import { totpMatches } from './totp.js';
import { RECOVERY_CODE_COUNT } from './recovery-codes.js';

export async function confirmEnrolment(deps: Deps, user: UserRow, code: string): Promise<string[] | null> {
  if (user.otp_required === 1 || !totpMatches(deps, user, code)) return null;
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => randomBytes(8).toString('hex'));
  const updated = await deps.db
    .updateTable('users')
    .set({ otp_required: 1, otp_backup_codes: JSON.stringify(codes.map(sha256Hex)), updated_at: deps.clock.now() })
    .where('id', '=', user.id)
    .where('otp_required', '=', 0)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? codes : null;
}
