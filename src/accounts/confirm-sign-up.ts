// A sign-up's primary address: following its link confirms it once, within CONFIRMATION_LIFETIME_MS
// (the token is kept only as a digest); a new link can be asked for with the same answer whether or
// not the address has an unconfirmed account, and is mailed at most once a minute per account.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { sha256Hex } from '../platform/crypto.js';
import { hit } from '../platform/rate-limit.js';
import { confirmEmail } from './confirm-email.js';
import { CONFIRMATION_LIFETIME_MS, confirmationMessage, queueAccountMail } from './sign-up-emails.js';

/** Whether the token confirmed a primary address now (false: unknown, used or run out). */
export async function confirmSignUp(deps: Deps, token: string): Promise<boolean> {
  // Only a primary address: a secondary one is confirmed through /-/profile/emails/confirmation.
  return (await confirmEmail(deps, token, { primaryWithinMs: CONFIRMATION_LIFETIME_MS })) !== null;
}

export async function resendSignUpConfirmation(deps: Deps, address: string): Promise<void> {
  const key = address.trim().toLowerCase();
  if (key === '') return;
  const user = await deps.db
    .selectFrom('users')
    .innerJoin('emails', (join) => join.onRef('emails.user_id', '=', 'users.id').onRef('emails.email_lower', '=', 'users.email_lower'))
    .select(['users.id', 'users.email', 'users.state'])
    .where('users.email_lower', '=', key)
    .where('emails.confirmed_at', 'is', null)
    .where('users.user_type', '=', 'human')
    .executeTakeFirst();
  // A sign-up awaiting approval gets its link when approved (approve-user.ts).
  if (!user || user.state !== 'active') return;
  if (!(await hit(deps.db, deps.clock, `confirmation:user:${user.id}`, { limit: 1, windowMs: 60_000 })).allowed) return;
  const token = randomBytes(20).toString('hex');
  const now = deps.clock.now();
  await inTransaction(deps.db, async (trx) => {
    await trx.updateTable('emails').set({ confirmation_digest: sha256Hex(token), confirmation_sent_at: now, updated_at: now }).where('user_id', '=', user.id).where('email_lower', '=', key).execute();
    await queueAccountMail(deps, trx, [confirmationMessage(deps, user.email, Number(user.id), token)]);
  });
  deps.pokeWorker();
}
