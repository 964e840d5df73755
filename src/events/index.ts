// Activity events: listing, retention, and the membership expiry that records `expired` events.
// Recording is platform/events/record-event.ts: every feature records events.
import type { Feature } from '../platform/feature.js';
import { eventsRoutes } from './routes.js';
import { activityPages } from './pages/activity-pages.js';
import { daily, scheduleOnce } from '../platform/jobs/daily.js';
import { PRUNE_EVENTS_JOB, pruneEvents } from './prune-events.js';
import { forgetEventCounts } from './count-cache.js';
import { EXPIRE_MEMBERSHIPS_JOB, expireMemberships } from './expire-memberships.js';

export const eventsFeature: Feature = {
  name: 'events',
  routes(app, deps) {
    eventsRoutes(app, deps);
    activityPages(app, deps);
  },
  jobs: {
    [PRUNE_EVENTS_JOB]: daily(PRUNE_EVENTS_JOB, async (deps) => {
      if ((await pruneEvents(deps)) > 0) forgetEventCounts(deps);
    }),
    [EXPIRE_MEMBERSHIPS_JOB]: daily(EXPIRE_MEMBERSHIPS_JOB, async (deps) => {
      await expireMemberships(deps);
    }),
  },
  async onStart(deps) {
    for (const kind of [PRUNE_EVENTS_JOB, EXPIRE_MEMBERSHIPS_JOB]) {
      await scheduleOnce(deps, kind, deps.clock.now(), { orRunning: true });
    }
  },
};
