// The alert endpoint's ordered checks (gitlab-oauth-alerts.md §15.1, DECISIONS.md): size and depth →
// 400; no active integration → 403; wrong key → 401 (constant time); a body that is not a JSON
// object → 400; then one transaction, and 200 with the touched alerts only after it committed.
// No session, no CSRF: the integration's own key is the only credential (specification,
// Authentication 5). Rate limiting stays off, as GitLab's inbound alert limit is by default (§5.1).
import type { Deps } from '../platform/deps.js';
import { safeEqual } from '../platform/crypto.js';
import { BadRequestError } from '../platform/errors.js';
import { findActiveIntegration } from './finder.js';
import { payloadTooLarge } from './payload/limits.js';
import { processAlertPayload, type ProcessedAlert } from './process-alert-payload.js';

export type Endpoint = { identifier: string } | { legacy: 'http' | 'prometheus' };

export interface AlertRequest {
  fullPath: string;
  endpoint: Endpoint;
  authorization: string | undefined;
  /** The body as received, when it was JSON (the parser keeps it). */
  rawBody: string | undefined;
  /** The parsed body; undefined when the body was not JSON. */
  body: unknown;
  /** Set by the body parser when a JSON content type carried text that does not parse. */
  invalidJson?: boolean;
}

export type AlertResponse = { status: 200; body: ProcessedAlert[] } | { status: 400 | 401 | 403 | 404; body: { message: string } };

/** `Authorization: Bearer <key>` (any case) or Basic with the key as password (§15). */
export function keyFromAuthorization(header: string | undefined): string | null {
  if (!header) return null;
  const bearer = /^bearer\s+(.+)$/i.exec(header.trim());
  if (bearer) return bearer[1].trim();
  const basic = /^basic\s+(.+)$/i.exec(header.trim());
  if (!basic) return null;
  const decoded = Buffer.from(basic[1].trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? null : decoded.slice(colon + 1);
}

export async function receiveAlert(deps: Deps, request: AlertRequest): Promise<AlertResponse> {
  if (payloadTooLarge(request.rawBody, request.body)) return { status: 400, body: { message: '400 Bad request - The payload is too big (over 1 MiB or nested deeper than 100 levels)' } };
  const project = await deps.db.selectFrom('projects').select(['id', 'full_path']).where('full_path_lower', '=', request.fullPath.toLowerCase()).executeTakeFirst();
  if (!project) return { status: 404, body: { message: '404 Project Not Found' } };
  const integration = await findActiveIntegration(deps.db, Number(project.id), request.endpoint);
  if (!integration) return { status: 403, body: { message: '403 Forbidden' } };
  const key = keyFromAuthorization(request.authorization);
  if (key === null || !safeEqual(key, deps.box.open(integration.token_sealed))) {
    deps.metrics.alertsIngested.inc({ outcome: 'unauthorized' });
    return { status: 401, body: { message: '401 Unauthorized' } };
  }
  const body = request.body;
  if (request.invalidJson || body === null || typeof body !== 'object' || Array.isArray(body)) {
    deps.metrics.alertsIngested.inc({ outcome: 'invalid' });
    return { status: 400, body: { message: '400 Bad request - The alert payload must be a JSON object' } };
  }
  try {
    return { status: 200, body: await processAlertPayload(deps, integration, body as Record<string, unknown>) };
  } catch (error) {
    if (error instanceof BadRequestError) return { status: 400, body: { message: `400 Bad request - ${error.reason}` } };
    throw error;
  }
}
