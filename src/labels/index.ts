// Project and group labels: their API, and (through api.ts) the labels issues carry.
import type { Feature } from '../platform/feature.js';
import { projectLabelsRoutes } from './routes.js';
import { groupLabelsRoutes } from './group-routes.js';
import { labelSubscriptionRoutes } from './subscription-routes.js';

export const labelsFeature: Feature = {
  name: 'labels',
  routes(app, deps) {
    projectLabelsRoutes(app, deps);
    groupLabelsRoutes(app, deps);
    labelSubscriptionRoutes(app, deps);
  },
};
// Issue 36: the label pages, a feature of their own registered with the other pages (features.ts).
export { labelPagesFeature } from './pages/index.js';
