// GET /user/activities: users seen on or after a day, the least recently seen first.
import type { Deps } from '../platform/deps.js';

export function userActivitiesQuery(deps: Deps, from: string) {
  return deps.db.selectFrom('users').select(['id', 'username', 'last_activity_on']).where('last_activity_on', '>=', from).orderBy('last_activity_on', 'asc').orderBy('id', 'asc');
}
