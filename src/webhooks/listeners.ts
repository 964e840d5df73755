// What webhooks and chat integrations listen to (platform/domain-events.ts): each event becomes one
// durable delivery job naming the hooks that want it, queued in the producer's transaction, so a
// rolled-back action sends nothing and a committed one is delivered even after kill -9. The listener
// only reads the hooks (one indexed statement) and enqueues one row however many hooks there are;
// building, sending and logging happen in the job (deliver-event.ts), which fans out to the hooks.
import { randomUUID } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import type { DomainEvent, DomainEventKind, EventTx } from '../platform/domain-events.js';
import { enqueue } from '../platform/jobs/queue.js';
import { activeChatIntegrations, issueConfidential, listeningHooks, listeningHooksOf, type ListeningHook, type ListeningIntegration } from './hooks-queries.js';
import { branchMatches, executable, type FiredFlag } from './model.js';

export const JOB_DELIVER_HOOK = 'webhooks.deliver';
export const JOB_DELIVER_EVENT = 'webhooks.deliver_event';
export const JOB_NOTIFY_CHAT = 'webhooks.chat';

/** The job of one hook for one event: the event's ids, and the UUIDs that stay the same on every retry. */
export interface DeliveryPayload {
  hookId: number;
  /** A project event, or a system event (system-listeners.ts). */
  event: DomainEvent<DomainEventKind>;
  eventUuid: string;
  /** Absent: derived from the event's UUID and the hook (deliveryKey), as stable across retries. */
  idempotencyKey?: string;
}

/** The job of one event for every hook that wanted it when it happened; each delivery's key is derived (deliveryKey). */
export interface EventDeliveryPayload {
  hookIds: number[];
  event: DomainEvent;
  eventUuid: string;
}

/** The flag of the hooks an event goes to, and for pushes to a branch the filter a hook must also pass. */
interface Want {
  flag: FiredFlag;
  matches?: (hook: ListeningHook) => boolean;
}

/** Which of the hook's flags an event needs; null when hooks never fire for it. System hooks take pushes only. */
function wantFor(event: DomainEvent, confidential: boolean): Want | null {
  switch (event.kind) {
    case 'issue.opened':
    case 'issue.closed':
    case 'issue.reopened':
    case 'issue.updated':
    case 'issue.reassigned':
      return { flag: confidential ? 'confidential_issues_events' : 'issues_events' };
    case 'note.created':
      return { flag: confidential ? 'confidential_note_events' : 'note_events' };
    case 'deployment.status_changed':
      return { flag: 'deployment_events' };
    case 'push': {
      if (event.ref.startsWith('refs/tags/')) return { flag: 'tag_push_events' };
      const branch = event.ref.replace(/^refs\/heads\//, '');
      return { flag: 'push_events', matches: (hook) => hook.type === 'SystemHook' || branchMatches(hook.push_events_branch_filter, hook.branch_filter_strategy, branch) };
    }
    default:
      return null;
  }
}

function chatWants(event: DomainEvent, confidential: boolean, integration: ListeningIntegration): boolean {
  switch (event.kind) {
    case 'alert.created':
      return Number(integration.alert_events) === 1;
    case 'issue.opened':
    case 'issue.closed':
    case 'issue.reopened':
      return Number(confidential ? integration.confidential_issues_events : integration.issues_events) === 1;
    case 'note.created':
      return !event.system && Number(confidential ? integration.confidential_note_events : integration.note_events) === 1;
    case 'push':
      return Number(event.ref.startsWith('refs/tags/') ? integration.tag_push_events : integration.push_events) === 1;
    case 'deployment.status_changed':
      return Number(integration.deployment_events) === 1;
    default:
      return false;
  }
}

async function confidentialityOf(tx: EventTx, event: DomainEvent): Promise<boolean> {
  const issueId = 'issueId' in event ? event.issueId : event.kind === 'note.created' && event.noteableType === 'Issue' ? event.noteableId : null;
  if (issueId === null) return false;
  const [row] = await tx.all<{ confidential: number }>(issueConfidential(issueId));
  return Number(row?.confidential ?? 0) === 1;
}

export function listenForHooks(deps: Deps): void {
  const onEvent = async (tx: EventTx, event: DomainEvent) => {
    // Notes on alerts make no Note Hook (GitLab's note hooks name issues, merge requests, commits, snippets).
    if (event.kind === 'note.created' && event.noteableType !== 'Issue') return;
    const confidential = await confidentialityOf(tx, event);
    const want = wantFor(event, confidential);
    if (want) {
      const groups = deps.config.tier !== 'free';
      const [row] = await tx.all<{ hooks: string }>(listeningHooks(deps.dialect, event.projectId, want.flag, groups, event.kind === 'push'));
      const now = deps.clock.now();
      const hookIds = listeningHooksOf(row)
        .filter((hook) => (want.matches?.(hook) ?? true) && executable(hook, now))
        .map((hook) => hook.id)
        .sort((a, b) => a - b);
      if (hookIds.length > 0) {
        const payload: EventDeliveryPayload = { hookIds, event, eventUuid: randomUUID() };
        // No retries of a receiver's failure (GitLab sends once); the attempts cover a worker that died.
        await enqueue(tx, deps.clock, JOB_DELIVER_EVENT, { ...payload }, { maxAttempts: 3 });
      }
    }
    const integrations = await tx.all<ListeningIntegration>(activeChatIntegrations(event.projectId));
    for (const integration of integrations) {
      if (chatWants(event, confidential, integration)) await enqueue(tx, deps.clock, JOB_NOTIFY_CHAT, { integrationId: Number(integration.id), event }, { maxAttempts: 3 });
    }
  };
  for (const kind of ['issue.opened', 'issue.closed', 'issue.reopened', 'issue.updated', 'issue.reassigned', 'note.created', 'push', 'deployment.status_changed'] as const) {
    deps.domainEvents.on(kind, onEvent as never);
  }
  // New alerts reach chat integrations only (webhooks have no alert events): one indexed read on the hot path.
  deps.domainEvents.on('alert.created', async (tx, event) => {
    const integrations = await tx.all<ListeningIntegration>(activeChatIntegrations(event.projectId));
    for (const integration of integrations) {
      if (Number(integration.alert_events) === 1) await enqueue(tx, deps.clock, JOB_NOTIFY_CHAT, { integrationId: Number(integration.id), event }, { maxAttempts: 3 });
    }
  });
}
