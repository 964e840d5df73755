// The messages of merge request notifications, shaped as GitLab's Emails::MergeRequests and
// Emails::Notes mailers shape theirs (thread-email.ts): subject `<project> | <title> (!<iid>)`, the
// new merge request is the thread's root (Message-ID merge_request_<id>@host), every later message
// answers it, X-GitLab-MergeRequest-ID, -IID and -State, and a one-click List-Unsubscribe for it.
import type { Deps } from '../platform/deps.js';
import type { OutgoingEmail } from '../email/api.js';
import type { MergeRequestAction } from './recipient-rules.js';
import type { NoteRow } from './issue-context.js';
import type { MergeRequestContext } from './merge-request-context.js';
import type { Recipient } from './recipients.js';
import { labelsAddedHeadline, mailHost, threadEmail } from './thread-email.js';
import { subscribedLabelsUrl } from './issue-email.js';
import { unsubscribeUrl } from './unsubscribe-link.js';

/** A merge request event, or `new_mention`: an edit of its title or description mentioned the recipient. */
export type MergeRequestMail = MergeRequestAction | 'new_note' | 'new_mention';

export interface MergeRequestMessageInput {
  action: MergeRequestMail;
  context: MergeRequestContext;
  actorName: string | null;
  note?: NoteRow;
  /** Rendered Markdown of the description (new merge request, new mention) or the comment (new note). */
  bodyHtml: string | null;
  /** Names by user id: assignees, reviewers and the previous ones. */
  names: Map<number, string>;
  previousAssigneeIds: number[];
  previousReviewerIds: number[];
  /** push_to_merge_request: `<short sha> - <title>` of the new commits, at most 20 (GitLab's email lists as many). */
  commits: string[];
  commitsTotal: number;
  /** email_author_in_body: the actor's name above the quoted description or comment. */
  authorInBody: boolean;
  /** Unique per event: the id of the job composing it. */
  eventKey: string;
  /** relabel_merge_request: the names of the labels added. */
  labelNames?: string[];
}

export function mergeRequestUrl(deps: Deps, context: MergeRequestContext): string {
  return `${deps.config.baseUrl}/${context.project.full_path}/-/merge_requests/${context.mergeRequest.iid}`;
}

function namesOf(input: MergeRequestMessageInput, ids: number[]): string {
  return ids.map((id) => input.names.get(id)).filter((name): name is string => name !== undefined).join(', ');
}

/** GitLab's "changed from … to …" wording of reassigned_merge_request_email and changed_reviewer_of_merge_request_email. */
function changed(role: 'Assignee' | 'Reviewer', before: string, after: string): string {
  if (!after) return role === 'Assignee' ? 'All assignees were removed.' : 'All reviewers were removed.';
  return before ? `${role} changed from ${before} to ${after}` : `${role} changed to ${after}`;
}

function headline(input: MergeRequestMessageInput): string {
  const who = input.actorName ?? 'Kiln';
  const ref = `!${input.context.mergeRequest.iid}`;
  switch (input.action) {
    case 'new_merge_request':
      return `${who} created a merge request: ${ref}`;
    case 'close_merge_request':
      return `Merge request ${ref} was closed by ${who}`;
    case 'reopen_merge_request':
      return `Merge request ${ref} was reopened by ${who}`;
    case 'merge_merge_request':
      return `Merge request ${ref} was merged`;
    case 'approve_merge_request':
      return `Merge request ${ref} was approved by ${who}`;
    case 'unapprove_merge_request':
      return `Merge request ${ref} was unapproved by ${who}`;
    case 'reassign_merge_request':
      return changed('Assignee', namesOf(input, input.previousAssigneeIds), namesOf(input, input.context.assigneeIds));
    case 'change_reviewer_merge_request':
      return changed('Reviewer', namesOf(input, input.previousReviewerIds), namesOf(input, input.context.reviewerIds));
    case 'push_to_merge_request':
      return `${who} pushed new commits to merge request ${ref}`;
    case 'draft_status_change':
      return `${who} marked merge request ${ref} as ${Number(input.context.mergeRequest.draft) === 1 ? 'draft' : 'ready'}`;
    case 'new_note':
      return `${who} commented on merge request ${ref}:`;
    case 'new_mention':
      return `You have been mentioned in Merge Request ${ref}`;
    case 'relabel_merge_request':
      return labelsAddedHeadline(input.labelNames ?? []);
  }
}

function details(input: MergeRequestMessageInput): string[] {
  const { mergeRequest, assigneeIds, reviewerIds } = input.context;
  if (input.action === 'push_to_merge_request') {
    const more = input.commitsTotal - input.commits.length;
    return [...input.commits.map((line) => `* ${line}`), ...(more > 0 ? [`… and ${more} more`] : [])];
  }
  if (input.action !== 'new_merge_request' && input.action !== 'new_mention') return [];
  const lines = [`Branches: ${mergeRequest.source_branch} to ${mergeRequest.target_branch}`];
  if (assigneeIds.length) lines.push(`Assignees: ${namesOf(input, assigneeIds)}`);
  if (reviewerIds.length) lines.push(`Reviewers: ${namesOf(input, reviewerIds)}`);
  return lines;
}

export function mergeRequestMessage(deps: Deps, input: MergeRequestMessageInput, recipient: Recipient): OutgoingEmail {
  const { context } = input;
  const { mergeRequest } = context;
  const host = mailHost(deps);
  const root = `merge_request_${mergeRequest.id}@${host}`;
  const describes = input.action === 'new_merge_request' || input.action === 'new_mention';
  const messageId = input.action === 'new_merge_request' ? root : input.action === 'new_note' && input.note ? `note_${input.note.id}@${host}` : `merge_request_${mergeRequest.id}.${input.action}.${input.eventKey}@${host}`;
  return threadEmail(deps, {
    project: context.project,
    reference: `!${mergeRequest.iid}`,
    title: mergeRequest.title,
    url: mergeRequestUrl(deps, context),
    root,
    messageId,
    actorName: input.actorName,
    modelHeaders: {
      'X-GitLab-MergeRequest-ID': String(mergeRequest.id),
      'X-GitLab-MergeRequest-IID': String(mergeRequest.iid),
      'X-GitLab-MergeRequest-State': mergeRequest.state,
    },
    headline: headline(input),
    details: details(input),
    markdown: describes ? mergeRequest.description : input.action === 'new_note' ? (input.note?.body ?? null) : null,
    quotedAuthor: input.authorInBody ? input.actorName : null,
    bodyHtml: input.bodyHtml,
    unsubscribe: unsubscribeUrl(deps, Number(recipient.user.id), Number(mergeRequest.id), 'MergeRequest'),
    ...(input.action === 'relabel_merge_request' ? { labelsUrl: subscribedLabelsUrl(deps, context.project) } : {}),
  }, recipient);
}
