// Single-use recovery codes of two-factor authentication, kept as SHA-256 digests.
import type { UserRow } from './lookup.js';

export const RECOVERY_CODE_COUNT = 10;

export function remainingRecoveryCodes(user: UserRow): number {
  return user.otp_backup_codes ? (JSON.parse(user.otp_backup_codes) as string[]).length : 0;
}
