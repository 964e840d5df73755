// Notification settings at global, group and project level.
import type { Feature } from '../platform/feature.js';
import { notificationsRoutes } from './routes.js';
import { notificationPages } from './pages.js';

export const notificationsFeature: Feature = {
  name: 'notifications',
  routes(app, deps) {
    notificationsRoutes(app, deps);
    notificationPages(app, deps);
  },
};
