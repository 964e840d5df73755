// Password checks shared by the sign-in form and the OAuth password grant, with GitLab's (Devise
// lockable) lock-out: 10 failed attempts lock the account for 10 minutes (ASVS 5.0 6.1.1, 6.3.1).
// Unknown logins cost a password hash too, so timing does not reveal which logins exist (ASVS 6.3.8).
import type { Deps } from '../platform/deps.js';
import type { UserRow } from './lookup.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { failedAttemptsAfterFailure, lockedUntilAfterFailure } from './check-password-queries.js';
import { currentSettings } from '../application-settings/api.js';
import { unconfirmedKeptOut } from './confirmation-period.js';

export const MAX_FAILED_ATTEMPTS = 10;
export const LOCK_MS = 10 * 60_000;

let decoyHash: Promise<string> | null = null;

export async function findUserByLogin(deps: Deps, login: string): Promise<UserRow | undefined> {
  const key = login.trim().toLowerCase();
  if (key === '') return undefined;
  return deps.db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username_lower', '=', key), eb('email_lower', '=', key)]))
    .executeTakeFirst();
}

export function isLocked(user: UserRow, now: number): boolean {
  return user.locked_until !== null && Number(user.locked_until) > now;
}

/**
 * Why a check failed. `pending` (a sign-up awaiting approval) and `unconfirmed` (a sign-up whose
 * address is not confirmed yet) are only told after the right password (docs/accounts.md).
 */
export type PasswordCheck = { ok: true; user: UserRow } | { ok: false; reason: 'invalid' | 'locked' | 'blocked' | 'pending' | 'unconfirmed'; user?: UserRow };

/**
 * Verify a login and password; counts failures and locks the account after too many. Git clients
 * pass `countFailures: false`: GitLab checks a git password without Devise's lock-out (a sprayer would
 * otherwise lock victims out); git HTTP throttles failures per address instead. A deactivated user is
 * refused, except by the web sign-in (`reactivate`), which makes them active again as GitLab does.
 */
export async function checkPassword(deps: Deps, login: string, password: string, options: { countFailures?: boolean; reactivate?: boolean } = {}): Promise<PasswordCheck> {
  const user = await findUserByLogin(deps, login);
  if (!user || !user.password_hash) {
    decoyHash ??= hashPassword('decoy password for timing');
    await verifyPassword(await decoyHash, password);
    return { ok: false, reason: 'invalid' };
  }
  const now = deps.clock.now();
  if (isLocked(user, now)) return { ok: false, reason: 'locked', user };
  if (!(await verifyPassword(user.password_hash, password))) {
    if (options.countFailures !== false) await recordFailedAttempt(deps, user.id);
    return { ok: false, reason: 'invalid', user };
  }
  if (user.state === 'blocked' || user.state === 'banned') return { ok: false, reason: 'blocked', user };
  if (user.state === 'blocked_pending_approval') return { ok: false, reason: 'pending', user };
  if (await keptOutUnconfirmed(deps, user, now)) return { ok: false, reason: 'unconfirmed', user };
  if (user.state === 'deactivated') {
    if (!options.reactivate) return { ok: false, reason: 'blocked', user };
    await deps.db.updateTable('users').set({ state: 'active', updated_at: now }).where('id', '=', user.id).where('state', '=', 'deactivated').execute();
  }
  if (user.failed_attempts > 0 || user.locked_until !== null) {
    await deps.db.updateTable('users').set({ failed_attempts: 0, locked_until: null }).where('id', '=', user.id).execute();
  }
  return { ok: true, user };
}

/**
 * Devise's confirmable as email_confirmation_setting shapes it (confirmation-period.ts): an
 * unconfirmed primary address keeps the account out under `hard`, and under `soft` once the grace
 * period is over. The settings are read only for an unconfirmed address.
 */
export async function keptOutUnconfirmed(deps: Deps, user: UserRow, now: number): Promise<boolean> {
  const row = await deps.db.selectFrom('emails').select('confirmed_at').where('user_id', '=', user.id).where('email_lower', '=', user.email_lower).executeTakeFirst();
  // Accounts made before addresses were recorded have no row: they were never asked to confirm.
  if (!row || row.confirmed_at !== null) return false;
  return unconfirmedKeptOut(await currentSettings(deps), Number(user.created_at), now);
}

/** One atomic increment; the attempt that reaches the maximum sets the lock. */
export async function recordFailedAttempt(deps: Deps, userId: number): Promise<void> {
  const now = deps.clock.now();
  await deps.db
    .updateTable('users')
    .set({
      failed_attempts: failedAttemptsAfterFailure(now),
      locked_until: lockedUntilAfterFailure(now, MAX_FAILED_ATTEMPTS, now + LOCK_MS),
    })
    .where('id', '=', userId)
    .execute();
}
