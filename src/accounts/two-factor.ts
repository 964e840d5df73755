// Two-factor authentication with TOTP (RFC 6238: SHA-1, 6 digits, 30 s, ±1 step of clock drift) and
// single-use recovery codes. The secret is sealed (AES-256-GCM) because it must be read again; the
// recovery codes are stored as SHA-256 digests (ARCHITECTURE.md, Data).
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Deps } from '../platform/deps.js';
import { safeEqual, sha256Hex } from '../platform/crypto.js';
import type { UserRow } from './lookup.js';

export const RECOVERY_CODE_COUNT = 10;

function totpFor(deps: Deps, user: Pick<UserRow, 'username'>, secretBase32: string): TOTP {
  const issuer = new URL(deps.config.baseUrl).host;
  return new TOTP({ issuer: `Kiln ${issuer}`, label: user.username, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secretBase32) });
}

/** Start enrolment: a fresh secret, sealed on the user but not yet required. */
export async function beginEnrolment(deps: Deps, user: UserRow): Promise<void> {
  const secret = new Secret({ size: 20 }).base32;
  await deps.db.updateTable('users').set({ otp_secret_sealed: deps.box.seal(secret), updated_at: deps.clock.now() }).where('id', '=', user.id).where('otp_required', '=', 0).execute();
}

/** The pending or active secret as text and as an otpauth:// URI for the QR code. */
export function provisioning(deps: Deps, user: UserRow): { secret: string; uri: string } | null {
  if (!user.otp_secret_sealed) return null;
  const secret = deps.box.open(user.otp_secret_sealed);
  return { secret, uri: totpFor(deps, user, secret).toString() };
}

export function totpMatches(deps: Deps, user: UserRow, code: string): boolean {
  if (!user.otp_secret_sealed || !/^\d{6}$/.test(code.trim())) return false;
  const totp = totpFor(deps, user, deps.box.open(user.otp_secret_sealed));
  return totp.validate({ token: code.trim(), timestamp: deps.clock.now(), window: 1 }) !== null;
}

/** Confirm enrolment with a current code: two-factor becomes required; returns the recovery codes (shown once). */
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

export async function disableTwoFactor(deps: Deps, userId: number): Promise<void> {
  await deps.db.updateTable('users').set({ otp_required: 0, otp_secret_sealed: null, otp_backup_codes: null, updated_at: deps.clock.now() }).where('id', '=', userId).execute();
}

/**
 * Use a recovery code once. The conditional UPDATE on the old list makes two concurrent uses of
 * the same code give one success.
 */
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

/** The second sign-in step: a current TOTP code or an unused recovery code. */
export async function verifySecondFactor(deps: Deps, user: UserRow, code: string): Promise<boolean> {
  if (user.otp_required !== 1) return false;
  if (totpMatches(deps, user, code)) return true;
  return consumeRecoveryCode(deps, user, code);
}

export function remainingRecoveryCodes(user: UserRow): number {
  return user.otp_backup_codes ? (JSON.parse(user.otp_backup_codes) as string[]).length : 0;
}
