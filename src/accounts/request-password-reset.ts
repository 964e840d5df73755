// "Forgot your password?": a reset link mailed to the account with that address. The caller always
// gets the same answer, whether an account has the address or not (no user enumeration, ASVS 5.0
// 6.3.8); the link's token is stored as a digest, expires (RESET_LIFETIME_MS) and works once. An
// account is mailed at most once a minute, so the form cannot be used to flood someone's inbox.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';
import { hit } from '../platform/rate-limit.js';
import { queueEmails } from '../email/api.js';
import { isBlockedState } from '../platform/auth/principal.js';

/** How long a reset link works: Kiln's choice, short, since the link alone grants the account. */
export const RESET_LIFETIME_MS = 60 * 60_000;

export function passwordResetUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/users/password/edit?reset_password_token=${token}`;
}

async function accountWithAddress(deps: Deps, address: string) {
  const key = address.trim().toLowerCase();
  if (key === '') return undefined;
  const byPrimary = await deps.db.selectFrom('users').select(['id', 'email', 'state', 'user_type']).where('email_lower', '=', key).executeTakeFirst();
  if (byPrimary) return byPrimary;
  // A confirmed secondary address reaches its owner too (an unconfirmed one may be someone else's).
  return deps.db
    .selectFrom('emails')
    .innerJoin('users', 'users.id', 'emails.user_id')
    .select(['users.id', 'emails.email', 'users.state', 'users.user_type'])
    .where('emails.email_lower', '=', key)
    .where('emails.confirmed_at', 'is not', null)
    .executeTakeFirst();
}

export async function requestPasswordReset(deps: Deps, address: string): Promise<void> {
  const user = await accountWithAddress(deps, address);
  if (!user || isBlockedState(user.state) || user.user_type !== 'human') return;
  const perAccount = await hit(deps.db, deps.clock, `password_reset:user:${user.id}`, { limit: 1, windowMs: 60_000 });
  if (!perAccount.allowed) return;
  const token = randomToken(32);
  const now = deps.clock.now();
  const link = passwordResetUrl(deps.config.baseUrl, token);
  await inTransaction(deps.db, async (trx) => {
    await trx.updateTable('users').set({ reset_password_digest: sha256Hex(token), reset_password_sent_at: now }).where('id', '=', user.id).execute();
    await queueEmails(deps, trx, [{
      from: deps.config.emailFrom,
      to: user.email,
      userId: Number(user.id),
      subject: 'Reset password instructions',
      messageId: `reset_password_${user.id}_${token.slice(0, 8)}@${new URL(deps.config.baseUrl).hostname}`,
      headers: {},
      text: `Someone, hopefully you, asked to reset the password of your Kiln account.\n\nChoose a new password within an hour at this link:\n\n${link}\n\nIf you did not ask, ignore this e-mail: your password stays as it is.\n`,
      html: `<p>Someone, hopefully you, asked to reset the password of your Kiln account.</p><p><a href="${link}">Choose a new password</a> within an hour.</p><p>If you did not ask, ignore this e-mail: your password stays as it is.</p>`,
    }]);
  });
}
