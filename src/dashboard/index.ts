// The dashboard: the landing page with the signed-in user's projects (GitLab's Dashboard › Projects),
// "your work" (the issues and merge requests assigned to them, opened by them, or to review), and
// their groups and the milestones of their projects and groups.
import type { Feature } from '../platform/feature.js';
import { homeRoutes } from './home.js';
import { yourWorkRoutes } from './your-work.js';
import { groupsPageRoutes } from './groups-page.js';
import { milestonesPageRoutes } from './milestones-page.js';

export const dashboardFeature: Feature = {
  name: 'dashboard',
  routes(app, deps) {
    homeRoutes(app, deps);
    yourWorkRoutes(app, deps);
    groupsPageRoutes(app, deps);
    milestonesPageRoutes(app, deps);
  },
};
