// POST /users/:id/ban and /unban (GitLab's API and Users::BanService / UnbanService): an
// administrator bans an active user (state `banned`, refused everywhere as a blocked user) and unbans
// a banned one; any other state is 403 "You cannot ban blocked users." (the state named as GitLab does).
import type { Deps } from '../platform/deps.js';
import { ApiError } from '../platform/http/api-error.js';
import type { UserRow } from './lookup.js';
import type { Principal } from '../platform/auth/principal.js';
import { ForbiddenError } from '../platform/errors.js';

async function transition(deps: Deps, user: UserRow, action: 'ban' | 'unban'): Promise<true> {
  const [from, to] = action === 'ban' ? (['active', 'banned'] as const) : (['banned', 'active'] as const);
  const refused = () => new ApiError(403, { message: `You cannot ${action} ${user.state} users.` });
  if (user.state !== from) throw refused();
  const changed = await deps.db.updateTable('users').set({ state: to, updated_at: deps.clock.now() }).where('id', '=', user.id).where('state', '=', from).executeTakeFirst();
  // Another request changed the state first.
  if (Number(changed.numUpdatedRows) === 0) throw refused();
  return true;
}

/**
 * An administrator does not ban themself: as with a block (block-user.ts), the call would lock out the
 * only caller able to undo it (a Kiln guard; the message follows the block's).
 */
export function banUser(deps: Deps, actor: Principal, user: UserRow): Promise<true> {
  if (Number(user.id) === actor.user.id) throw new ForbiddenError('The API initiating user cannot be banned by the API');
  return transition(deps, user, 'ban');
}

export function unbanUser(deps: Deps, user: UserRow): Promise<true> {
  return transition(deps, user, 'unban');
}
