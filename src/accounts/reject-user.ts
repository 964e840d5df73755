// POST /users/:id/reject and the admin area's Reject (GitLab's Users::RejectService): a sign-up
// awaiting approval is told by e-mail and deleted with everything it made (a hard delete, by the
// user deletion job); the account is blocked at once in the same transaction.
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { inTransaction } from '../platform/db/database.js';
import { enqueue } from '../platform/jobs/queue.js';
import { ConflictError } from '../platform/errors.js';
import type { UserRow } from './lookup.js';
import { DESTROY_USER_JOB } from './schedule-user-deletion.js';
import { queueAccountMail } from './sign-up-emails.js';

export async function rejectUser(deps: Deps, actor: Principal, user: UserRow): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const changed = await trx.updateTable('users').set({ state: 'blocked', updated_at: deps.clock.now() }).where('id', '=', user.id).where('state', '=', 'blocked_pending_approval').executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) throw new ConflictError('User does not have a pending request');
    await enqueue(trx, deps.clock, DESTROY_USER_JOB, { userId: Number(user.id), deletedById: actor.user.id, hardDelete: true });
    await queueAccountMail(deps, trx, [{
      to: user.email, userId: null, kind: 'signup_rejected', subject: 'Kiln account request rejected',
      paragraphs: [`Hi ${user.name}, your request to join this Kiln instance has been rejected by an administrator.`],
    }]);
  });
  deps.pokeWorker();
}
