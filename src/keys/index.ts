// SSH keys of users and deploy keys (issue 37): the API, the profile page, and the e-mail about keys.
import type { Feature } from '../platform/feature.js';
import { keysRoutes } from './routes.js';

export const keysFeature: Feature = {
  name: 'keys',
  routes(app, deps) {
    keysRoutes(app, deps);
  },
};
