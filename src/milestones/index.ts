// Project and group milestones: their API and pages, and (through api.ts) the milestone issues carry.
import type { Feature } from '../platform/feature.js';
import { milestonesRoutes } from './routes.js';
import { milestonePages } from './pages/index.js';

export const milestonesFeature: Feature = {
  name: 'milestones',
  routes(app, deps) {
    milestonesRoutes(app, deps);
    milestonePages(app, deps);
  },
};
