// One notification message of an issue's or a merge request's thread, shaped as GitLab's mailers shape
// theirs: `Re: ` and In-Reply-To/References on every message after the thread's root, the
// X-GitLab-* headers of the project and of the model (add_model_headers), List-Id, the footer naming
// why the recipient gets it, and a one-click List-Unsubscribe when the thread has one.
import type { Deps } from '../platform/deps.js';
import { html, raw, type Html } from '../platform/web/html.js';
import type { OutgoingEmail } from '../email/api.js';
import type { NotificationReason } from './recipient-rules.js';
import type { Recipient } from './recipients.js';

export function mailHost(deps: Deps): string {
  return new URL(deps.config.baseUrl).hostname;
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
  review_requested: 'you have been asked to review a merge request',
  mentioned: 'you have been mentioned',
  subscribed: 'you are subscribed to this thread',
};

export interface ThreadMessage {
  /** Null for a personal snippet's thread: no project headers, no List-Id, no project in the subject. */
  project: { id: number; name: string; full_path: string } | null;
  /** `#3` or `!3`. */
  reference: string;
  title: string;
  url: string;
  /** The thread's root Message-ID (without brackets), and this message's. */
  root: string;
  messageId: string;
  actorName: string | null;
  /** X-GitLab-<Model>-ID, -IID, -State. */
  modelHeaders: Record<string, string>;
  headline: string;
  /** Plain-text lines after the link, and their HTML (escaped by the template). */
  details: string[];
  /**
   * The name written above the quoted description or comment (email_author_in_body: the From name
   * alone may be replaced by a mail server), or `null`.
   */
  quotedAuthor: string | null;
  /** Rendered Markdown of the description or comment; its source is `markdown`. */
  markdown: string | null;
  bodyHtml: string | null;
  /** The signed link that unsubscribes the recipient from this thread, if it has one. */
  unsubscribe: string | null;
  /**
   * A relabeling's: the project's labels page showing the subscribed ones, where the recipient
   * unsubscribes instead (GitLab's @labels_url, which also leaves out List-Unsubscribe).
   */
  labelsUrl?: string;
}

/** Rails' to_sentence: `a`, `a and b`, `a, b, and c`. */
function toSentence(words: string[]): string {
  if (words.length <= 2) return words.join(' and ');
  return `${words.slice(0, -1).join(', ')}, and ${words[words.length - 1]}`;
}

/** The line of GitLab's relabeled_issue_email and relabeled_merge_request_email. */
export function labelsAddedHeadline(names: string[]): string {
  return `${names.length === 1 ? 'Label' : 'Labels'} added: ${toSentence(names)}`;
}

function textBody(message: ThreadMessage, footer: string): string {
  const lines = [message.headline, '', message.url];
  if (message.details.length) lines.push('', ...message.details);
  if (message.markdown) lines.push('', ...(message.quotedAuthor ? [`${message.quotedAuthor} wrote:`] : []), message.markdown);
  return `${lines.join('\n')}\n\n-- \n${footer}\n`;
}

function htmlBody(message: ThreadMessage, footer: Html): string {
  const author = message.quotedAuthor ? html`<p class="author">${message.quotedAuthor} wrote:</p>` : html``;
  const content = message.bodyHtml === null ? html`` : html`${author}<div class="md">${raw(message.bodyHtml)}</div>`;
  const details = message.details.map((line) => html`<p>${line}</p>`);
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${message.title}</title></head>
<body style="font-family: sans-serif; color: #333">
<p>${message.headline} <a href="${message.url}">${message.project?.full_path ?? ''}${message.reference}</a></p>
${details}${content}
<div style="color: #666; font-size: small; border-top: 1px solid #ddd; margin-top: 2em; padding-top: .5em">${footer}</div>
</body></html>`.value;
}

export function threadEmail(deps: Deps, message: ThreadMessage, recipient: Recipient): OutgoingEmail {
  const host = mailHost(deps);
  const first = message.messageId === message.root;
  const why = recipient.reason ? REASON_TEXT[recipient.reason] : `of your account on ${host}`;
  const settings = `${deps.config.baseUrl}/profile/notifications`;
  const labelsUrl = message.labelsUrl;
  const unsubscribe = labelsUrl ? null : message.unsubscribe;
  const textFooter = [
    `View it on Kiln: ${message.url}`, `You're receiving this email because ${why}.`,
    ...(unsubscribe ? [`Unsubscribe from this thread: ${unsubscribe}`] : []), ...(labelsUrl ? [`Manage label subscriptions: ${labelsUrl}`] : []),
    `Manage all notifications: ${settings}`,
  ].join('\n');
  const unsubscribeHtml = unsubscribe ? html`<a href="${unsubscribe}">Unsubscribe</a> from this thread · ` : labelsUrl ? html`<a href="${labelsUrl}">Manage label subscriptions</a> · ` : html``;
  const htmlFooter = html`<a href="${message.url}">View it on Kiln</a>. You're receiving this email because ${why}. ${unsubscribeHtml}<a href="${settings}">Manage all notifications</a>`;
  const project = message.project;
  const headers: Record<string, string> = {
    ...(project ? { 'X-GitLab-Project': project.name, 'X-GitLab-Project-Id': String(project.id), 'X-GitLab-Project-Path': project.full_path } : {}),
    ...message.modelHeaders,
    ...(project ? { 'List-Id': listId(deps, project) } : {}),
    'Auto-Submitted': 'auto-generated',
    'X-Auto-Response-Suppress': 'All',
  };
  if (unsubscribe) {
    headers['List-Unsubscribe'] = `<${unsubscribe}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  if (recipient.reason) headers['X-GitLab-NotificationReason'] = recipient.reason;
  if (!first) {
    headers['In-Reply-To'] = `<${message.root}>`;
    headers.References = `<${message.root}>`;
  }
  return {
    from: fromHeader(deps, message.actorName),
    to: recipient.address,
    userId: Number(recipient.user.id),
    subject: `${first ? '' : 'Re: '}${project ? `${project.name} | ` : ''}${message.title} (${message.reference})`,
    messageId: message.messageId,
    headers,
    text: textBody(message, textFooter),
    html: htmlBody(message, htmlFooter),
  };
}
