// POST /users/:id/approve and the admin area's Approve (GitLab's Users::ApproveService): a sign-up
// awaiting approval becomes active and is told by e-mail; an address not confirmed yet gets its
// confirmation link again, since the first one may have run out while the sign-up waited.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { sha256Hex } from '../platform/crypto.js';
import { ConflictError } from '../platform/errors.js';
import type { UserRow } from './lookup.js';
import { confirmationMessage, queueAccountMail, type AccountMessage } from './sign-up-emails.js';

export const NOT_PENDING = 'The user you are trying to approve is not pending approval';

export async function approveUser(deps: Deps, user: UserRow): Promise<void> {
  const now = deps.clock.now();
  await inTransaction(deps.db, async (trx) => {
    // Conditional on the state, so an approval racing a rejection (or another approval) does one thing.
    const changed = await trx.updateTable('users').set({ state: 'active', updated_at: now }).where('id', '=', user.id).where('state', '=', 'blocked_pending_approval').executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) throw new ConflictError(NOT_PENDING);
    const token = randomBytes(20).toString('hex');
    const unconfirmed = await trx
      .updateTable('emails')
      .set({ confirmation_digest: sha256Hex(token), confirmation_sent_at: now, updated_at: now })
      .where('user_id', '=', user.id)
      .where('email_lower', '=', user.email_lower)
      .where('confirmed_at', 'is', null)
      .executeTakeFirst();
    const messages: AccountMessage[] = [{
      to: user.email, userId: Number(user.id), kind: 'signup_approved', subject: 'Welcome to Kiln!',
      paragraphs: [`Hi ${user.name}! Your account has been approved by an administrator.`, { text: 'Sign in', link: `${deps.config.baseUrl}/users/sign_in` }],
    }];
    if (Number(unconfirmed.numUpdatedRows) > 0) messages.push(confirmationMessage(deps, user.email, Number(user.id), token));
    await queueAccountMail(deps, trx, messages);
  });
  deps.pokeWorker();
}
