// The job behind every merge request notification, as notify-issue-event.ts for issues: read the
// merge request as it is now, build the recipients (GitLab's NotificationService for merge requests),
// compose one message each and queue them for delivery in one transaction. A run that died after
// queueing finds its messages and stops.
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';
import { inTransaction } from '../platform/db/database.js';
import { composedBy, queueEmails } from '../email/api.js';
import { renderGitlabMarkdown } from '../markdown/api.js';
import { readApplicationSettings } from '../application-settings/api.js';
import { readableRepository, readCommits, revList, commitTitle } from '../repositories/api.js';
import { userIdsByUsername, type NoteRow } from './issue-context.js';
import { loadMergeRequestContext, type MergeRequestContext } from './merge-request-context.js';
import { issueRecipients, type Recipient } from './recipients.js';
import { mergeRequestMessage, type MergeRequestMail } from './merge-request-email.js';
import { addedLabelNames } from './added-labels.js';

export const JOB_NOTIFY_MERGE_REQUEST = 'notifications.merge_request';

export interface MergeRequestNotificationPayload {
  action: MergeRequestMail;
  mergeRequestId: number;
  actorId: number | null;
  noteId?: number;
  previousAssigneeIds?: number[];
  previousReviewerIds?: number[];
  /** new_mention: the usernames the edit added (new-mentions.ts). */
  mentionedUsernames?: string[];
  /** push_to_merge_request: the source head before the push. */
  oldrev?: string | null;
  /** relabel_merge_request: the labels the edit added. */
  addedLabelIds?: number[];
}

/** GitLab's push_to_merge_request e-mail lists this many of the new commits. */
const LISTED_COMMITS = 20;

async function recipientsOf(deps: Deps, payload: MergeRequestNotificationPayload, context: MergeRequestContext, note: NoteRow | undefined): Promise<Recipient[]> {
  const base = { actorId: payload.actorId, context, previousAssigneeIds: payload.previousAssigneeIds, previousReviewerIds: payload.previousReviewerIds, addedLabelIds: payload.addedLabelIds };
  if (payload.action !== 'new_mention') return issueRecipients(deps, { ...base, action: payload.action, note });
  // As for issues: whom a new merge request would mail, the editor acting, among the newly mentioned only.
  const mentionedIds = await userIdsByUsername(deps, payload.mentionedUsernames ?? []);
  if (mentionedIds.length === 0) return [];
  const recipients = await issueRecipients(deps, { ...base, action: 'new_merge_request', mentionedIds });
  return recipients.filter((recipient) => mentionedIds.includes(Number(recipient.user.id)));
}

/** The commits a push added (`<short sha> - <title>`, newest first) and how many there are. */
async function pushedCommits(deps: Deps, context: MergeRequestContext, oldrev: string | null | undefined): Promise<{ lines: string[]; total: number }> {
  const diffId = context.mergeRequest.latest_merge_request_diff_id;
  const head = diffId === null ? undefined : (await deps.db.selectFrom('merge_request_diffs').select('head_commit_sha').where('id', '=', Number(diffId)).executeTakeFirst())?.head_commit_sha;
  const sourceProject = await deps.db.selectFrom('projects').selectAll().where('id', '=', Number(context.mergeRequest.source_project_id ?? context.project.id)).executeTakeFirst();
  const repoPath = sourceProject ? await readableRepository(deps, sourceProject) : null;
  if (!head || !repoPath) return { lines: [], total: 0 };
  const ids = await revList(repoPath, { revisions: oldrev ? [head, `^${oldrev}`] : [head] }).catch(() => [] as string[]);
  const commits = await readCommits(repoPath, ids.slice(0, LISTED_COMMITS));
  const lines = ids.slice(0, LISTED_COMMITS).flatMap((id) => {
    const commit = commits.get(id);
    return commit ? [`${id.slice(0, 8)} - ${commitTitle(commit.message) ?? ''}`] : [];
  });
  return { lines, total: ids.length };
}

export async function notifyMergeRequestEvent(deps: Deps, payload: MergeRequestNotificationPayload, job: ClaimedJob): Promise<void> {
  if (await composedBy(deps, job.id)) return;
  const context = await loadMergeRequestContext(deps, payload.mergeRequestId);
  if (!context) return;
  const note = payload.noteId === undefined ? undefined : await deps.db.selectFrom('notes').selectAll().where('id', '=', payload.noteId).executeTakeFirst();
  if (payload.action === 'new_note' && (!note || note.system === 1)) return;
  const recipients = await recipientsOf(deps, payload, context, note);
  if (recipients.length === 0) return;
  const previousAssigneeIds = payload.previousAssigneeIds ?? [];
  const previousReviewerIds = payload.previousReviewerIds ?? [];
  const ids = [payload.actorId ?? 0, ...context.assigneeIds, ...context.reviewerIds, ...previousAssigneeIds, ...previousReviewerIds];
  const people = await deps.db.selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute();
  const names = new Map(people.map((person) => [Number(person.id), person.name]));
  const describes = payload.action === 'new_merge_request' || payload.action === 'new_mention';
  const markdown = describes ? context.mergeRequest.description : payload.action === 'new_note' ? note!.body : null;
  const bodyHtml = markdown ? await renderGitlabMarkdown(deps, markdown) : null;
  const pushed = payload.action === 'push_to_merge_request' ? await pushedCommits(deps, context, payload.oldrev) : { lines: [], total: 0 };
  const input = {
    action: payload.action,
    context,
    actorName: payload.actorId === null ? null : (names.get(payload.actorId) ?? null),
    note,
    bodyHtml,
    names,
    previousAssigneeIds,
    previousReviewerIds,
    commits: pushed.lines,
    commitsTotal: pushed.total,
    authorInBody: (await readApplicationSettings(deps.db)).email_author_in_body,
    eventKey: String(job.id),
    labelNames: await addedLabelNames(deps, payload.addedLabelIds),
  };
  const messages = recipients.map((recipient) => mergeRequestMessage(deps, input, recipient));
  await inTransaction(deps.db, (trx) => queueEmails(deps, trx, messages, job.id));
  deps.pokeWorker();
}
