// Sending to a hook: build the event's payload (once per event), POST it (outbound.ts: pinned
// address, 10 s, no redirects), then log the exchange for the settings page and apply GitLab's
// auto-disabling (record-deliveries.ts). A receiver's failure is recorded, not retried (GitLab sends
// a hook once).
import { createHash } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';
import { GITLAB_COMPAT_VERSION } from '../platform/version.js';
import { findHookById } from './finder.js';
import type { HookRow } from './entities.js';
import { executable } from './model.js';
import { BlockedRequestError, outboundRules, postPinned, type OutboundRules } from './outbound.js';
import { recordExchanges, type Exchange } from './record-deliveries.js';
import { buildHook, type BuiltHook } from './build-hook.js';
import type { DeliveryPayload } from './listeners.js';

/**
 * The hooks of one event get the same payload: the first of its jobs builds it, the others (usually
 * run right after, by this worker) reuse it. Keyed by the event's UUID, so nothing else can share it;
 * bounded, oldest dropped first. A job on another node, or after the entry is dropped, builds its own.
 */
const recentBuilds = new Map<string, Promise<BuiltHook | null>>();
const RECENT_BUILDS = 256;

function builtOnce(eventUuid: string, build: () => Promise<BuiltHook | null>): Promise<BuiltHook | null> {
  let built = recentBuilds.get(eventUuid);
  if (!built) {
    built = build();
    built.catch(() => recentBuilds.delete(eventUuid));
    recentBuilds.set(eventUuid, built);
    if (recentBuilds.size > RECENT_BUILDS) recentBuilds.delete(recentBuilds.keys().next().value!);
  }
  return built;
}

/** A UUID made from a hash of `text`: the same text always gives the same UUID. */
function uuidFrom(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A stable UUID for a hook (X-Gitlab-Webhook-UUID): the same on every request it makes. */
export function hookUuid(hook: HookRow): string {
  return uuidFrom(`web_hook:${hook.id}:${hook.created_at}`);
}

/** The Idempotency-Key of an event's delivery to a hook: derived, so a job run again after a crash sends the same key. */
export function deliveryKey(eventUuid: string, hookId: number): string {
  return uuidFrom(`delivery:${eventUuid}:${hookId}`);
}

export interface SendInput {
  hook: HookRow;
  /** System hooks say `System Hook` whatever the event (GitLab's SystemHook#execute). */
  event: string;
  trigger: string;
  data: unknown;
  /** `data` as JSON, when the caller already has it (the hooks of one event share it). */
  body?: string;
  eventUuid: string;
  idempotencyKey: string;
}

export interface SendOutcome {
  logId: number;
  status: number | null;
  message: string | null;
}

export type RulesOf = (kind: 'system' | 'web') => Promise<OutboundRules>;

/** POST to the hook and answer what happened; writes nothing (recordExchanges does, in batches). */
export async function exchangeWithHook(deps: Deps, input: SendInput, rulesOf: RulesOf = (kind) => outboundRules(deps, kind)): Promise<Exchange> {
  const { hook } = input;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': `GitLab/${GITLAB_COMPAT_VERSION}`,
    'X-Gitlab-Event': hook.type === 'SystemHook' ? 'System Hook' : input.event,
    'X-Gitlab-Webhook-UUID': hookUuid(hook),
    'X-Gitlab-Instance': deps.config.baseUrl,
    'X-Gitlab-Event-UUID': input.eventUuid,
    'Idempotency-Key': input.idempotencyKey,
  };
  if (hook.token) headers['X-Gitlab-Token'] = deps.box.open(hook.token);
  const body = input.body ?? JSON.stringify(input.data);
  const started = performance.now();
  const exchange: Exchange = { hook, trigger: input.trigger, requestHeaders: headers, requestBody: body, status: null, responseHeaders: {}, responseBody: '', message: null, duration: 0, idempotencyKey: input.idempotencyKey };
  try {
    const rules = await rulesOf(hook.type === 'SystemHook' ? 'system' : 'web');
    const response = await postPinned(deps, { url: hook.url, headers, body, verifyTls: hook.enable_ssl_verification === 1, rules });
    exchange.status = response.status;
    exchange.responseHeaders = response.headers;
    exchange.responseBody = response.body;
  } catch (error) {
    exchange.message = error instanceof BlockedRequestError ? `URL is blocked: ${error.message}` : String((error as Error)?.message ?? error);
  }
  exchange.duration = (performance.now() - started) / 1000;
  return exchange;
}

/** One delivery, logged and counted at once (tests of a hook, resends, single-hook jobs). */
export async function sendToHook(deps: Deps, input: SendInput): Promise<SendOutcome> {
  const exchange = await exchangeWithHook(deps, input);
  const [logId] = await recordExchanges(deps, [exchange]);
  return { logId, status: exchange.status, message: exchange.message };
}

/**
 * The job of one hook for one event (system hooks; project and group hooks have one job per event,
 * deliver-event.ts). A receiver's failure is recorded, not retried; a worker that dies mid-way leaves
 * the job to be claimed again, which sends it again with the same Idempotency-Key.
 */
export async function deliverHookJob(deps: Deps, payload: DeliveryPayload, _job: ClaimedJob): Promise<void> {
  await deliverHook(deps, payload);
}

export async function deliverHook(deps: Deps, payload: DeliveryPayload): Promise<void> {
  const hook = await findHookById(deps, payload.hookId);
  if (!hook) return;
  // A hook disabled after the event was queued sends nothing (GitLab checks executable? when it runs).
  if (!executable(hook, deps.clock.now())) return;
  const built = await builtOnce(payload.eventUuid, () => buildHook(deps, payload.event));
  if (!built) return;
  const idempotencyKey = payload.idempotencyKey ?? deliveryKey(payload.eventUuid, hook.id);
  await sendToHook(deps, { hook, event: built.event, trigger: built.trigger, data: built.data, eventUuid: payload.eventUuid, idempotencyKey });
}

/** GitLab's "Resend request": the logged body again, to the hook's current URL, with the logged keys; null when no such log. */
export async function resendLog(deps: Deps, hook: HookRow, logId: number): Promise<SendOutcome | null> {
  const log = await deps.db.selectFrom('web_hook_logs').selectAll().where('id', '=', logId).where('web_hook_id', '=', hook.id).executeTakeFirst();
  if (!log) return null;
  const headers = JSON.parse(log.request_headers) as Record<string, string>;
  return sendToHook(deps, {
    hook,
    event: headers['X-Gitlab-Event'] ?? 'Push Hook',
    trigger: log.trigger,
    data: null,
    body: log.request_data,
    eventUuid: headers['X-Gitlab-Event-UUID'] ?? '',
    idempotencyKey: log.idempotency_key,
  });
}
