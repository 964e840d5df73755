// The delivery job of one event: its payload (built when the event happened), POSTed to every hook the event named that is
// still executable, all at once (each request ends within 10 s), then log the exchanges and count
// failures in batches (record-deliveries.ts). The job is done when every hook has answered or failed:
// a receiver's failure is recorded, not retried (GitLab sends a hook once). A worker that dies mid-way
// leaves the job to be claimed again, which sends to every hook again, each with the Idempotency-Key
// of its first try (derived from the event's UUID and the hook), so receivers can drop the repeat.
import { randomUUID } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { claimNext, markDone, markFailed, type ClaimedJob } from '../platform/jobs/queue.js';
import { serverBusy } from '../platform/jobs/pacing.js';
import type { HookRow } from './entities.js';
import { executable } from './model.js';
import { outboundRules, type OutboundRules } from './outbound.js';
import { deliveryKey, exchangeWithHook, type RulesOf } from './deliver-hook.js';
import { buildHook } from './build-hook.js';
import { recordExchanges } from './record-deliveries.js';
import { JOB_DELIVER_EVENT, type EventDeliveryPayload } from './listeners.js';

/** Further event jobs one job takes on while the server is idle, and how many at once. */
const LANES = 8;
const BATCH_LIMIT = 500;

/**
 * The job handler. While the server answers no requests it also claims the other due event jobs and
 * runs them in a few concurrent lanes (each claimed, leased and marked done like any job; a crash
 * leaves them to be claimed again): a burst goes out while earlier receivers are still answering.
 * Under load it delivers its own event only, and the worker's pacing (platform/jobs/pacing.ts) decides
 * when the next one runs.
 */
export async function deliverEventJob(deps: Deps, payload: EventDeliveryPayload, _job: ClaimedJob): Promise<void> {
  await Promise.all([deliverEvent(deps, payload), deliverDueEventsWhileIdle(deps)]);
}

async function deliverDueEventsWhileIdle(deps: Deps): Promise<void> {
  const workerId = `webhooks:${randomUUID()}`;
  let budget = BATCH_LIMIT;
  const lane = async () => {
    while (budget > 0 && !serverBusy(deps.caches)) {
      budget -= 1;
      const job = await claimNext(deps.db, deps.dialect, deps.clock, workerId, deps.config.jobLeaseMs, [JOB_DELIVER_EVENT]);
      if (!job) return;
      try {
        await deliverEvent(deps, job.payload as EventDeliveryPayload);
        await markDone(deps.db, deps.clock, job, workerId);
      } catch (error) {
        deps.log.warn({ err: error, job: job.id }, 'webhook delivery failed');
        await markFailed(deps.db, deps.clock, job, workerId, error);
      }
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
}

async function deliverEvent(deps: Deps, payload: EventDeliveryPayload): Promise<void> {
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
  const exchanges = await Promise.all(hooks.map((hook) => exchangeWithHook(deps, {
    hook,
    event: built.event,
    trigger: built.trigger,
    data: built.data,
    body,
    eventUuid: payload.eventUuid,
    idempotencyKey: deliveryKey(payload.eventUuid, hook.id),
  }, rules)));
  await recordExchanges(deps, exchanges);
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
