// Project and group milestones: their API, and (through api.ts) the milestone issues carry. Their
// pages are the issues feature's (src/issues/pages/milestones), since they list issues.
import type { Feature } from '../platform/feature.js';
import { milestonesRoutes } from './routes.js';

export const milestonesFeature: Feature = {
  name: 'milestones',
  routes(app, deps) {
    milestonesRoutes(app, deps);
  },
};
