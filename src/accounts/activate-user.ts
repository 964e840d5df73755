// POST /users/:id/activate (GitLab's API): a deactivated user becomes active again; a blocked one must
// be unblocked first; an active one stays (false, as GitLab's state machine answers).
import type { Deps } from '../platform/deps.js';
import { ForbiddenError } from '../platform/errors.js';
import type { UserRow } from './lookup.js';

export async function activateUser(deps: Deps, user: UserRow): Promise<boolean> {
  if (user.state === 'blocked' || user.state === 'banned') throw new ForbiddenError('A blocked user must be unblocked to be activated');
  const result = await deps.db
    .updateTable('users')
    .set({ state: 'active', updated_at: deps.clock.now() })
    .where('id', '=', user.id)
    .where('state', '=', 'deactivated')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
