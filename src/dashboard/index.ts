// The dashboard: the landing page with the signed-in user's projects (GitLab's Dashboard › Projects).
import type { Feature } from '../platform/feature.js';
import { homeRoutes } from './home.js';

export const dashboardFeature: Feature = {
  name: 'dashboard',
  routes: homeRoutes,
};
