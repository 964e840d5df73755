// The environment pages under a project's path.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { namespacedPage } from '../../platform/web/page-route.js';
import { ENVIRONMENTS_PATTERN, renderEnvironments } from './list-page.js';
import { ENVIRONMENT_PATTERN, handleEnvironmentPost, renderEnvironment } from './show-page.js';

export function environmentPages(app: FastifyInstance, deps: Deps): void {
  const read = { project: 'read_environment' } as const;
  namespacedPage(app, deps, { method: 'GET', pattern: ENVIRONMENTS_PATTERN, ability: read, auth: 'optional', handler: async (context) => renderEnvironments(context, await context.project()) });
  namespacedPage(app, deps, { method: 'GET', pattern: ENVIRONMENT_PATTERN, ability: read, auth: 'optional', handler: async (context) => renderEnvironment(context, await context.project()) });
  // Stopping asks stop_environment, deleting destroy_environment on the stopped environment: the handler decides.
  namespacedPage(app, deps, { method: 'POST', pattern: ENVIRONMENT_PATTERN, ability: read, handler: async (context) => handleEnvironmentPost(context, await context.project()) });
}
