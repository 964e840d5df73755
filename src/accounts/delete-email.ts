// DELETE /user/emails/:email_id and /users/:id/emails/:email_id (GitLab's Emails::DestroyService): the
// primary address stays; a public or notification address that was this one is cleared (the
// notification address falls back to the primary), as GitLab's update_secondary_emails! does.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { BadRequestError, NotFoundError } from '../platform/errors.js';
import type { UserRow } from './lookup.js';

export async function deleteEmail(deps: Deps, user: UserRow, emailId: number): Promise<void> {
  const email = await deps.db.selectFrom('emails').selectAll().where('user_id', '=', user.id).where('id', '=', emailId).executeTakeFirst();
  if (!email) throw new NotFoundError('Email');
  if (email.email_lower === user.email_lower) throw new BadRequestError('Cannot delete primary email');
  await inTransaction(deps.db, async (trx) => {
    await trx.deleteFrom('emails').where('id', '=', email.id).execute();
    await trx.updateTable('users').set({ public_email: '' }).where('id', '=', user.id).where('public_email', '=', email.email).execute();
    await trx
      .updateTable('notification_settings')
      .set({ notification_email: null })
      .where('user_id', '=', user.id)
      .where('notification_email', '=', email.email)
      .execute();
  });
}
