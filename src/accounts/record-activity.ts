// GitLab's Users::ActivityService: the day a user was last seen (signing in, using a token), written
// at most once a day so that reads stay reads. GET /user/activities lists it; deactivation asks it.
import type { Deps } from '../platform/deps.js';
import { today } from './access.js';

export async function recordActivity(deps: Deps, userId: number, nowMs: number): Promise<void> {
  const day = today(nowMs);
  await deps.db
    .updateTable('users')
    .set({ last_activity_on: day })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('last_activity_on', 'is', null), eb('last_activity_on', '<', day)]))
    .execute();
}

/** For a caller whose user row is at hand (token look-ups): writes only on their first request of the day. */
export async function noteActivity(deps: Deps, user: { id: number; last_activity_on: string | null }, nowMs: number): Promise<void> {
  if (user.last_activity_on !== today(nowMs)) await recordActivity(deps, Number(user.id), nowMs);
}
