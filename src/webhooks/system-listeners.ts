// What system hooks listen to besides pushes: the system events (platform/domain-events.ts) of users,
// groups, projects and memberships. Each goes to every executable system hook, whatever its event
// flags (GitLab's SystemHooksService), as one durable delivery job per hook queued in the producer's
// transaction. The event carries its snapshot, so the job only formats it (payloads/system-events.ts).
import { randomUUID } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import type { EventTx, SystemEvent } from '../platform/domain-events.js';
import { enqueue } from '../platform/jobs/queue.js';
import { systemHooks, type ListeningHook } from './hooks-queries.js';
import { executable } from './model.js';
import { JOB_DELIVER_HOOK, type DeliveryPayload } from './listeners.js';
import { SYSTEM_EVENT_KINDS } from './payloads/system-events.js';

/** Queue the event's delivery to every executable system hook (the one place system deliveries are enqueued). */
export async function enqueueSystemHookDeliveries(tx: EventTx, deps: Deps, event: SystemEvent): Promise<void> {
  const hooks = await tx.all<Pick<ListeningHook, 'id' | 'recent_failures' | 'backoff_count' | 'disabled_until'>>(systemHooks());
  const now = deps.clock.now();
  const eventUuid = randomUUID();
  for (const hook of hooks) {
    if (!executable(hook, now)) continue;
    const payload: DeliveryPayload = { hookId: Number(hook.id), event, eventUuid, idempotencyKey: randomUUID() };
    // No retries of a receiver's failure (GitLab sends once); the attempts cover a worker that died.
    await enqueue(tx, deps.clock, JOB_DELIVER_HOOK, { ...payload }, { maxAttempts: 3 });
  }
}

export function listenForSystemHooks(deps: Deps): void {
  for (const kind of SYSTEM_EVENT_KINDS) {
    deps.domainEvents.on(kind, (tx, event) => enqueueSystemHookDeliveries(tx, deps, event as SystemEvent));
  }
}
