// Alert management: integrations, the ingestion endpoint, grouping and resolution, incidents, pages.
import type { Feature } from '../platform/feature.js';
import { alertRoutes } from './routes.js';
import { incidentJobs } from './incident-jobs.js';
import { notifyRoutes } from './notify-routes.js';
import { alertPages } from './pages.js';

export const alertsFeature: Feature = {
  name: 'alerts',
  routes(app, deps) {
    alertRoutes(app, deps);
    notifyRoutes(app, deps);
    alertPages(app, deps);
  },
  jobs: incidentJobs,
};
