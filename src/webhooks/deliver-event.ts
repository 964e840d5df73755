// The delivery job of one event: its payload (built when the event happened), POSTed to every hook the event named that is
// still executable, all at once (each request ends within 10 s), then log the exchanges and count
// failures in batches (record-deliveries.ts). The job is done when every hook has answered or failed:
// a receiver's failure is recorded, not retried (GitLab sends a hook once). A worker that dies mid-way
// leaves the job to be claimed again, which sends to every hook again, each with the Idempotency-Key
// of its first try (derived from the event's UUID and the hook), so receivers can drop the repeat.
import { randomUUID } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { claimNext, enqueue, markDone, markFailed, type ClaimedJob } from '../platform/jobs/queue.js';
import { serverBusy } from '../platform/jobs/pacing.js';
import type { HookRow } from './entities.js';
import { executable } from './model.js';
import { outboundRules, type OutboundRules } from './outbound.js';
import { deliveryKey, exchangeWithHook, type RulesOf } from './deliver-hook.js';
import { buildHook } from './build-hook.js';
import { recordExchanges, type Exchange } from './record-deliveries.js';
import { acquireDestination, destinationOf } from './destination-slots.js';
import { reserveSend } from './destination-pace.js';
import { JOB_DELIVER_EVENT, type EventDeliveryPayload } from './listeners.js';

/** Further event jobs one job takes on while the server is idle, and how many at once. */
const LANES = 8;
const BATCH_LIMIT = 500;
/**
 * How long one job sends: hooks whose turn comes later (their destination busy with others) go into a
 * new job with the same payload and keys, and the idle lanes claim nothing more. So a job holds the
 * worker for about this plus one request's 10 s, whatever the number of hooks.
 */
export const JOB_BUDGET_MS = 60_000;

/**
 * The job handler. While the server answers no requests it also claims the other due event jobs and
 * runs them in a few concurrent lanes (each claimed, leased and marked done like any job; a crash
 * leaves them to be claimed again): a burst goes out while earlier receivers are still answering.
 * Under load it delivers its own event only, and the worker's pacing (platform/jobs/pacing.ts) decides
 * when the next one runs.
 */
export async function deliverEventJob(deps: Deps, payload: EventDeliveryPayload, _job: ClaimedJob): Promise<void> {
  const deadline = performance.now() + JOB_BUDGET_MS;
  await Promise.all([deliverEvent(deps, payload, deadline), deliverDueEventsWhileIdle(deps, deadline)]);
}

async function deliverDueEventsWhileIdle(deps: Deps, deadline: number): Promise<void> {
  const workerId = `webhooks:${randomUUID()}`;
  let budget = BATCH_LIMIT;
  const lane = async () => {
    while (budget > 0 && !serverBusy(deps.caches) && performance.now() < deadline) {
      budget -= 1;
      const job = await claimNext(deps.db, deps.dialect, deps.clock, workerId, deps.config.jobLeaseMs, [JOB_DELIVER_EVENT]);
      if (!job) return;
      try {
        await deliverEvent(deps, job.payload as EventDeliveryPayload, deadline);
        await markDone(deps.db, deps.clock, job, workerId);
      } catch (error) {
        deps.log.warn({ err: error, job: job.id }, 'webhook delivery failed');
        await markFailed(deps.db, deps.clock, job, workerId, error);
      }
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
}

/** One event to its hooks; hooks not started by `deadline` (a `performance.now()` time) go into a new job. */
export async function deliverEvent(deps: Deps, payload: EventDeliveryPayload, deadline: number): Promise<void> {
  if (!Array.isArray(payload.hookIds) || payload.hookIds.length === 0) return;
  const now = deps.clock.now();
  // A hook deleted or disabled after the event was queued sends nothing (GitLab checks executable? when it runs).
  const hooks: HookRow[] = (await deps.db.selectFrom('web_hooks').selectAll().where('id', 'in', payload.hookIds).orderBy('id').execute())
    .filter((hook) => executable(hook, now));
  if (hooks.length === 0) return;
  // Built in the event's transaction (listeners.ts); a job queued before that was done builds it now.
  const built = payload.built !== undefined ? payload.built : await buildHook(deps, payload.event);
  if (!built) return;
  const body = JSON.stringify(built.data);
  const rules = rulesOnce(deps);
  const later: number[] = [];
  const sent = await Promise.all(hooks.map(async (hook) => {
    // A few requests at a time and a steady rate per destination (destination-slots.ts,
    // destination-pace.ts); past the budget, a later job.
    const destination = destinationOf(hook.url);
    const release = await acquireDestination(destination);
    try {
      const wait = reserveSend(destination, performance.now(), deadline);
      if (wait === null) {
        later.push(hook.id);
        return null;
      }
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return await exchangeWithHook(deps, {
        hook,
        event: built.event,
        trigger: built.trigger,
        data: built.data,
        body,
        eventUuid: payload.eventUuid,
        idempotencyKey: deliveryKey(payload.eventUuid, hook.id),
      }, rules);
    } finally {
      release();
    }
  }));
  await recordExchanges(deps, sent.filter((exchange): exchange is Exchange => exchange !== null));
  if (later.length > 0) {
    const rest: EventDeliveryPayload = { ...payload, hookIds: later.sort((a, b) => a - b), built };
    await enqueue(deps.db, deps.clock, JOB_DELIVER_EVENT, { ...rest }, { maxAttempts: 3 });
  }
}

/** The application settings are read once per job, not once per hook. */
function rulesOnce(deps: Deps): RulesOf {
  const read = new Map<'system' | 'web', Promise<OutboundRules>>();
  return (kind) => {
    let rules = read.get(kind);
    if (!rules) read.set(kind, (rules = outboundRules(deps, kind)));
    return rules;
  };
}
