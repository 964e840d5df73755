// POST /users/:id/block (GitLab's API and Users::BlockService): an administrator blocks anyone but
// themself and internal users; a blocked user's tokens stop working at once.
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { ForbiddenError } from '../platform/errors.js';
import { ApiError } from '../platform/http/api-error.js';
import type { UserRow } from './lookup.js';

/** true when blocked now; null when the user already was (GitLab answers 201 with an empty body). */
export async function blockUser(deps: Deps, actor: Principal, user: UserRow): Promise<true | null> {
  if (Number(user.id) === actor.user.id) throw new ForbiddenError('The API initiating user cannot be blocked by the API');
  if (user.state === 'blocked') return null;
  if (user.user_type !== 'human') throw new ApiError(403, { message: 'An internal user cannot be blocked' });
  await deps.db.updateTable('users').set({ state: 'blocked', updated_at: deps.clock.now() }).where('id', '=', user.id).execute();
  return true;
}
