// The job behind every issue notification: read the issue as it is now, build the recipients, compose
// one message each and queue them for delivery in one transaction (email/api.ts). A run that died
// after queueing finds its messages and stops, so a retried job does not mail twice.
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';
import { inTransaction } from '../platform/db/database.js';
import { composedBy, queueEmails } from '../email/api.js';
import { renderGitlabMarkdown } from '../markdown/api.js';
import { readApplicationSettings } from '../application-settings/api.js';
import { loadIssueContext, userIdsByUsername, type IssueContext, type NoteRow } from './issue-context.js';
import { issueRecipients, type Recipient } from './recipients.js';
import { issueMessage } from './issue-email.js';
import { addedLabelNames } from './added-labels.js';
import type { IssueMail } from './issue-email.js';

export const JOB_NOTIFY_ISSUE = 'notifications.issue';

export interface IssueNotificationPayload {
  action: IssueMail;
  issueId: number;
  actorId: number | null;
  noteId?: number;
  previousAssigneeIds?: number[];
  /** new_mention: the usernames the edit added (new-mentions.ts). */
  mentionedUsernames?: string[];
  /** relabel_issue: the labels the edit added. */
  addedLabelIds?: number[];
}

/**
 * New mentions go to whom a new issue would go (GitLab's new_mentions_in_resource_email builds the
 * recipients of the "new" action, the editor acting) among the newly mentioned users only.
 */
async function recipientsOf(deps: Deps, payload: IssueNotificationPayload, context: IssueContext, note: NoteRow | undefined): Promise<Recipient[]> {
  if (payload.action !== 'new_mention') {
    return issueRecipients(deps, { action: payload.action, actorId: payload.actorId, context, note, previousAssigneeIds: payload.previousAssigneeIds, addedLabelIds: payload.addedLabelIds });
  }
  const mentionedIds = await userIdsByUsername(deps, payload.mentionedUsernames ?? []);
  if (mentionedIds.length === 0) return [];
  const recipients = await issueRecipients(deps, { action: 'new_issue', actorId: payload.actorId, context, mentionedIds });
  return recipients.filter((recipient) => mentionedIds.includes(Number(recipient.user.id)));
}

export async function notifyIssueEvent(deps: Deps, payload: IssueNotificationPayload, job: ClaimedJob): Promise<void> {
  if (await composedBy(deps, job.id)) return;
  const context = await loadIssueContext(deps, payload.issueId);
  if (!context) return;
  const note = payload.noteId === undefined ? undefined : await deps.db.selectFrom('notes').selectAll().where('id', '=', payload.noteId).executeTakeFirst();
  if (payload.action === 'new_note' && (!note || note.system === 1)) return;
  const recipients = await recipientsOf(deps, payload, context, note);
  if (recipients.length === 0) return;
  const people = await deps.db.selectFrom('users').select(['id', 'name', 'username']).where('id', 'in', [payload.actorId ?? 0, ...context.assigneeIds]).execute();
  const actor = people.find((person) => Number(person.id) === payload.actorId) ?? null;
  const assigneeNames = context.assigneeIds.map((id) => people.find((person) => Number(person.id) === id)?.name).filter((name): name is string => name !== undefined);
  const markdown = payload.action === 'new_issue' || payload.action === 'new_mention' ? context.issue.description : payload.action === 'new_note' ? note!.body : null;
  const bodyHtml = markdown ? await renderGitlabMarkdown(deps, markdown) : null;
  const { email_author_in_body: authorInBody } = await readApplicationSettings(deps.db);
  const labelNames = await addedLabelNames(deps, payload.addedLabelIds);
  const input = { action: payload.action, context, actor, note, bodyHtml, assigneeNames, authorInBody, eventKey: String(job.id), labelNames };
  const messages = recipients.map((recipient) => issueMessage(deps, input, recipient));
  await inTransaction(deps.db, (trx) => queueEmails(deps, trx, messages, job.id));
  deps.pokeWorker();
}
