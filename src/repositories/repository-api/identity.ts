// Who a write is recorded as: the signed-in user's name and e-mail (GitLab's Gitlab::Git::User).
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import { cleanIdentity, type Identity } from './commit-writer.js';

export async function userIdentity(deps: Deps, user: AuthUser): Promise<Identity> {
  const row = await deps.db.selectFrom('users').select(['name', 'email']).where('id', '=', user.id).executeTakeFirst();
  return cleanIdentity({ name: row?.name ?? user.name, email: row?.email ?? '' });
}

/** The author a client names, each field falling back to the user's own (Files::BaseService). */
export function authorOf(user: Identity, given: { name?: string; email?: string }): Identity {
  const chosen = cleanIdentity({ name: given.name ?? '', email: given.email ?? '' });
  return { name: chosen.name || user.name, email: chosen.email || user.email };
}
