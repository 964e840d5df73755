// The delivery job: build the event's payload for the hook, POST it (outbound.ts: pinned address,
// 10 s, no redirects), log the exchange for the settings page, and apply GitLab's auto-disabling.
// A receiver's failure is recorded, not retried (GitLab sends a hook once); a worker that dies mid-way
// leaves the job to be claimed again, which sends it again with the same Idempotency-Key.
import { createHash, randomUUID } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { claimNext, markDone, markFailed, type ClaimedJob } from '../platform/jobs/queue.js';
import type { DomainEvent, DomainEventKind } from '../platform/domain-events.js';
import { GITLAB_COMPAT_VERSION } from '../platform/version.js';
import { findHookById } from './finder.js';
import type { HookRow } from './entities.js';
import { afterFailure, executable, HEALTHY, MAX_FAILURES } from './model.js';
import { BlockedRequestError, outboundRules, postPinned } from './outbound.js';
import { issueChangeSet, issueHookData, noteHookData, type IssueAction } from './payloads/issue.js';
import { pushHookData } from './payloads/push.js';
import { deploymentHookData } from './payloads/deployment.js';
import { systemHookData } from './payloads/system-events.js';
import { JOB_DELIVER_HOOK, type DeliveryPayload } from './listeners.js';

export interface BuiltHook {
  /** X-Gitlab-Event */
  event: string;
  /** The log's trigger: GitLab's hook names (push_hooks, issue_hooks, …). */
  trigger: string;
  data: unknown;
}

const ISSUE_ACTIONS: Record<string, IssueAction> = {
  'issue.opened': 'open',
  'issue.closed': 'close',
  'issue.reopened': 'reopen',
  'issue.updated': 'update',
  'issue.reassigned': 'update',
};

/** The payload of an event as a hook receives it, or null when what it names is gone. */
export async function buildHook(deps: Deps, event: DomainEvent<DomainEventKind>): Promise<BuiltHook | null> {
  switch (event.kind) {
    case 'issue.opened':
    case 'issue.closed':
    case 'issue.reopened':
    case 'issue.updated':
    case 'issue.reassigned': {
      const built = await issueHookData(deps, { issueId: event.issueId, actorId: event.actorId, action: ISSUE_ACTIONS[event.kind], changes: issueChangeSet(event) });
      return built && { event: built.confidential ? 'Confidential Issue Hook' : 'Issue Hook', trigger: built.confidential ? 'confidential_issue_hooks' : 'issue_hooks', data: built.data };
    }
    case 'note.created': {
      const built = await noteHookData(deps, { noteId: event.noteId, actorId: event.actorId });
      return built && { event: built.confidential ? 'Confidential Note Hook' : 'Note Hook', trigger: built.confidential ? 'confidential_note_hooks' : 'note_hooks', data: built.data };
    }
    case 'push': {
      const data = await pushHookData(deps, event);
      const tag = event.ref.startsWith('refs/tags/');
      return data && { event: tag ? 'Tag Push Hook' : 'Push Hook', trigger: tag ? 'tag_push_hooks' : 'push_hooks', data };
    }
    case 'deployment.status_changed': {
      const data = await deploymentHookData(deps, { deploymentId: event.deploymentId, actorId: event.actorId, status: event.status });
      return data && { event: 'Deployment Hook', trigger: 'deployment_hooks', data };
    }
    case 'issue.due':
    case 'alert.created':
      return null;
    default:
      // System events carry their snapshot: formatted, never read (system-listeners.ts).
      return systemHookData(event);
  }
}

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

/** A stable UUID for a hook (X-Gitlab-Webhook-UUID): the same on every request it makes. */
export function hookUuid(hook: HookRow): string {
  const hex = createHash('sha256').update(`web_hook:${hook.id}:${hook.created_at}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface SendInput {
  hook: HookRow;
  /** System hooks say `System Hook` whatever the event (GitLab's SystemHook#execute). */
  event: string;
  trigger: string;
  data: unknown;
  eventUuid: string;
  idempotencyKey: string;
}

export interface SendOutcome {
  logId: number;
  status: number | null;
  message: string | null;
}

export async function sendToHook(deps: Deps, input: SendInput): Promise<SendOutcome> {
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
  const body = JSON.stringify(input.data);
  const started = performance.now();
  let status: number | null = null;
  let responseHeaders: Record<string, string> = {};
  let responseBody = '';
  let message: string | null = null;
  try {
    const rules = await outboundRules(deps, hook.type === 'SystemHook' ? 'system' : 'web');
    const response = await postPinned(deps, { url: hook.url, headers, body, verifyTls: hook.enable_ssl_verification === 1, rules });
    status = response.status;
    responseHeaders = response.headers;
    responseBody = response.body;
  } catch (error) {
    message = error instanceof BlockedRequestError ? `URL is blocked: ${error.message}` : String((error as Error)?.message ?? error);
  }
  const duration = (performance.now() - started) / 1000;
  const ok = status !== null && status >= 200 && status < 300;
  const now = deps.clock.now();
  // The token is a secret: the log shows it masked, as GitLab's does.
  const loggedHeaders = hook.token ? { ...headers, 'X-Gitlab-Token': '[REDACTED]' } : headers;
  const log = await deps.db
    .insertInto('web_hook_logs')
    .values({
      web_hook_id: hook.id,
      trigger: input.trigger,
      url: hook.url,
      request_headers: JSON.stringify(loggedHeaders),
      request_data: body,
      response_headers: JSON.stringify(responseHeaders),
      response_body: responseBody,
      response_status: status === null ? 'internal error' : String(status),
      execution_duration: duration,
      internal_error_message: message,
      idempotency_key: input.idempotencyKey,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordOutcome(deps, hook, ok, now);
  return { logId: Number(log.id), status, message };
}

/** GitLab's enable! / backoff!: a success clears the failures, a failure counts and may disable. */
async function recordOutcome(deps: Deps, hook: HookRow, ok: boolean, now: number): Promise<void> {
  if (ok) {
    if (Number(hook.recent_failures) === 0 && Number(hook.backoff_count) === 0 && hook.disabled_until === null) return;
    await deps.db.updateTable('web_hooks').set(HEALTHY).where('id', '=', hook.id).execute();
    return;
  }
  // Deliveries to one hook run concurrently: each failure is counted by an atomic increment, and the
  // count it produced decides whether this failure backs the hook off (afterFailure's rule).
  const counted = await deps.db
    .updateTable('web_hooks')
    .set((eb) => ({ recent_failures: eb('recent_failures', '+', 1) }))
    .where('id', '=', hook.id)
    .where('recent_failures', '<', MAX_FAILURES)
    .returning(['recent_failures', 'backoff_count', 'disabled_until'])
    .executeTakeFirst();
  if (!counted) return;
  const next = afterFailure({ ...counted, recent_failures: Number(counted.recent_failures) - 1 }, now);
  if (Number(next.backoff_count) === Number(counted.backoff_count)) return;
  const backedOff = await deps.db
    .updateTable('web_hooks')
    .set((eb) => ({ backoff_count: eb('backoff_count', '+', 1) }))
    .where('id', '=', hook.id)
    .returning('backoff_count')
    .executeTakeFirstOrThrow();
  const again = afterFailure({ recent_failures: Number(counted.recent_failures) - 1, backoff_count: Number(backedOff.backoff_count) - 1, disabled_until: null }, now);
  await deps.db.updateTable('web_hooks').set({ disabled_until: again.disabled_until }).where('id', '=', hook.id).execute();
}

/** Lanes of concurrent deliveries while a burst is due, and how many jobs one run takes on at most. */
const LANES = 16;
const BATCH_LIMIT = 2000;

/**
 * The job handler. The worker runs one job at a time, and a delivery mostly waits on the network, so
 * while its own job is delivered the handler also claims the other due delivery jobs and runs them in
 * concurrent lanes (each claimed, leased and marked done like any job; a crash leaves them to be
 * claimed again), then returns: a burst of events goes out at network speed, not one round trip at a time.
 */
export async function deliverHookJob(deps: Deps, payload: DeliveryPayload, _job: ClaimedJob): Promise<void> {
  await Promise.all([deliverHook(deps, payload), deliverDueHooks(deps)]);
}

async function deliverDueHooks(deps: Deps): Promise<void> {
  const workerId = `webhooks:${randomUUID()}`;
  let budget = BATCH_LIMIT;
  const lane = async () => {
    while (budget > 0) {
      budget -= 1;
      const job = await claimNext(deps.db, deps.dialect, deps.clock, workerId, deps.config.jobLeaseMs, [JOB_DELIVER_HOOK]);
      if (!job) return;
      try {
        await deliverHook(deps, job.payload as DeliveryPayload);
        await markDone(deps.db, deps.clock, job, workerId);
      } catch (error) {
        deps.log.warn({ err: error, job: job.id }, 'webhook delivery failed');
        await markFailed(deps.db, deps.clock, job, workerId, error);
      }
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
}

export async function deliverHook(deps: Deps, payload: DeliveryPayload): Promise<void> {
  const hook = await findHookById(deps, payload.hookId);
  if (!hook) return;
  // A hook disabled after the event was queued sends nothing (GitLab checks executable? when it runs).
  if (!executable(hook, deps.clock.now())) return;
  const built = await builtOnce(payload.eventUuid, () => buildHook(deps, payload.event));
  if (!built) return;
  await sendToHook(deps, { hook, event: built.event, trigger: built.trigger, data: built.data, eventUuid: payload.eventUuid, idempotencyKey: payload.idempotencyKey });
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
    data: JSON.parse(log.request_data),
    eventUuid: headers['X-Gitlab-Event-UUID'] ?? '',
    idempotencyKey: log.idempotency_key,
  });
}
