// What webhooks and chat integrations listen to (platform/domain-events.ts): each event becomes one
// durable delivery job naming the hooks that want it, queued in the producer's transaction, so a
// rolled-back action sends nothing and a committed one is delivered even after kill -9. The payload
// (and the chat message with its channels) is built here too, in that transaction, as GitLab builds
// `hook_data` in the service: the recipients and what they are sent are both fixed when the event
// happens. A job that built it when it ran sent an issue made confidential meanwhile, with its new
// text, to hooks and channels that had not asked for confidential events (issue 33). Sending and
// logging happen in the job (deliver-event.ts, deliver-chat.ts), which fans out to the hooks.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { DB } from '../platform/db/schema.js';
import type { DomainEvent, DomainEventKind, EventTx, GroupEvent } from '../platform/domain-events.js';
import { enqueue } from '../platform/jobs/queue.js';
import { activeChatIntegrations, alertForChat, issueConfidential, listeningGroupHooks, listeningHooks, listeningHooksOf, type ListeningHook, type ListeningIntegration } from './hooks-queries.js';
import { branchMatches, executable, type FiredFlag } from './model.js';
import { buildHook, type BuiltHook } from './build-hook.js';
import { alertMessageOf, chatMessage, type AlertForChat, type ChatMessage } from './slack-messages.js';
import { chatChannels } from './chat-channels.js';
import { propertiesOf } from './slack-integration.js';

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
  /** A project event, or a group's (its wiki). */
  event: DomainEvent | GroupEvent;
  eventUuid: string;
  /** The payload as the event's transaction saw it; absent in jobs queued before it was built there (built when they run). */
  built?: BuiltHook | null;
}

/** The chat job of one integration for one event: the message and the channels as they were when it happened. */
export interface ChatDeliveryPayload {
  integrationId: number;
  event: DomainEvent;
  /** Absent in jobs queued before messages were built at the event (built when they run). */
  message?: ChatMessage | null;
  /** null: the integration's webhook default channel. */
  channels?: Array<string | null>;
}

/**
 * Deps whose queries run in the event's transaction, so the payload sees the rows as the event made
 * them (its own uncommitted writes included); null for a group-commit work's raw runner, which has
 * no query builder (new alerts come from one: their message is read with a raw statement, below).
 */
function depsInTransaction(deps: Deps, tx: EventTx): Deps | null {
  return 'selectFrom' in tx ? { ...deps, db: tx as unknown as Kysely<DB> } : null;
}

/** The flag of the hooks an event goes to, and for pushes to a branch the filter a hook must also pass. */
interface Want {
  flag: FiredFlag;
  matches?: (hook: ListeningHook) => boolean;
}

/**
 * The job statuses GitLab sends a Job Hook for: a job's creation, its queueing, its start and its end
 * (Ci::Build's transitions to pending and running, and BuildFinishedWorker); never manual, scheduled
 * or skipped.
 */
const JOB_HOOK_STATUSES = new Set(['created', 'pending', 'running', 'success', 'failed', 'canceled']);

/** Events chat integrations never take: their listener skips reading the integrations. */
const NOT_FOR_CHAT = new Set<string>(['pipeline.status_changed', 'job.status_changed', 'wiki_page.changed']);

/** Which of the hook's flags an event needs; null when hooks never fire for it. System hooks take pushes and merge requests only (systemHooksWant). */
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
    case 'merge_request.opened':
    case 'merge_request.closed':
    case 'merge_request.reopened':
    case 'merge_request.updated':
    case 'merge_request.merged':
    case 'merge_request.approved':
    case 'merge_request.unapproved':
      return { flag: 'merge_requests_events' };
    case 'deployment.status_changed':
      return { flag: 'deployment_events' };
    case 'release.created':
    case 'release.updated':
    case 'release.deleted':
      return { flag: 'releases_events' };
    case 'pipeline.status_changed':
      return { flag: 'pipeline_events' };
    case 'job.status_changed':
      return JOB_HOOK_STATUSES.has(event.status) ? { flag: 'job_events' } : null;
    case 'wiki_page.changed':
      return { flag: 'wiki_page_events' };
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
    // GitLab's chat notifications skip a merge request's `update` (BaseChatNotification#get_message).
    case 'merge_request.opened':
    case 'merge_request.closed':
    case 'merge_request.reopened':
    case 'merge_request.merged':
    case 'merge_request.approved':
    case 'merge_request.unapproved':
      return propertiesOf(integration).stored_flags.merge_requests_events ?? true;
    case 'push':
      return Number(event.ref.startsWith('refs/tags/') ? integration.tag_push_events : integration.push_events) === 1;
    case 'deployment.status_changed':
      return Number(integration.deployment_events) === 1;
    default:
      return false;
  }
}

/**
 * GitLab's SystemHook::AVAILABLE_HOOKS among the events here: pushes, and merge requests (Project#execute_hooks
 * hands :merge_request_hooks to SystemHooksService too), each to the system hooks with the event's flag on,
 * with the project hooks' payload.
 */
function systemHooksWant(event: DomainEvent): boolean {
  return event.kind === 'push' || event.kind.startsWith('merge_request.');
}

async function confidentialityOf(tx: EventTx, event: DomainEvent): Promise<boolean> {
  const issueId = 'issueId' in event ? event.issueId : event.kind === 'note.created' && event.noteableType === 'Issue' ? event.noteableId : null;
  if (issueId === null) return false;
  const [row] = await tx.all<{ confidential: number }>(issueConfidential(issueId));
  return Number(row?.confidential ?? 0) === 1;
}

/** One delivery job of the event to the hooks that may be sent to now, its payload built in the event's transaction. */
async function enqueueDelivery(deps: Deps, tx: EventTx, event: DomainEvent | GroupEvent, hooks: ListeningHook[]): Promise<void> {
  const now = deps.clock.now();
  const hookIds = hooks.filter((hook) => executable(hook, now)).map((hook) => hook.id).sort((a, b) => a - b);
  if (hookIds.length === 0) return;
  const atEvent = depsInTransaction(deps, tx);
  const built = atEvent ? await buildHook(atEvent, event) : undefined;
  // null: what the event names is gone already (deleted in the same transaction), nothing to send.
  if (built === null) return;
  const payload: EventDeliveryPayload = { hookIds, event, eventUuid: randomUUID(), ...(built ? { built } : {}) };
  // No retries of a receiver's failure (GitLab sends once); the attempts cover a worker that died.
  await enqueue(tx, deps.clock, JOB_DELIVER_EVENT, { ...payload }, { maxAttempts: 3 });
}

export function listenForHooks(deps: Deps): void {
  const onEvent = async (tx: EventTx, event: DomainEvent) => {
    // Notes on alerts make no Note Hook (GitLab's note hooks name issues, merge requests, commits, snippets).
    if (event.kind === 'note.created' && event.noteableType === 'AlertManagement::Alert') return;
    const confidential = await confidentialityOf(tx, event);
    const want = wantFor(event, confidential);
    if (want) {
      const groups = deps.config.tier !== 'free';
      const [row] = await tx.all<{ hooks: string }>(listeningHooks(deps.dialect, event.projectId, want.flag, groups, systemHooksWant(event)));
      await enqueueDelivery(deps, tx, event, listeningHooksOf(row).filter((hook) => want.matches?.(hook) ?? true));
    }
    if (NOT_FOR_CHAT.has(event.kind)) return;
    const integrations = await tx.all<ListeningIntegration>(activeChatIntegrations(event.projectId));
    let message: Promise<ChatMessage | null> | undefined;
    for (const integration of integrations) {
      if (!chatWants(event, confidential, integration)) continue;
      const atEvent = depsInTransaction(deps, tx);
      if (!atEvent) {
        await enqueue(tx, deps.clock, JOB_NOTIFY_CHAT, { integrationId: Number(integration.id), event }, { maxAttempts: 3 });
        continue;
      }
      message ??= chatMessage(atEvent, event);
      const built = await message;
      if (!built) continue;
      const payload: ChatDeliveryPayload = { integrationId: Number(integration.id), event, message: built, channels: chatChannels(integration, built) };
      await enqueue(tx, deps.clock, JOB_NOTIFY_CHAT, { ...payload }, { maxAttempts: 3 });
    }
  };
  const mergeRequestKinds = ['merge_request.opened', 'merge_request.closed', 'merge_request.reopened', 'merge_request.updated', 'merge_request.merged', 'merge_request.approved', 'merge_request.unapproved'] as const;
  for (const kind of ['issue.opened', 'issue.closed', 'issue.reopened', 'issue.updated', 'issue.reassigned', 'note.created', 'push', 'deployment.status_changed', 'release.created', 'release.updated', 'release.deleted', 'pipeline.status_changed', 'job.status_changed', 'wiki_page.changed', ...mergeRequestKinds] as const) {
    deps.domainEvents.on(kind, onEvent as never);
  }
  // A group wiki's page goes to the group's hooks and its ancestors' (GitLab's EE Group#execute_hooks),
  // group hooks being a paid tier's as for project events; there are no chat integrations of groups.
  deps.domainEvents.on('group_wiki_page.changed', async (tx, event) => {
    if (deps.config.tier === 'free') return;
    const [row] = await tx.all<{ hooks: string }>(listeningGroupHooks(deps.dialect, event.groupId, 'wiki_page_events'));
    await enqueueDelivery(deps, tx, event, listeningHooksOf(row));
  });
  // New alerts reach chat integrations only (webhooks have no alert events): one indexed read on the
  // hot path, and the alert's row only when an integration wants it (its message built here too).
  deps.domainEvents.on('alert.created', async (tx, event) => {
    const integrations = await tx.all<ListeningIntegration>(activeChatIntegrations(event.projectId));
    let message: ChatMessage | null | undefined;
    for (const integration of integrations) {
      if (Number(integration.alert_events) !== 1) continue;
      if (message === undefined) {
        const [alert] = await tx.all<AlertForChat>(alertForChat(event.alertId));
        message = alert ? alertMessageOf(deps, alert) : null;
      }
      if (!message) return;
      const payload: ChatDeliveryPayload = { integrationId: Number(integration.id), event, message, channels: chatChannels(integration, message) };
      await enqueue(tx, deps.clock, JOB_NOTIFY_CHAT, { ...payload }, { maxAttempts: 3 });
    }
  });
}
