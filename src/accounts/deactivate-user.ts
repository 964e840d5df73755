// POST /users/:id/deactivate (GitLab's Users::DeactivateService): only a user without activity in the
// last 90 days (GitLab's default deactivate_dormant_users_period) may be deactivated; blocked and
// internal users never. The service's refusals are sent as they are (no "403 Forbidden - " prefix). A deactivated user signs in again on the web to be reactivated.
import type { Deps } from '../platform/deps.js';
import { ApiError } from '../platform/http/api-error.js';
import { DAY_MS } from '../platform/clock.js';
import type { UserRow } from './lookup.js';

export const DORMANT_DAYS = 90;

/** true when deactivated now; null when the user already was (GitLab answers 201 with an empty body). */
export async function deactivateUser(deps: Deps, user: UserRow): Promise<true | null> {
  if (user.state === 'deactivated') return null;
  if (user.state === 'blocked' || user.state === 'banned') throw new ApiError(403, { message: 'Error occurred. A blocked user cannot be deactivated' });
  if (user.user_type !== 'human') throw new ApiError(403, { message: 'Internal users cannot be deactivated' });
  const threshold = new Date(deps.clock.now() - DORMANT_DAYS * DAY_MS).toISOString().slice(0, 10);
  if (user.last_activity_on !== null && user.last_activity_on > threshold) {
    throw new ApiError(403, { message: `The user you are trying to deactivate has been active in the past ${DORMANT_DAYS} days and cannot be deactivated` });
  }
  await deps.db.updateTable('users').set({ state: 'deactivated', updated_at: deps.clock.now() }).where('id', '=', user.id).where('state', '=', 'active').execute();
  return true;
}
