// The messages of issue notifications, shaped as GitLab's Emails::Issues and Emails::Notes mailers
// shape theirs (thread-email.ts): subject `<project> | <title> (#<iid>)`, the new-issue message is
// the thread's root (Message-ID issue_<id>@host), X-GitLab-Issue-* headers and a one-click
// List-Unsubscribe for that issue.
import type { Deps } from '../platform/deps.js';
import type { OutgoingEmail } from '../email/api.js';
import type { IssueAction } from './recipient-rules.js';
import type { IssueContext, NoteRow } from './issue-context.js';
import type { Recipient } from './recipients.js';
import { unsubscribeUrl } from './unsubscribe-link.js';
import { labelsAddedHeadline, mailHost, threadEmail } from './thread-email.js';

export { fromHeader, listId, mailHost } from './thread-email.js';

/**
 * What a message is about: an issue event, or `new_mention`, an edit that mentioned the recipient
 * (GitLab's new_mention_in_issue_email: an answer in the thread, with the issue's description).
 */
export type IssueMail = IssueAction | 'new_mention';

export interface IssueMessageInput {
  action: IssueMail;
  context: IssueContext;
  actor: { name: string; username: string } | null;
  note?: NoteRow;
  /** Rendered Markdown of the description (new issue, new mention) or the comment (new note). */
  bodyHtml: string | null;
  assigneeNames: string[];
  /** email_author_in_body: the actor's name above the quoted description or comment. */
  authorInBody: boolean;
  /** Unique per event: the id of the job composing it. */
  eventKey: string;
  /** relabel_issue: the names of the labels added. */
  labelNames?: string[];
}

/** Where a relabeling's recipient manages label subscriptions (GitLab's labels page, subscribed ones). */
export function subscribedLabelsUrl(deps: Deps, project: { full_path: string }): string {
  return `${deps.config.baseUrl}/${project.full_path}/-/labels?subscribed=true`;
}

export function issueUrl(deps: Deps, context: IssueContext): string {
  return `${deps.config.baseUrl}/${context.project.full_path}/-/issues/${context.issue.iid}`;
}

function headline(input: IssueMessageInput): string {
  const who = input.actor?.name ?? 'Kiln';
  const issue = input.context.issue;
  switch (input.action) {
    case 'new_issue':
      return `${who} created an issue: #${issue.iid}`;
    case 'close_issue':
      return `Issue #${issue.iid} was closed by ${who}.`;
    case 'reopen_issue':
      return `Issue #${issue.iid} was reopened by ${who}.`;
    case 'reassign_issue':
      return input.assigneeNames.length ? `Assignee changed to ${input.assigneeNames.join(', ')}` : 'All assignees were removed.';
    case 'issue_due':
      return `Issue #${issue.iid} is due: ${issue.due_date ?? ''}`;
    case 'new_note':
      return `${who} commented on issue #${issue.iid}:`;
    case 'new_mention':
      return 'You have been mentioned in an issue.';
    case 'relabel_issue':
      return labelsAddedHeadline(input.labelNames ?? []);
  }
}

export function issueMessage(deps: Deps, input: IssueMessageInput, recipient: Recipient): OutgoingEmail {
  const { context } = input;
  const host = mailHost(deps);
  const root = `issue_${context.issue.id}@${host}`;
  const describes = input.action === 'new_issue' || input.action === 'new_mention';
  const messageId = input.action === 'new_issue' ? root : input.action === 'new_note' && input.note ? `note_${input.note.id}@${host}` : `issue_${context.issue.id}.${input.action}.${input.eventKey}@${host}`;
  return threadEmail(deps, {
    project: context.project,
    reference: `#${context.issue.iid}`,
    title: context.issue.title,
    url: issueUrl(deps, context),
    root,
    messageId,
    actorName: input.actor?.name ?? null,
    modelHeaders: {
      'X-GitLab-Issue-ID': String(context.issue.id),
      'X-GitLab-Issue-IID': String(context.issue.iid),
      'X-GitLab-Issue-State': context.issue.state,
    },
    headline: headline(input),
    details: describes && input.assigneeNames.length ? [`Assignees: ${input.assigneeNames.join(', ')}`] : [],
    markdown: describes ? context.issue.description : input.action === 'new_note' ? (input.note?.body ?? null) : null,
    quotedAuthor: input.authorInBody ? (input.actor?.name ?? null) : null,
    bodyHtml: input.bodyHtml,
    unsubscribe: unsubscribeUrl(deps, Number(recipient.user.id), Number(context.issue.id)),
    ...(input.action === 'relabel_issue' ? { labelsUrl: subscribedLabelsUrl(deps, context.project) } : {}),
  }, recipient);
}
