// The dashboard: the landing page with the signed-in user's projects (GitLab's Dashboard › Projects),
// and "your work": the issues and merge requests assigned to them, opened by them, or to review.
import type { Feature } from '../platform/feature.js';
import { homeRoutes } from './home.js';
import { yourWorkRoutes } from './your-work.js';

export const dashboardFeature: Feature = {
  name: 'dashboard',
  routes(app, deps) {
    homeRoutes(app, deps);
    yourWorkRoutes(app, deps);
  },
};
