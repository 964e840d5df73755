// The web shell: sign-in, sessions, the landing page and the stylesheet. Feature pages live in their feature.
import type { Feature } from '../platform/feature.js';
import { signInRoutes } from './sign-in.js';
import { homeRoutes } from './home.js';

export const webFeature: Feature = {
  name: 'web',
  routes(app, deps) {
    signInRoutes(app, deps);
    homeRoutes(app, deps);
  },
};
