// The alert ingestion URLs (GitLab's alert management documentation), outside `/-/` and outside /api/v4, under
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
import { PAYLOAD_TOO_LARGE, receiveAlert } from './receive-alert.js';
import type { Endpoint } from './alert-request.js';
import { MAX_PAYLOAD_BYTES } from './payload/limits.js';

export const NOTIFY_PATTERNS = {
  integration: /^(?<path>.+?)\/alerts\/notify\/(?<name>[^/]+)\/(?<identifier>[A-Za-z0-9]+)(?:\.json)?$/,
  prometheus: /^(?<path>.+?)\/prometheus\/alerts\/notify(?:\.json)?$/,
  legacy: /^(?<path>.+?)\/alerts\/notify(?:\.json)?$/,
};

export function notifyRoutes(app: FastifyInstance, deps: Deps): void {
  const route = (name: string, pattern: RegExp, endpointOf: (groups: Record<string, string>) => Endpoint) =>
    namespacedRoute(app, {
      method: 'POST',
      pattern,
      // The integration's key decides, not a user (receive-alert.ts checks it).
      ability: { credential: 'integration_key' },
      bare: bareJsonRoute(deps, {
        name,
        // A body over the endpoint's 1 MiB is refused unread with its own 400 (§15.2), and the JSON is
        // parsed only after the project and the key passed (receive-alert.ts).
        bodyLimit: MAX_PAYLOAD_BYTES,
        tooLarge: PAYLOAD_TOO_LARGE,
        handle: ({ raw, body, groups }) =>
          receiveAlert(deps, {
            fullPath: groups.path,
            endpoint: endpointOf(groups),
            authorization: raw.headers.authorization,
            rawBody: body.text,
            body: undefined,
            invalidJson: false,
          }),
      }),
    });
  route('/:full_path/alerts/notify/:name/:endpoint_identifier', NOTIFY_PATTERNS.integration, (groups) => ({ identifier: groups.identifier }));
  route('/:full_path/prometheus/alerts/notify', NOTIFY_PATTERNS.prometheus, () => ({ legacy: 'prometheus' }));
  route('/:full_path/alerts/notify', NOTIFY_PATTERNS.legacy, () => ({ legacy: 'http' }));
}
