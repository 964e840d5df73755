// The alert ingestion URLs (gitlab-oauth-alerts.md §14.1), outside `/-/` and outside /api/v4, under
// the project's full path. The Prometheus URL is registered before the legacy one because a lazy
// path would otherwise swallow its `prometheus/` segment.
//
// They are bare routes (platform/http/namespaced-routes.ts): served from node:http before Fastify,
// because a grouped alert costs only tens of microseconds end to end and the endpoint's target is
// Alertmanager's own rate (docs/performance.md).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { namespacedRoute } from '../platform/http/namespaced-routes.js';
import { bareJsonRoute } from '../platform/http/bare-http.js';
import { receiveAlert, type Endpoint } from './receive-alert.js';

export const NOTIFY_PATTERNS = {
  integration: /^(?<path>.+?)\/alerts\/notify\/(?<name>[^/]+)\/(?<identifier>[A-Za-z0-9]+)(?:\.json)?$/,
  prometheus: /^(?<path>.+?)\/prometheus\/alerts\/notify(?:\.json)?$/,
  legacy: /^(?<path>.+?)\/alerts\/notify(?:\.json)?$/,
};

// Larger than the endpoint's own 1 MiB limit, so that it answers its own 400 for 1–10 MiB (§15.2).
const BODY_LIMIT = 10 * 1024 * 1024;

export function notifyRoutes(app: FastifyInstance, deps: Deps): void {
  const route = (name: string, pattern: RegExp, endpointOf: (groups: Record<string, string>) => Endpoint) =>
    namespacedRoute(app, {
      method: 'POST',
      pattern,
      bare: bareJsonRoute(deps, {
        name,
        bodyLimit: BODY_LIMIT,
        handle: ({ raw, body, groups }) =>
          receiveAlert(deps, {
            fullPath: groups.path,
            endpoint: endpointOf(groups),
            authorization: raw.headers.authorization,
            rawBody: body.text,
            body: body.json,
            invalidJson: body.invalidJson,
          }),
      }),
    });
  route('/:full_path/alerts/notify/:name/:endpoint_identifier', NOTIFY_PATTERNS.integration, (groups) => ({ identifier: groups.identifier }));
  route('/:full_path/prometheus/alerts/notify', NOTIFY_PATTERNS.prometheus, () => ({ legacy: 'prometheus' }));
  route('/:full_path/alerts/notify', NOTIFY_PATTERNS.legacy, () => ({ legacy: 'http' }));
}
