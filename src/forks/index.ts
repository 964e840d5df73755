// Forks (issue 34): a project copied into another namespace that shares the upstream's git objects
// (hard links), sits in the upstream's fork network and can open merge requests into it.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { Feature } from '../platform/feature.js';
import { forkRoutes } from './routes.js';

export const forksFeature: Feature = {
  name: 'forks',
  routes(app: FastifyInstance, deps: Deps) {
    forkRoutes(app, deps);
  },
};
