// Following a reset link: the token is looked up by its digest, must be younger than an hour, and is
// spent by the same statement that sets the new password (two uses of one link cannot both win).
// The account is unlocked and every session of the user signed out.
import type { Deps } from '../platform/deps.js';
import { sha256Hex } from '../platform/crypto.js';
import { ValidationError } from '../platform/errors.js';
import { hashPassword } from './passwords.js';
import { validateUserFields } from './create-user.js';
import { endOtherSessions } from './active-sessions.js';
import { RESET_LIFETIME_MS } from './request-password-reset.js';
import { isBlockedState } from '../platform/auth/principal.js';

/** The user a reset token is for, while it is valid; null otherwise. */
export async function userOfResetToken(deps: Deps, token: string): Promise<{ id: number; username: string } | null> {
  if (token === '') return null;
  const row = await deps.db
    .selectFrom('users')
    .select(['id', 'username', 'reset_password_sent_at', 'state'])
    .where('reset_password_digest', '=', sha256Hex(token))
    .executeTakeFirst();
  if (!row || isBlockedState(row.state) || row.reset_password_sent_at === null) return null;
  if (Number(row.reset_password_sent_at) + RESET_LIFETIME_MS <= deps.clock.now()) return null;
  return { id: Number(row.id), username: row.username };
}

export async function resetPassword(deps: Deps, token: string, password: string, confirmation: string): Promise<boolean> {
  const user = await userOfResetToken(deps, token);
  if (!user) return false;
  validateUserFields({ password }, false);
  if (password !== confirmation) throw new ValidationError({ password_confirmation: ["doesn't match Password"] });
  const digest = await hashPassword(password);
  const updated = await deps.db
    .updateTable('users')
    .set({ password_hash: digest, reset_password_digest: null, reset_password_sent_at: null, password_expires_at: null, failed_attempts: 0, locked_until: null, updated_at: deps.clock.now() })
    .where('id', '=', user.id)
    .where('reset_password_digest', '=', sha256Hex(token))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return false;
  await endOtherSessions(deps, user.id, null);
  return true;
}
