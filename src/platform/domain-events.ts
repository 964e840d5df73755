// Domain events: what happened, told inside the transaction that made it happen.
//
// Why in the transaction: a listener turns an event into durable jobs (jobs/queue.ts) with the same
// transaction, so the jobs commit with the action or not at all. A rolled-back action sends nothing;
// a committed one is never lost, even to kill -9 right after the commit (the jobs are rows).
//
// HOW TO PUBLISH (for every feature that produces one of the events below):
//   await deps.domainEvents.publish(trx, { kind: 'issue.closed', projectId, actorId, issueId });
// - `trx` is the transaction the action already runs in: a Kysely transaction (`inTransaction`'s
//   `trx`) or the raw runner of a group-commit work (`tx`). Never `deps.db` outside a transaction.
// - Publish after the rows the event names exist (the listener's job may run as soon as it commits).
// - Project events carry ids only (docs/architecture.md). A listener that must describe the event as
//   it happened reads through `tx` (the webhooks build their payloads there); a job reads when it runs.
// - System events (SystemEventTypes: users, groups, projects and memberships as a whole, what GitLab's
//   system hooks report) carry a SNAPSHOT of what they name instead, taken in the transaction before
//   the change commits. Why: a destroyed user, group, project or membership no longer resolves when
//   the job runs, a rename's old path is nowhere else, and GitLab builds these payloads at the moment
//   of the event (later edits must not leak into an earlier event's payload). Publish a destroy event
//   BEFORE deleting the rows, so the snapshot can still be read. They name no project (`projectId`).
// - Group events (GroupEventTypes: a group's wiki) carry `groupId` instead of `projectId`, and ids only.
// - Personal events (PersonalEventTypes: a personal snippet's comments) carry neither, ids only.
// - A new kind: add it to DomainEventTypes with its ids (a system event: SystemEventTypes with its
//   snapshot; webhooks' payloads/system-events.ts will not compile until it has a payload). Listeners
//   ignore kinds they don't know.
// - On a benchmarked hot path, publish only where the event really happens (an alert is created,
//   not counted on a grouped one); `publish` with no listener for the kind costs a map lookup.
//
// HOW TO LISTEN (a feature's `setup(deps)`):
//   deps.domainEvents.on('issue.closed', (tx, event) => enqueue(tx, deps.clock, 'my.job', { … }));
// A listener must only enqueue jobs (or write rows) through `tx`: it runs on the producer's hot
// path, and anything slow or external belongs in the job it enqueues.
import type { Tx } from './db/statements.js';
import { jobsEnqueued } from './jobs/queue.js';

/** The transaction an event is published in: a builder transaction or a group-commit work (platform/db/README.md). */
export type EventTx = Tx;

/** Each project event kind with the ids it carries (besides `projectId` and `actorId`, which every one has). */
export interface DomainEventTypes {
  'issue.opened': { issueId: number };
  'issue.closed': { issueId: number };
  'issue.reopened': { issueId: number };
  /**
   * Fields changed other than the state and the assignees (`title`, `description`, `labels`, …) with
   * their values before and after (columns as stored; `labels`: label ids), an exception to "ids
   * only": the old text is gone once committed, and what the change was must not drift with later edits.
   */
  'issue.updated': { issueId: number; changes: string[]; previous: Record<string, unknown>; current: Record<string, unknown> };
  /** The assignees changed; the new ones are read from the issue. */
  'issue.reassigned': { issueId: number; previousAssigneeIds: number[] };
  /** An open issue's due date arrived (a scheduled job, actor: the issue's author). */
  'issue.due': { issueId: number };
  /** A comment (or system note) on an issue or an alert. */
  'note.created': { noteId: number; noteableType: 'Issue' | 'MergeRequest' | 'AlertManagement::Alert' | 'Commit' | 'Snippet'; noteableId: number; system: boolean };
  /** A new alert (never a repeat counted on an open one). `actorId` is null: a monitoring tool sent it. */
  'alert.created': { alertId: number };
  /** One branch or tag changed by a push (git or the repository API); a null id: created or deleted. */
  /** `skipCi`: the pusher asked for no pipeline (the rebase API's skip_ci, as git's `-o ci.skip`). */
  'push': { ref: string; before: string | null; after: string | null; skipCi?: boolean };
  /** A merge request was opened, closed, reopened, merged (through the API or a push), approved or unapproved. */
  'merge_request.opened': { mergeRequestId: number };
  'merge_request.closed': { mergeRequestId: number };
  'merge_request.reopened': { mergeRequestId: number };
  'merge_request.merged': { mergeRequestId: number };
  'merge_request.approved': { mergeRequestId: number };
  'merge_request.unapproved': { mergeRequestId: number };
  /**
   * A merge request changed otherwise: edited fields with their values before and after (as
   * `issue.updated`; `assignees`, `reviewers`, `labels`: ids), or its source branch was pushed
   * (`oldrev`: the head before the push, the new head is the merge request's).
   */
  'merge_request.updated': { mergeRequestId: number; changes: string[]; previous: Record<string, unknown>; current: Record<string, unknown>; oldrev?: string | null };
  /**
   * A pipeline's composite status changed (its jobs, or commit statuses posted by an external CI, move
   * it): merge requests merge those armed to merge when their head pipeline succeeds; Pipeline Hooks.
   */
  'pipeline.status_changed': { pipelineId: number; sha: string; ref: string | null; status: string };
  /** A CI job was created or its status changed (Job Hooks); `actorId` is the job's user. */
  'job.status_changed': { buildId: number; status: string };
  /** A deployment was created or its status changed. */
  'deployment.status_changed': { deploymentId: number; status: string };
  /** A release was made, changed (its name, notes, milestones or date), or is about to be deleted (published before the rows go). */
  'release.created': { releaseId: number };
  'release.updated': { releaseId: number };
  'release.deleted': { releaseId: number };
  /**
   * A wiki page was created, changed or deleted (the API or the pages): the page's file and the
   * commit that made the change, and the commit its content is read at (the one before, for a
   * deletion). Commits never change, so the payload built from them is the page as it was.
   */
  'wiki_page.changed': WikiPageChange;
}

/** A wiki page's change: the page's file, the commit that made it, the commit its content is read at. */
export interface WikiPageChange {
  slug: string;
  path: string;
  action: 'create' | 'update' | 'delete';
  commit: string;
  readAt: string;
  message: string;
  /** The slug before a rename (an update that moved the page). */
  previousSlug?: string;
}

/**
 * Each group event kind with what it carries (besides `groupId` and `actorId`): what happens in a
 * group outside its projects, told to the group's and its ancestors' group hooks (GitLab's
 * Group#execute_hooks). Ids only, as project events.
 */
export interface GroupEventTypes {
  /** A page of the group's wiki changed (the API, the pages or a git push): as 'wiki_page.changed'. */
  'group_wiki_page.changed': WikiPageChange;
}

/**
 * Each personal event kind with what it carries (besides `actorId`): what happens outside any project
 * and group, on something a user owns (a personal snippet). Ids only, as project events.
 */
export interface PersonalEventTypes {
  /** A comment on a personal snippet: mailed to the snippet's participants; no hook or activity event. */
  'personal_snippet_note.created': { noteId: number; snippetId: number };
}

/** A project as it was at the event (millisecond timestamps; the owners' names and primary e-mails). */
export interface ProjectSnapshot {
  id: number;
  name: string;
  path: string;
  fullPath: string;
  namespaceId: number;
  visibility: string;
  createdAt: number;
  updatedAt: number;
  /** The namespace's owner: the user of a personal namespace, or the group itself (no e-mail). */
  owner: { name: string; email: string };
  /** The users who own it: a personal project's owners, or the Owners of its group and the group's ancestors. */
  owners: Array<{ name: string; email: string }>;
}

export interface UserSnapshot {
  id: number;
  username: string;
  name: string;
  email: string;
  state: string;
  createdAt: number;
  updatedAt: number;
}

export interface GroupSnapshot {
  id: number;
  name: string;
  path: string;
  fullPath: string;
  createdAt: number;
  updatedAt: number;
}

/** A direct membership of a project or group, with the member and the source as they were. */
export interface MemberSnapshot {
  accessLevel: number;
  expiresAt: string | null;
  createdAt: number;
  updatedAt: number;
  user: { id: number; username: string; name: string; email: string };
  source:
    | { type: 'Project'; id: number; name: string; path: string; fullPath: string; visibility: string }
    | { type: 'Namespace'; id: number; name: string; path: string; fullPath: string };
}

/** Each system event kind with its snapshot (see the top of this file: why a snapshot, not ids). */
export interface SystemEventTypes {
  'project.created': { project: ProjectSnapshot };
  /** Settings changed without a new path (a new path is 'project.renamed'). */
  'project.updated': { project: ProjectSnapshot };
  /** The path changed within its namespace. */
  'project.renamed': { project: ProjectSnapshot; oldFullPath: string };
  /** Moved to another namespace. */
  'project.transferred': { project: ProjectSnapshot; oldFullPath: string };
  'project.destroyed': { project: ProjectSnapshot };
  'user.created': { user: UserSnapshot };
  'user.destroyed': { user: UserSnapshot };
  /** A blocked user was refused at sign-in. */
  'user.failed_login': { user: UserSnapshot };
  'group.created': { group: GroupSnapshot };
  /** The group's own path changed (not a transfer under another parent). */
  'group.renamed': { group: GroupSnapshot; oldPath: string; oldFullPath: string };
  'group.destroyed': { group: GroupSnapshot };
  'member.added': { member: MemberSnapshot };
  'member.updated': { member: MemberSnapshot };
  'member.removed': { member: MemberSnapshot };
}

export type ProjectEventKind = keyof DomainEventTypes;
export type SystemEventKind = keyof SystemEventTypes;
export type GroupEventKind = keyof GroupEventTypes;
export type PersonalEventKind = keyof PersonalEventTypes;
export type DomainEventKind = ProjectEventKind | SystemEventKind | GroupEventKind | PersonalEventKind;

export type ProjectEvent<K extends ProjectEventKind = ProjectEventKind> = K extends ProjectEventKind
  ? { kind: K; projectId: number; actorId: number | null } & DomainEventTypes[K]
  : never;

export type SystemEvent<K extends SystemEventKind = SystemEventKind> = K extends SystemEventKind
  ? { kind: K; actorId: number | null } & SystemEventTypes[K]
  : never;

export type GroupEvent<K extends GroupEventKind = GroupEventKind> = K extends GroupEventKind
  ? { kind: K; groupId: number; actorId: number | null } & GroupEventTypes[K]
  : never;

export type PersonalEvent<K extends PersonalEventKind = PersonalEventKind> = K extends PersonalEventKind
  ? { kind: K; actorId: number | null } & PersonalEventTypes[K]
  : never;

/**
 * An event of the given kinds. Without an argument it is a project event (what the project
 * listeners handle); `DomainEvent<DomainEventKind>` is any event.
 */
export type DomainEvent<K extends DomainEventKind = ProjectEventKind> = K extends ProjectEventKind
  ? ProjectEvent<K>
  : K extends SystemEventKind
    ? SystemEvent<K>
    : K extends GroupEventKind
      ? GroupEvent<K>
      : K extends PersonalEventKind
        ? PersonalEvent<K>
        : never;

export type DomainEventListener<K extends DomainEventKind> = (tx: EventTx, event: DomainEvent<K>) => Promise<unknown>;

export class DomainEvents {
  private readonly listeners = new Map<DomainEventKind, Array<DomainEventListener<never>>>();
  private pokePending = false;

  /** `afterPublish` wakes the worker; jobs enqueued in a transaction are claimable once it commits. */
  constructor(private readonly afterPublish: () => void = () => {}) {}

  on<K extends DomainEventKind>(kind: K, listener: DomainEventListener<K>): void {
    const list = this.listeners.get(kind) ?? [];
    list.push(listener as DomainEventListener<never>);
    this.listeners.set(kind, list);
  }

  /** Whether anything listens to `kind` (a producer may skip building an event nobody reads). */
  has(kind: DomainEventKind): boolean {
    return this.listeners.has(kind);
  }

  async publish<K extends DomainEventKind>(tx: EventTx, event: DomainEvent<K>): Promise<void> {
    const list = this.listeners.get(event.kind);
    if (!list) return;
    const before = jobsEnqueued();
    for (const listener of list) await (listener as DomainEventListener<K>)(tx, event);
    // Most events enqueue nothing (a new alert on a project without hooks or mail): a wake then
    // would only make the worker claim in vain, a write transaction each (measured: ~160 a second
    // under the alert bench).
    if (jobsEnqueued() !== before) this.wakeSoon();
  }

  // The producer commits after publish returns (there is no commit hook for either kind of
  // transaction): wake the worker on a later turn, once per burst. A wake that comes before the
  // commit finds nothing and the worker's poll (KILN_WORKER_POLL_MS) picks the jobs up instead.
  private wakeSoon(): void {
    if (this.pokePending) return;
    this.pokePending = true;
    setTimeout(() => {
      this.pokePending = false;
      this.afterPublish();
    }, 5).unref();
  }
}
