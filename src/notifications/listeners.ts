// What notifications listen to (platform/domain-events.ts): each event becomes one durable job in the
// producer's transaction; the job builds recipients and messages after commit.
import type { Deps } from '../platform/deps.js';
import { enqueue } from '../platform/jobs/queue.js';
import type { DomainEventKind } from '../platform/domain-events.js';
import { JOB_NOTIFY_ISSUE, type IssueNotificationPayload } from './notify-issue-event.js';
import { JOB_NOTIFY_ALERT } from './notify-new-alert.js';
import { alertEmailSetting } from './notification-queries.js';
import type { IssueAction } from './recipient-rules.js';
import { addedMentions } from './new-mentions.js';
import { addedLabelIds } from './added-labels.js';
import { JOB_NOTIFY_MERGE_REQUEST, type MergeRequestNotificationPayload } from './notify-merge-request-event.js';
import { JOB_NOTIFY_PIPELINE } from './notify-pipeline.js';
import { JOB_NOTIFY_SNIPPET_NOTE, type SnippetNoteNotificationPayload } from './notify-snippet-note.js';
import { JOB_NOTIFY_PERSONAL_SNIPPET_NOTE, type PersonalSnippetNoteNotificationPayload } from './notify-personal-snippet-note.js';

const ISSUE_ACTIONS: Partial<Record<DomainEventKind, IssueAction>> = {
  'issue.opened': 'new_issue',
  'issue.closed': 'close_issue',
  'issue.reopened': 'reopen_issue',
  'issue.reassigned': 'reassign_issue',
  'issue.due': 'issue_due',
};

export function listenForNotifications(deps: Deps): void {
  const { domainEvents, clock } = deps;
  const issueJob = (tx: Parameters<typeof enqueue>[0], payload: IssueNotificationPayload) => enqueue(tx, clock, JOB_NOTIFY_ISSUE, { ...payload });
  const mergeRequestJob = mergeRequestJobOf(deps);
  domainEvents.on('issue.opened', (tx, event) => issueJob(tx, { action: ISSUE_ACTIONS[event.kind]!, issueId: event.issueId, actorId: event.actorId }));
  domainEvents.on('issue.closed', (tx, event) => issueJob(tx, { action: ISSUE_ACTIONS[event.kind]!, issueId: event.issueId, actorId: event.actorId }));
  domainEvents.on('issue.reopened', (tx, event) => issueJob(tx, { action: ISSUE_ACTIONS[event.kind]!, issueId: event.issueId, actorId: event.actorId }));
  domainEvents.on('issue.due', (tx, event) => issueJob(tx, { action: ISSUE_ACTIONS[event.kind]!, issueId: event.issueId, actorId: event.actorId }));
  domainEvents.on('issue.reassigned', (tx, event) =>
    issueJob(tx, { action: 'reassign_issue', issueId: event.issueId, actorId: event.actorId, previousAssigneeIds: event.previousAssigneeIds }));
  domainEvents.on('issue.updated', async (tx, event) => {
    // Only an edit that mentions someone new mails (GitLab's new_mentions_in_issue); other edits send none.
    const mentioned = addedMentions(event);
    if (mentioned.length > 0) await issueJob(tx, { action: 'new_mention', issueId: event.issueId, actorId: event.actorId, mentionedUsernames: mentioned });
    // Labels added: their subscribers hear of it (GitLab's relabeled_issue); removals send nothing.
    const added = event.changes.includes('labels') ? addedLabelIds(event.previous, event.current) : [];
    if (added.length > 0) await issueJob(tx, { action: 'relabel_issue', issueId: event.issueId, actorId: event.actorId, addedLabelIds: added });
  });
  domainEvents.on('note.created', async (tx, event) => {
    // System notes send no mail (GitLab mails only a few kinds of them, none that Kiln writes).
    if (event.system) return;
    if (event.noteableType === 'Issue') await issueJob(tx, { action: 'new_note', issueId: event.noteableId, actorId: event.actorId, noteId: event.noteId });
    if (event.noteableType === 'MergeRequest') await mergeRequestJob(tx, { action: 'new_note', mergeRequestId: event.noteableId, actorId: event.actorId, noteId: event.noteId });
    if (event.noteableType === 'Snippet') {
      const payload: SnippetNoteNotificationPayload = { snippetId: event.noteableId, noteId: event.noteId, actorId: event.actorId };
      await enqueue(tx, clock, JOB_NOTIFY_SNIPPET_NOTE, { ...payload });
    }
  });
  domainEvents.on('personal_snippet_note.created', async (tx, event) => {
    const payload: PersonalSnippetNoteNotificationPayload = { snippetId: event.snippetId, noteId: event.noteId, actorId: event.actorId };
    await enqueue(tx, clock, JOB_NOTIFY_PERSONAL_SNIPPET_NOTE, { ...payload });
  });
  listenForMergeRequests(deps);
  // A pipeline that ended as success or failed mails its user (notify-pipeline.ts decides whether).
  domainEvents.on('pipeline.status_changed', async (tx, event) => {
    if (event.status === 'success' || event.status === 'failed') await enqueue(tx, clock, JOB_NOTIFY_PIPELINE, { pipelineId: event.pipelineId, status: event.status });
  });
  domainEvents.on('alert.created', async (tx, event) => {
    // New alerts only; one read by primary key, and a job only when the project asked for mail.
    const [setting] = await tx.all<{ send_email: number }>(alertEmailSetting(event.projectId));
    if (Number(setting?.send_email ?? 0) === 1) await enqueue(tx, clock, JOB_NOTIFY_ALERT, { alertId: event.alertId });
  });
}

type Tx = Parameters<typeof enqueue>[0];

const MERGE_REQUEST_ACTIONS = {
  'merge_request.opened': 'new_merge_request',
  'merge_request.closed': 'close_merge_request',
  'merge_request.reopened': 'reopen_merge_request',
  'merge_request.merged': 'merge_merge_request',
  'merge_request.approved': 'approve_merge_request',
  'merge_request.unapproved': 'unapprove_merge_request',
} as const;

/** The id lists an update event carries for `assignees` and `reviewers`. */
function idsIn(values: Record<string, unknown> | undefined, field: string): number[] {
  const list = values?.[field];
  return Array.isArray(list) ? list.map(Number) : [];
}

function mergeRequestJobOf(deps: Deps) {
  return (tx: Tx, payload: MergeRequestNotificationPayload) => enqueue(tx, deps.clock, JOB_NOTIFY_MERGE_REQUEST, { ...payload });
}

/** GitLab's NotificationService calls for merge requests, one job per mail-worthy part of an event. */
function listenForMergeRequests(deps: Deps): void {
  const { domainEvents } = deps;
  const job = mergeRequestJobOf(deps);
  for (const kind of Object.keys(MERGE_REQUEST_ACTIONS) as Array<keyof typeof MERGE_REQUEST_ACTIONS>) {
    domainEvents.on(kind, (tx, event) => job(tx, { action: MERGE_REQUEST_ACTIONS[kind], mergeRequestId: event.mergeRequestId, actorId: event.actorId }));
  }
  domainEvents.on('merge_request.updated', async (tx, event) => {
    const base = { mergeRequestId: event.mergeRequestId, actorId: event.actorId };
    // A push to the source branch (GitLab's push_to_merge_request, from MergeRequests::RefreshService).
    if (event.oldrev !== undefined) await job(tx, { ...base, action: 'push_to_merge_request', oldrev: event.oldrev });
    if (event.changes.includes('assignees')) await job(tx, { ...base, action: 'reassign_merge_request', previousAssigneeIds: idsIn(event.previous, 'assignees') });
    if (event.changes.includes('reviewers')) await job(tx, { ...base, action: 'change_reviewer_merge_request', previousReviewerIds: idsIn(event.previous, 'reviewers') });
    // Marked as draft or as ready (GitLab's change_in_merge_request_draft_status).
    if (event.changes.includes('draft')) await job(tx, { ...base, action: 'draft_status_change' });
    const mentioned = addedMentions(event);
    if (mentioned.length > 0) await job(tx, { ...base, action: 'new_mention', mentionedUsernames: mentioned });
    const added = event.changes.includes('labels') ? addedLabelIds(event.previous, event.current) : [];
    if (added.length > 0) await job(tx, { ...base, action: 'relabel_merge_request', addedLabelIds: added });
  });
}
