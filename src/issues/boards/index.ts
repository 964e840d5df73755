// Issue boards (issue 36): GitLab's boards API for projects and groups, and the project board page.
import type { Feature } from '../../platform/feature.js';
import { boardsRoutes } from './routes.js';
import { boardPages } from './pages/index.js';

export const boardsFeature: Feature = {
  name: 'boards',
  routes(app, deps) {
    boardsRoutes(app, deps);
    boardPages(app, deps);
  },
};
