// The daily e-mails about users' SSH keys (GitLab's SshKeys::ExpiringSoonNotificationWorker and
// ExpiredNotificationWorker): a week before a key expires, and once it has expired, each sent once per
// key. The mark and the message commit together, so a repeated run (at-least-once jobs) sends nothing twice.
import type { Deps } from '../platform/deps.js';
import { DAY_MS } from '../platform/clock.js';
import { inTransaction } from '../platform/db/database.js';
import { queueKeyEmail, type KeyNotice } from './key-emails.js';

export const JOB_NOTIFY_KEY_EXPIRY = 'keys.notify-expiry';
const SOON_MS = 7 * DAY_MS;
/** Keys handled per run and notice: a backlog is worked off over the following days. */
const BATCH = 500;

async function notify(deps: Deps, notice: KeyNotice): Promise<number> {
  const now = deps.clock.now();
  const column = notice === 'expired' ? 'expiry_notified_at' : 'before_expiry_notified_at';
  let query = deps.db
    .selectFrom('keys')
    .innerJoin('users', 'users.id', 'keys.user_id')
    .selectAll('keys')
    .select(['users.name as owner_name', 'users.email as owner_email'])
    .where('keys.type', '=', 'Key')
    .where('users.state', '=', 'active')
    .where(`keys.${column}`, 'is', null);
  query = notice === 'expired'
    ? query.where('keys.expires_at', '<=', now)
    : query.where('keys.expires_at', '>', now).where('keys.expires_at', '<=', now + SOON_MS);
  const rows = await query.orderBy('keys.expires_at').limit(BATCH).execute();
  for (const { owner_name: name, owner_email: email, ...key } of rows) {
    await inTransaction(deps.db, async (trx) => {
      const marked = await trx.updateTable('keys').set({ [column]: now }).where('id', '=', key.id).where(column, 'is', null).executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 1) await queueKeyEmail(deps, trx, notice, { id: Number(key.user_id), name, email }, key);
    });
  }
  return rows.length;
}

export async function notifyKeyExpiry(deps: Deps): Promise<{ expiringSoon: number; expired: number }> {
  return { expiringSoon: await notify(deps, 'expiring_soon'), expired: await notify(deps, 'expired') };
}
