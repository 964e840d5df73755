// The alert endpoint's ordered checks (GitLab's alert management documentation, docs/decisions.md): size → 400; no
// active integration → 403; wrong key → 401 (constant time); then the JSON is parsed: nested deeper
// than 100 → 400, not a JSON object → 400 (a generic payload on the Prometheus integration → 422);
// then one transaction, and 200 with the touched alerts only after it committed. Parsing waits for
// the key because it is the one costly step a caller without the key could otherwise buy.
// No session, no CSRF: the integration's own key is the only credential (specification,
// Authentication 5). Rate limiting stays off, as GitLab's inbound alert limit is by default (§5.1).
import type { Deps } from '../platform/deps.js';
import { BoundedMap } from '../platform/bounded-map.js';
import { cacheSlot } from '../platform/instance-caches.js';
import { safeEqual } from '../platform/crypto.js';
import { BadRequestError } from '../platform/errors.js';
import { INVALID_JSON_MESSAGE, parseJsonBody } from '../platform/http/body-parsers.js';
import { findActiveIntegration } from './finder.js';
import { countKnownAlert, countRememberedEvent } from './ingestion-queries.js';
import { MAX_DEPTH, jsonDepth, payloadTooLarge } from './payload/limits.js';
import { isAlertmanagerWebhook } from './payload/prometheus.js';
import { firingFingerprint, parseAlertPayload, processAlertPayload } from './process-alert-payload.js';
import type { IntegrationRow } from './integration-row.js';
import type { AlertRequest, AlertResponse, Refusal } from './alert-request.js';
import { openAlertObserver, rememberIntegration, rememberOpenAlert, rememberedIntegration, type RememberedIntegration } from './remembered-integrations.js';

/** `Authorization: Bearer <key>` (any case) or Basic with the key as password (§15). */
export function keyFromAuthorization(header: string | undefined): string | null {
  if (!header) return null;
  // `Bearer <key>` with single spaces and nothing around it, as senders write it: what the patterns
  // below would find, without trimming or matching.
  if (header.startsWith('Bearer ') && header.length > 7 && !isSpace(header.charCodeAt(7)) && !isSpace(header.charCodeAt(header.length - 1))) return header.slice(7);
  const bearer = /^bearer\s+(.+)$/i.exec(header.trim());
  if (bearer) return bearer[1].trim();
  const basic = /^basic\s+(.+)$/i.exec(header.trim());
  if (!basic) return null;
  const decoded = Buffer.from(basic[1].trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? null : decoded.slice(colon + 1);
}

/** Whitespace as `trim` and `\s` see it in a header value (Latin-1). */
function isSpace(code: number): boolean {
  return code <= 32 || code === 0xa0;
}

/** Integration keys opened once per sealed value: a reset key is a new sealed value (hot path). */
const OPENED_KEYS = cacheSlot('alerts.opened-keys', () => new BoundedMap<string, string>(1000));
function openKey(deps: Deps, sealed: string): string {
  const openedKeys = deps.caches.of(OPENED_KEYS);
  let key = openedKeys.get(sealed);
  if (key === undefined) {
    key = deps.box.open(sealed);
    openedKeys.set(sealed, key);
  }
  return key;
}

const TOO_LARGE: Refusal = { status: 400, body: { message: '400 Bad request - The payload is too big (over 1 MiB or nested deeper than 100 levels)' } };
/** The bare route's answer to a body over 1 MiB, which it refuses unread. */
export const PAYLOAD_TOO_LARGE = TOO_LARGE;

/** The body, parsed at most once per request, and only by a caller that passed the key check. */
function parsedBody(request: AlertRequest): unknown {
  if (request.body === undefined && request.rawBody !== undefined && !request.invalidJson) {
    const parsed = parseJsonBody(request.rawBody);
    request.body = parsed.value;
    request.invalidJson = parsed.invalid;
    // Set only when true: the hot path's request objects keep one shape.
    if (parsed.tooDeep) request.tooDeep = true;
  }
  return request.body;
}

/** JSON text nests N deep only with N openers and N closers: most alerts are too short to pass the limit. */
function mayNestDeeperThanLimit(text: string | undefined): boolean {
  return text === undefined || text.length > 2 * MAX_DEPTH;
}

/** Steps 3 and on of §15.1 for a known integration: the key, then the shape of the body. */
function refusal(deps: Deps, integration: IntegrationRow, request: AlertRequest): { refusal: Refusal; outcome: 'unauthorized' | 'invalid' } | null {
  const key = keyFromAuthorization(request.authorization);
  if (key === null || !safeEqual(key, openKey(deps, integration.token_sealed))) return { refusal: { status: 401, body: { message: '401 Unauthorized' } }, outcome: 'unauthorized' };
  const body = parsedBody(request);
  if (request.tooDeep || (mayNestDeeperThanLimit(request.rawBody) && jsonDepth(body) > MAX_DEPTH)) return { refusal: TOO_LARGE, outcome: 'invalid' };
  if (request.invalidJson) return { refusal: { status: 400, body: { message: INVALID_JSON_MESSAGE } }, outcome: 'invalid' };
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { refusal: { status: 400, body: { message: '400 Bad request - The alert payload must be a JSON object' } }, outcome: 'invalid' };
  // The Prometheus integration takes Alertmanager webhooks only (GitLab's 422 on that route, §18).
  if (integration.type_identifier === 'prometheus' && !isAlertmanagerWebhook(body)) {
    return { refusal: { status: 422, body: { message: '422 Unprocessable Entity - The Prometheus integration accepts Alertmanager webhook payloads (version "4") only' } }, outcome: 'invalid' };
  }
  return null;
}

export function receiveAlert(deps: Deps, request: AlertRequest): AlertResponse | Promise<AlertResponse> {
  // The size alone (the depth needs the parse, which waits for the key).
  if (payloadTooLarge(request.rawBody, undefined)) return TOO_LARGE;
  const fullPathLower = request.fullPath.toLowerCase();
  const remembered = rememberedIntegration(deps, fullPathLower, request.endpoint);
  return (remembered && groupWithRemembered(deps, remembered, request, fullPathLower)) ?? receiveAfresh(deps, request, fullPathLower);
}

/** Everything but the hot path: the integration read afresh, then the ordered checks and the payload. */
async function receiveAfresh(deps: Deps, request: AlertRequest, fullPathLower: string): Promise<AlertResponse> {
  // One query finds the project, its active integration and its incident settings; the failure
  // cases ask again only to tell "no project" (404) from "no active integration" (403).
  const found = await findActiveIntegration(deps, request.fullPath, request.endpoint);
  if (!found) {
    const project = await deps.db.selectFrom('projects').select('id').where('full_path_lower', '=', fullPathLower).executeTakeFirst();
    return project ? { status: 403, body: { message: '403 Forbidden' } } : { status: 404, body: { message: '404 Project Not Found' } };
  }
  const { integration, settings } = found;
  const remembered = rememberIntegration(deps, fullPathLower, request.endpoint, integration);
  const refused = refusal(deps, integration, request);
  if (refused) {
    deps.metrics.alertsIngested.inc({ outcome: refused.outcome });
    return refused.refusal;
  }
  try {
    const now = deps.clock.now();
    const parsed = parseAlertPayload(deps, integration, request.body as Record<string, unknown>, now);
    return { status: 200, body: await processAlertPayload(deps, integration, parsed, now, settings, remembered && openAlertObserver(remembered)) };
  } catch (error) {
    if (error instanceof BadRequestError) return { status: 400, body: { message: `400 Bad request - ${error.reason}` } };
    throw error;
  }
}

/**
 * The common case without reading the integration: one firing alert of an open fingerprint, counted
 * by one write that holds only while the integration is still exactly as remembered (and, for an
 * alert counted before, by primary key while that alert is still open). Null at once when the payload
 * is not that case; when the write found nothing to count (a new or resolved alert, a changed
 * integration) the full path follows with a fresh read, so every refusal is decided on current data.
 * One promise continuation and no async functions: this is most of the endpoint's traffic, and each
 * async layer or `then` cost measurable time.
 */
function groupWithRemembered(deps: Deps, remembered: RememberedIntegration, request: AlertRequest, fullPathLower: string): Promise<AlertResponse> | null {
  const { integration } = remembered;
  if (refusal(deps, integration, request)) return null;
  const fingerprint = firingFingerprint(deps, integration, request.body as Record<string, unknown>, deps.clock.now());
  if (fingerprint === null) return null;
  const known = remembered.openAlerts.get(fingerprint);
  // Resolved by this process: no open alert to count on that it knows of.
  if (known === null) return null;
  if (known !== undefined) {
    return countKnownAlert(deps.groupCommit, known.id, remembered.unchanged).then((written) => {
      if (written.changes === 1) return accepted(deps, known.answer);
      // Resolved (or the integration changed): most likely a new alert follows, which the full path makes.
      remembered.openAlerts.delete(fingerprint);
      return receiveAfresh(deps, request, fullPathLower);
    });
  }
  return countRememberedEvent(deps.groupCommit, Number(integration.project_id), fingerprint, remembered.unchanged).then((written) => {
    const counted = written.rows[0];
    return counted ? accepted(deps, rememberOpenAlert(remembered, fingerprint, counted).answer) : receiveAfresh(deps, request, fullPathLower);
  });
}

function accepted(deps: Deps, answer: AlertResponse): AlertResponse {
  deps.metrics.alertsIngested.inc({ outcome: 'accepted' });
  return answer;
}
