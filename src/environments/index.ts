// Environments and deployments: the environments API of the specification and the deployments that
// give an environment its `last_deployment`.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { Feature } from '../platform/feature.js';
import { environmentsRoutes } from './routes.js';
import { deploymentsRoutes } from './deployments-routes.js';
import { environmentPages } from './pages/index.js';

export const environmentsFeature: Feature = {
  name: 'environments',
  routes(app: FastifyInstance, deps: Deps) {
    environmentsRoutes(app, deps);
    deploymentsRoutes(app, deps);
    environmentPages(app, deps);
  },
};
