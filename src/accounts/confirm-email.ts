// Following an address's confirmation link: the token (kept only as a digest) confirms it once.
// GitLab's confirmation tokens of secondary addresses do not expire by default.
import type { Deps } from '../platform/deps.js';
import { sha256Hex } from '../platform/crypto.js';

/**
 * The confirmed address, or null when the token is unknown or already used. `primaryWithinMs`: only
 * a user's primary address, whose link was sent that recently (a sign-up's, confirm-sign-up.ts).
 */
export async function confirmEmail(deps: Deps, token: string, options: { primaryWithinMs?: number } = {}): Promise<string | null> {
  if (!/^[0-9a-f]{40}$/.test(token)) return null;
  const now = deps.clock.now();
  let update = deps.db
    .updateTable('emails')
    .set({ confirmed_at: now, confirmation_digest: null, updated_at: now })
    .where('confirmation_digest', '=', sha256Hex(token))
    .where('confirmed_at', 'is', null);
  if (options.primaryWithinMs !== undefined) {
    update = update
      .where('confirmation_sent_at', '>', now - options.primaryWithinMs)
      .where(({ exists, selectFrom }) => exists(selectFrom('users').select('users.id').whereRef('users.id', '=', 'emails.user_id').whereRef('users.email_lower', '=', 'emails.email_lower')));
  }
  const row = await update.returning('email').executeTakeFirst();
  return row?.email ?? null;
}
