// Project and group badges (issue 38): the badges API, the Settings › Badges pages; the project page
// shows them (api.ts).
import type { Feature } from '../platform/feature.js';
import { badgeRoutes } from './routes.js';
import { badgePages } from './pages.js';

export const badgesFeature: Feature = {
  name: 'badges',
  routes(app, deps) {
    badgeRoutes(app, deps);
    badgePages(app, deps);
  },
};
