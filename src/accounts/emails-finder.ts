// A user's addresses (GET /user/emails, /users/:id/emails), the primary one among them, and which of
// them are confirmed (what notification_email may be).
import type { Deps } from '../platform/deps.js';

export function userEmailsQuery(deps: Deps, userId: number) {
  return deps.db.selectFrom('emails').selectAll().where('user_id', '=', userId).orderBy('id', 'asc');
}

/** The user's confirmed addresses: the primary one always counts (it is confirmed at sign-up). */
export async function confirmedEmailsOf(deps: Deps, userId: number): Promise<string[]> {
  const user = await deps.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  const rows = await deps.db.selectFrom('emails').select('email').where('user_id', '=', userId).where('confirmed_at', 'is not', null).execute();
  return [...new Set([...(user ? [user.email] : []), ...rows.map((row) => row.email)])];
}
