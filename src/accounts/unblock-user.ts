// POST /users/:id/unblock (GitLab's API and Users::UnblockService): a blocked user becomes active; a
// deactivated one must be activated instead; an active one stays (false, as GitLab's state machine answers).
import type { Deps } from '../platform/deps.js';
import { ForbiddenError } from '../platform/errors.js';
import type { UserRow } from './lookup.js';

export async function unblockUser(deps: Deps, user: UserRow): Promise<boolean> {
  if (user.state === 'deactivated') throw new ForbiddenError('Deactivated users cannot be unblocked by the API');
  const result = await deps.db
    .updateTable('users')
    .set({ state: 'active', updated_at: deps.clock.now() })
    .where('id', '=', user.id)
    .where('state', '=', 'blocked')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
