// The alert endpoint's ordered checks (gitlab-oauth-alerts.md §15.1, DECISIONS.md): size and depth →
// 400; no active integration → 403; wrong key → 401 (constant time); a body that is not a JSON
// object → 400 (a generic payload on the Prometheus integration → 422); then one transaction, and 200 with the touched alerts only after it committed.
// No session, no CSRF: the integration's own key is the only credential (specification,
// Authentication 5). Rate limiting stays off, as GitLab's inbound alert limit is by default (§5.1).
import type { Deps } from '../platform/deps.js';
import { safeEqual } from '../platform/crypto.js';
import { BadRequestError } from '../platform/errors.js';
import { findActiveIntegration } from './finder.js';
import { payloadTooLarge } from './payload/limits.js';
import { isAlertmanagerWebhook } from './payload/prometheus.js';
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

export type AlertResponse = { status: 200; body: ProcessedAlert[] } | { status: 400 | 401 | 403 | 404 | 422; body: { message: string } };

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

/** Integration keys opened once per sealed value: a reset key is a new sealed value (hot path). */
const openedKeys = new Map<string, string>();
function openKey(deps: Deps, sealed: string): string {
  let key = openedKeys.get(sealed);
  if (key === undefined) {
    key = deps.box.open(sealed);
    if (openedKeys.size >= 1000) openedKeys.clear();
    openedKeys.set(sealed, key);
  }
  return key;
}

export async function receiveAlert(deps: Deps, request: AlertRequest): Promise<AlertResponse> {
  if (payloadTooLarge(request.rawBody, request.body)) return { status: 400, body: { message: '400 Bad request - The payload is too big (over 1 MiB or nested deeper than 100 levels)' } };
  // One query finds the project, its active integration and its incident settings; the failure
  // cases ask again only to tell "no project" (404) from "no active integration" (403).
  const found = await findActiveIntegration(deps, request.fullPath, request.endpoint);
  if (!found) {
    const project = await deps.db.selectFrom('projects').select('id').where('full_path_lower', '=', request.fullPath.toLowerCase()).executeTakeFirst();
    return project ? { status: 403, body: { message: '403 Forbidden' } } : { status: 404, body: { message: '404 Project Not Found' } };
  }
  const { integration, settings } = found;
  const key = keyFromAuthorization(request.authorization);
  if (key === null || !safeEqual(key, openKey(deps, integration.token_sealed))) {
    deps.metrics.alertsIngested.inc({ outcome: 'unauthorized' });
    return { status: 401, body: { message: '401 Unauthorized' } };
  }
  const body = request.body;
  if (request.invalidJson || body === null || typeof body !== 'object' || Array.isArray(body)) {
    deps.metrics.alertsIngested.inc({ outcome: 'invalid' });
    return { status: 400, body: { message: '400 Bad request - The alert payload must be a JSON object' } };
  }
  // The Prometheus integration takes Alertmanager webhooks only (GitLab's 422 on that route, §18).
  if (integration.type_identifier === 'prometheus' && !isAlertmanagerWebhook(body)) {
    deps.metrics.alertsIngested.inc({ outcome: 'invalid' });
    return { status: 422, body: { message: '422 Unprocessable Entity - The Prometheus integration accepts Alertmanager webhook payloads (version "4") only' } };
  }
  try {
    return { status: 200, body: await processAlertPayload(deps, integration, body as Record<string, unknown>, settings) };
  } catch (error) {
    if (error instanceof BadRequestError) return { status: 400, body: { message: `400 Bad request - ${error.reason}` } };
    throw error;
  }
}
