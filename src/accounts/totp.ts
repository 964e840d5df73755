// TOTP codes of two-factor authentication (RFC 6238: SHA-1, 6 digits, 30 s, ±1 step of clock drift).
// The secret is sealed (AES-256-GCM) on the user because it must be read again.
import { Secret, TOTP } from 'otpauth';
import type { Deps } from '../platform/deps.js';
import { isUniqueViolation } from '../platform/db/database.js';
import type { UserRow } from './lookup.js';

export function totpFor(deps: Deps, user: Pick<UserRow, 'username'>, secretBase32: string): TOTP {
  const issuer = new URL(deps.config.baseUrl).host;
  return new TOTP({ issuer: `Kiln ${issuer}`, label: user.username, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secretBase32) });
}

/** The time step a code belongs to, or null when it matches none of the current ±1 steps. */
function matchingStep(deps: Deps, user: UserRow, code: string): number | null {
  if (!user.otp_secret_sealed || !/^\d{6}$/.test(code.trim())) return null;
  const totp = totpFor(deps, user, deps.box.open(user.otp_secret_sealed));
  const now = deps.clock.now();
  const delta = totp.validate({ token: code.trim(), timestamp: now, window: 1 });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

export function totpMatches(deps: Deps, user: UserRow, code: string): boolean {
  return matchingStep(deps, user, code) !== null;
}

/** A matching code whose step was not used before; records the step (the primary key makes it atomic). */
export async function useTotp(deps: Deps, user: UserRow, code: string): Promise<boolean> {
  const step = matchingStep(deps, user, code);
  if (step === null) return false;
  try {
    await deps.db.insertInto('otp_used_steps').values({ user_id: user.id, step }).execute();
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
  await deps.db.deleteFrom('otp_used_steps').where('user_id', '=', user.id).where('step', '<', step - 2).execute();
  return true;
}
