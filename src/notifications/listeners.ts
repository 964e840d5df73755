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
  });
  domainEvents.on('note.created', async (tx, event) => {
    // System notes send no mail (GitLab mails only a few kinds of them, none that Kiln writes).
    if (event.noteableType !== 'Issue' || event.system) return;
    await issueJob(tx, { action: 'new_note', issueId: event.noteableId, actorId: event.actorId, noteId: event.noteId });
  });
  domainEvents.on('alert.created', async (tx, event) => {
    // New alerts only; one read by primary key, and a job only when the project asked for mail.
    const [setting] = await tx.all<{ send_email: number }>(alertEmailSetting(event.projectId));
    if (Number(setting?.send_email ?? 0) === 1) await enqueue(tx, clock, JOB_NOTIFY_ALERT, { alertId: event.alertId });
  });
}
