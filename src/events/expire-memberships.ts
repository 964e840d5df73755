// Memberships past their expiry date are removed by a daily job, and each removed project membership
// records an `expired` event ("removed due to membership expiration from", GitLab's REST API documentation).
// A membership expires at the end of its `expires_at` day (accounts/access.ts `today`).
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { today } from '../accounts/api.js';
import { recordEvent } from '../platform/events/record-event.js';

export const EXPIRE_MEMBERSHIPS_JOB = 'members:expire';
const BATCH = 200;

export async function expireMemberships(deps: Deps): Promise<number> {
  const day = today(deps.clock.now());
  let total = 0;
  for (;;) {
    const candidates = await deps.db
      .selectFrom('members')
      .select(['id'])
      .where('expires_at', 'is not', null)
      .where('expires_at', '<', day)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const { id } of candidates) {
      await inTransaction(deps.db, async (trx) => {
        // Conditional delete: when two nodes race, only the one that removes the row records the event.
        const removed = await trx.deleteFrom('members').where('id', '=', id).where('expires_at', '<', day).returningAll().executeTakeFirst();
        if (removed?.source_type === 'Project') {
          await recordEvent(trx, deps.clock, { projectId: Number(removed.source_id), authorId: Number(removed.user_id), action: 'expired' });
        }
        if (removed) total += 1;
      });
    }
    if (candidates.length < BATCH) return total;
  }
}
