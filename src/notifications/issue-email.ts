// The messages of issue notifications, shaped as GitLab's Emails::Issues and Emails::Notes mailers
// shape theirs: subject `<project> | <title> (#<iid>)` ("Re: " on every message after the first),
// the new-issue message is the thread's root (Message-ID issue_<id>@host) and every later one
// answers it (In-Reply-To and References), X-GitLab-* headers, List-Id and a one-click
// List-Unsubscribe for that issue.
import type { Deps } from '../platform/deps.js';
import { html, raw, type Html } from '../platform/web/html.js';
import type { OutgoingEmail } from '../email/api.js';
import type { IssueAction, NotificationReason } from './recipient-rules.js';
import type { IssueContext, NoteRow } from './issue-context.js';
import type { Recipient } from './recipients.js';
import { unsubscribeUrl } from './unsubscribe-link.js';

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
  /** Unique per event: the id of the job composing it. */
  eventKey: string;
}

export function mailHost(deps: Deps): string {
  return new URL(deps.config.baseUrl).hostname;
}

export function issueUrl(deps: Deps, context: IssueContext): string {
  return `${deps.config.baseUrl}/${context.project.full_path}/-/issues/${context.issue.iid}`;
}

/** `"Name" <address>`: the actor's name over the instance's address, as GitLab's sender(). */
export function fromHeader(deps: Deps, name: string | null): string {
  const configured = deps.config.emailFrom;
  const address = /<([^<>]+)>\s*$/.exec(configured)?.[1] ?? configured;
  const display = name ?? (/^(.*?)\s*</.exec(configured)?.[1]?.replace(/^"|"$/g, '') || 'Kiln');
  return `"${display.replace(/["\\\r\n]/g, '')}" <${address}>`;
}

/** GitLab's List-Id: the project's path, and an id made of the project id, its path and the host. */
export function listId(deps: Deps, project: { id: number; full_path: string }): string {
  const id = [String(project.id), ...project.full_path.toLowerCase().split('/').reverse(), mailHost(deps)].join('.').replace(/[^a-z0-9.-]/g, '-');
  return `${project.full_path} <${id}>`;
}

const REASON_TEXT: Record<Exclude<NotificationReason, null>, string> = {
  assigned: 'you have been assigned an item',
  mentioned: 'you have been mentioned',
  subscribed: 'you are subscribed to this thread',
};

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
  }
}

function textBody(deps: Deps, input: IssueMessageInput, footer: string): string {
  const lines = [headline(input), '', issueUrl(deps, input.context)];
  if (input.action === 'new_issue' || input.action === 'new_mention') {
    if (input.assigneeNames.length) lines.push('', `Assignees: ${input.assigneeNames.join(', ')}`);
    if (input.context.issue.description) lines.push('', input.context.issue.description);
  }
  if (input.action === 'new_note' && input.note) lines.push('', input.note.body);
  return `${lines.join('\n')}\n\n-- \n${footer}\n`;
}

function htmlBody(deps: Deps, input: IssueMessageInput, footer: Html): string {
  const url = issueUrl(deps, input.context);
  const content = input.bodyHtml === null ? html`` : html`<div class="md">${raw(input.bodyHtml)}</div>`;
  const assignees = (input.action === 'new_issue' || input.action === 'new_mention') && input.assigneeNames.length ? html`<p>Assignees: ${input.assigneeNames.join(', ')}</p>` : html``;
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${input.context.issue.title}</title></head>
<body style="font-family: sans-serif; color: #333">
<p>${headline(input)} <a href="${url}">${input.context.project.full_path}#${input.context.issue.iid}</a></p>
${assignees}${content}
<div style="color: #666; font-size: small; border-top: 1px solid #ddd; margin-top: 2em; padding-top: .5em">${footer}</div>
</body></html>`.value;
}

export function issueMessage(deps: Deps, input: IssueMessageInput, recipient: Recipient): OutgoingEmail {
  const { context } = input;
  const host = mailHost(deps);
  const root = `issue_${context.issue.id}@${host}`;
  const first = input.action === 'new_issue';
  const messageId = first ? root : input.action === 'new_note' && input.note ? `note_${input.note.id}@${host}` : `issue_${context.issue.id}.${input.action}.${input.eventKey}@${host}`;
  const subject = `${first ? '' : 'Re: '}${context.project.name} | ${context.issue.title} (#${context.issue.iid})`;
  const unsubscribe = unsubscribeUrl(deps, Number(recipient.user.id), Number(context.issue.id));
  const url = issueUrl(deps, context);
  const why = recipient.reason ? REASON_TEXT[recipient.reason] : `of your account on ${host}`;
  const settings = `${deps.config.baseUrl}/profile/notifications`;
  const textFooter = `View it on Kiln: ${url}\nYou're receiving this email because ${why}.\nUnsubscribe from this thread: ${unsubscribe}\nManage all notifications: ${settings}`;
  const htmlFooter = html`<a href="${url}">View it on Kiln</a>. You're receiving this email because ${why}. <a href="${unsubscribe}">Unsubscribe</a> from this thread · <a href="${settings}">Manage all notifications</a>`;
  const headers: Record<string, string> = {
    'X-GitLab-Project': context.project.name,
    'X-GitLab-Project-Id': String(context.project.id),
    'X-GitLab-Project-Path': context.project.full_path,
    'X-GitLab-Issue-ID': String(context.issue.id),
    'X-GitLab-Issue-IID': String(context.issue.iid),
    'X-GitLab-Issue-State': context.issue.state,
    'List-Id': listId(deps, context.project),
    'List-Unsubscribe': `<${unsubscribe}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    'Auto-Submitted': 'auto-generated',
    'X-Auto-Response-Suppress': 'All',
  };
  if (recipient.reason) headers['X-GitLab-NotificationReason'] = recipient.reason;
  if (!first) {
    headers['In-Reply-To'] = `<${root}>`;
    headers.References = `<${root}>`;
  }
  return {
    from: fromHeader(deps, input.actor?.name ?? null),
    to: recipient.address,
    userId: Number(recipient.user.id),
    subject,
    messageId,
    headers,
    text: textBody(deps, input, textFooter),
    html: htmlBody(deps, input, htmlFooter),
  };
}
