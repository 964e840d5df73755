// Following an address's confirmation link: the token (kept only as a digest) confirms it once.
// GitLab's confirmation tokens of secondary addresses do not expire by default.
import type { Deps } from '../platform/deps.js';
import { sha256Hex } from '../platform/crypto.js';

/** The confirmed address, or null when the token is unknown or already used. */
export async function confirmEmail(deps: Deps, token: string): Promise<string | null> {
  if (!/^[0-9a-f]{40}$/.test(token)) return null;
  const now = deps.clock.now();
  const row = await deps.db
    .updateTable('emails')
    .set({ confirmed_at: now, confirmation_digest: null, updated_at: now })
    .where('confirmation_digest', '=', sha256Hex(token))
    .where('confirmed_at', 'is', null)
    .returning('email')
    .executeTakeFirst();
  return row?.email ?? null;
}
