// The alert ingestion URLs (gitlab-oauth-alerts.md §14.1), outside `/-/` and outside /api/v4, under
// the project's full path. The Prometheus URL is registered before the legacy one because a lazy
// path would otherwise swallow its `prometheus/` segment.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { namespacedRoute } from '../platform/http/namespaced-routes.js';
import { receiveAlert, type Endpoint } from './receive-alert.js';

export const NOTIFY_PATTERNS = {
  integration: /^(?<path>.+?)\/alerts\/notify\/(?<name>[^/]+)\/(?<identifier>[A-Za-z0-9]+)(?:\.json)?$/,
  prometheus: /^(?<path>.+?)\/prometheus\/alerts\/notify(?:\.json)?$/,
  legacy: /^(?<path>.+?)\/alerts\/notify(?:\.json)?$/,
};

export function notifyRoutes(app: FastifyInstance, deps: Deps): void {
  const handle = (endpointOf: (groups: Record<string, string>) => Endpoint) => async (request: FastifyRequest, reply: FastifyReply, groups: Record<string, string>) => {
    const result = await receiveAlert(deps, {
      fullPath: groups.path,
      endpoint: endpointOf(groups),
      authorization: request.headers.authorization,
      rawBody: request.rawBody,
      body: request.body,
    });
    return reply.code(result.status).type('application/json').send(result.body);
  };
  namespacedRoute(app, { method: 'POST', pattern: NOTIFY_PATTERNS.integration, handler: handle((groups) => ({ identifier: groups.identifier })) });
  namespacedRoute(app, { method: 'POST', pattern: NOTIFY_PATTERNS.prometheus, handler: handle(() => ({ legacy: 'prometheus' })) });
  namespacedRoute(app, { method: 'POST', pattern: NOTIFY_PATTERNS.legacy, handler: handle(() => ({ legacy: 'http' })) });
}
