// Templates (issue 38): the license templates of the SPDX License List.
import type { Feature } from '../platform/feature.js';
import { templateRoutes } from './routes.js';

export const templatesFeature: Feature = {
  name: 'templates',
  routes(app, deps) {
    templateRoutes(app, deps);
  },
};
