// Error tracking settings: a project's link to an external error tracker (API URL, sealed token),
// read and toggled over the API and configured by maintainers on a settings page or by PUT.
import type { Feature } from '../platform/feature.js';
import { errorTrackingRoutes } from './routes.js';
import { errorTrackingPages } from './pages.js';

export const errorTrackingFeature: Feature = {
  name: 'error-tracking',
  routes(app, deps) {
    errorTrackingRoutes(app, deps);
    errorTrackingPages(app, deps);
  },
};
