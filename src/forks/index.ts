// Forks (issue 34): a project copied into another namespace that shares the upstream's git objects
// (hard links), sits in the upstream's fork network and can open merge requests into it.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { Feature } from '../platform/feature.js';
import { forkRoutes } from './routes.js';
import { namespacedPage } from '../platform/web/page-route.js';
import { FORK_PATTERN, handleForkPage, renderForkPage } from './fork-page.js';

export const forksFeature: Feature = {
  name: 'forks',
  routes(app: FastifyInstance, deps: Deps) {
    forkRoutes(app, deps);
    // fork_project within forking_access_level is asked by the handlers (404 when refused, as the API).
    namespacedPage(app, deps, { method: 'GET', pattern: FORK_PATTERN, ability: { project: 'read_project' }, handler: async (context) => renderForkPage(context, await context.project()) });
    namespacedPage(app, deps, { method: 'POST', pattern: FORK_PATTERN, ability: { project: 'read_project' }, handler: async (context) => handleForkPage(context, await context.project()) });
  },
};
