// A user changes their own password: the current one first (a session left open on a shared
// computer is not enough, ASVS 5.0 6.2.3), then every other session of theirs is signed out. A
// wrong current password counts towards the lock-out as a failed sign-in does.
import type { Deps } from '../platform/deps.js';
import { ValidationError } from '../platform/errors.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { recordFailedAttempt } from './check-password.js';
import { validateUserFields } from './create-user.js';
import { endOtherSessions } from './active-sessions.js';

export interface ChangePasswordInput {
  currentPassword: string;
  password: string;
  confirmation: string;
}

export async function changePassword(deps: Deps, userId: number, keepSessionDigest: string | null, input: ChangePasswordInput): Promise<void> {
  const user = await deps.db.selectFrom('users').select(['id', 'password_hash', 'password_expires_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
    await recordFailedAttempt(deps, userId);
    throw new ValidationError({ current_password: ['is invalid'] });
  }
  validateUserFields({ password: input.password }, false);
  if (input.password !== input.confirmation) throw new ValidationError({ password_confirmation: ["doesn't match Password"] });
  // A password that had to be changed (root's generated one, an administrator's reset) must change.
  if (user.password_expires_at !== null && input.password === input.currentPassword) throw new ValidationError({ password: ['must be different from the current password'] });
  const now = deps.clock.now();
  await deps.db.updateTable('users').set({ password_hash: await hashPassword(input.password), password_expires_at: null, updated_at: now }).where('id', '=', userId).execute();
  await endOtherSessions(deps, userId, keepSessionDigest);
}
