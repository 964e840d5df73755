// What the merge request pages post, each through the service its API route uses: comments, thread
// replies and diff notes (or, with "Start a review", draft notes); resolving; close, reopen, draft and ready; approving; merging or
// setting and cancelling auto-merge; rebasing.
// Refusals come back as the service words them (a flash on the merge request), a missing right as 403.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canCommentOnMergeRequest } from '../../platform/auth/policies/index.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { redirect, type PageOutcome } from '../../platform/web/page.js';
import { BadRequestError, ForbiddenError, ParamError, StatusError, ValidationError } from '../../platform/errors.js';
import { ApiError } from '../../platform/http/api-error.js';
import { canMergeToBranch } from '../../repositories/api.js';
import { createNote, findDiscussion, replyToDiscussion } from '../../issues/api.js';
import { startMergeRequestThread } from '../review/start-thread.js';
import { createDraft } from '../review/draft-notes/draft-notes.js';
import { mergeRequestNoteable } from '../review/merge-request-noteable-type.js';
import { resolveDiscussion } from '../review/resolve-discussion.js';
import { updateMergeRequest } from '../update-merge-request.js';
import { approveMergeRequest, unapproveMergeRequest } from '../approve-merge-request.js';
import { mergeMergeRequest } from '../merge-merge-request.js';
import { scheduleRebase } from '../rebase-merge-request.js';
import { cancelAutoMerge } from '../arm-auto-merge.js';
import { draftTitle, draftlessTitle } from '../draft.js';
import { load } from './show-page.js';
import { str } from './shared.js';
import { returnPath } from './return-to.js';
import { mayWriteSourceBranch, sourceProjectOf } from '../source-branch-access.js';

const POSITION_FIELDS = ['base_sha', 'start_sha', 'head_sha', 'position_type', 'old_path', 'new_path', 'old_line', 'new_line'];

export const NOTES_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/notes$/;
export const RESOLVE_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/discussions\/(?<discussion>[0-9a-f]{1,64})\/resolve$/;
export const STATE_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/state$/;
export const APPROVE_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/approve$/;
export const UNAPPROVE_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/unapprove$/;
export const MERGE_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/merge$/;
export const CANCEL_AUTO_MERGE_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/cancel_auto_merge$/;
export const REBASE_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/rebase$/;

/** A refusal as a sentence for the flash; a missing right (GitLab's 401 for merging) as 403. */
function refusal(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) throw new ForbiddenError();
  if (error instanceof StatusError) return Array.isArray(error.body) ? error.body.join(' ') : String(error.body);
  if (error instanceof ApiError) return typeof error.body.message === 'string' ? error.body.message : 'The request was refused.';
  if (error instanceof ParamError || error instanceof BadRequestError || error instanceof ValidationError) return error.message;
  throw error;
}

export async function postNote(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, form, user } = context;
  const { mr, self } = await load(context, access);
  if (!canCommentOnMergeRequest(access, mr)) throw new ForbiddenError();
  const body = str(form.note);
  const noteable = mergeRequestNoteable(mr);
  // The line form's flat `position_*` fields (page forms carry no nested parameters) as the API's `position`.
  const position = Object.fromEntries(POSITION_FIELDS.filter((name) => str(form[`position_${name}`]) !== '').map((name) => [name, str(form[`position_${name}`])]));
  const onDiff = 'head_sha' in position;
  const back = (anchor: string) => returnPath(self, form, anchor);
  try {
    const discussionId = str(form.discussion_id);
    if (str(form.review) === '1') {
      await createDraft(deps, access, user.id, noteable, { note: body, position: onDiff ? position : undefined, inReplyTo: discussionId || null });
      return redirect(back('#pending-review'), 'Added to your review.');
    }
    const note = discussionId
      ? await replyToDiscussion(deps, user.id, noteable, (await findDiscussion(deps.db, noteable, discussionId))[0].discussion_id!, body)
      : onDiff || str(form.thread) === '1'
        ? await startMergeRequestThread(deps, user, noteable, body, onDiff ? { position } : {}, undefined)
        : await createNote(deps, user.id, noteable, body);
    return redirect(back(`#note_${note.id}`), 'Comment added.');
  } catch (error) {
    return redirect(back(''), `Comment not added: ${refusal(error)}`);
  }
}

export async function postResolve(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, form, user } = context;
  const { mr, self } = await load(context, access);
  const notes = await findDiscussion(deps.db, mergeRequestNoteable(mr), context.match.discussion);
  const resolved = str(form.resolved) !== '0';
  await resolveDiscussion(deps, user, access, mr, notes, resolved);
  return redirect(returnPath(self, form, `#discussion_${notes[0].discussion_id}`), resolved ? 'Thread resolved.' : 'Thread reopened.');
}

export async function postState(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, form, user } = context;
  const { mr, target, self } = await load(context, access);
  const event = str(form.event);
  const input = event === 'close' || event === 'reopen' ? { stateEvent: event as 'close' | 'reopen' } : event === 'draft' ? { title: draftTitle(mr.title) } : event === 'ready' ? { title: draftlessTitle(mr.title) } : null;
  if (!input) return redirect(self, 'Nothing changed.');
  const done = { close: 'Merge request closed.', reopen: 'Merge request reopened.', draft: 'Marked as draft.', ready: 'Marked as ready.' }[event];
  try {
    await updateMergeRequest(deps, user.id, mr, target, input);
    return redirect(self, done);
  } catch (error) {
    return redirect(self, refusal(error));
  }
}

export async function postApproval(context: PageContext, access: ProjectAccess, approve: boolean): Promise<PageOutcome> {
  const { deps, user } = context;
  const { mr, target, self } = await load(context, access);
  try {
    if (approve) await approveMergeRequest(deps, access, user, mr, target, undefined);
    else await unapproveMergeRequest(deps, user, mr);
    return redirect(self, approve ? 'Approved.' : 'Approval revoked.');
  } catch (error) {
    return redirect(self, refusal(error));
  }
}

export async function postMerge(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, form, user } = context;
  const { mr, target, self } = await load(context, access);
  // Checked before the service so a reader without merge rights is told 403 rather than a flash.
  if (!(await canMergeToBranch(deps, target, user, mr.target_branch))) throw new ForbiddenError();
  const sha = str(form.sha);
  // "Set to auto-merge": merge when the running pipeline succeeds (GitLab's merge_when_pipeline_succeeds).
  const auto = str(form.auto_merge) === '1';
  try {
    const after = await mergeMergeRequest(deps, user, mr, target, {
      squash: target.squash_option === 'always' || target.squash_option === 'never' ? undefined : str(form.squash) === '1',
      shouldRemoveSourceBranch: str(form.should_remove_source_branch) === '1',
      ...(auto ? { mergeWhenPipelineSucceeds: true } : {}),
      ...(sha ? { sha } : {}),
    });
    return redirect(self, after.state === 'merged' ? 'Merged.' : 'Set to auto-merge.');
  } catch (error) {
    return redirect(self, `Not merged: ${refusal(error)}`);
  }
}

/** "Cancel auto-merge": its author or whoever may merge into the target branch (as the API's cancel). */
export async function postCancelAutoMerge(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, user } = context;
  const { mr, target, self } = await load(context, access);
  if (Number(mr.author_id) !== user.id && !(await canMergeToBranch(deps, target, user, mr.target_branch))) throw new ForbiddenError();
  return redirect(self, (await cancelAutoMerge(deps, user, mr)) ? 'Auto-merge canceled.' : 'Auto-merge was not set.');
}

export async function postRebase(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, user } = context;
  const { mr, target, self } = await load(context, access);
  // Whoever may write to the source branch (a fork's, collaboration included), as the API's rebase.
  const source = await sourceProjectOf(deps, mr, target);
  if (!source || !(await mayWriteSourceBranch(deps, user, mr, target, source))) throw new ForbiddenError();
  const scheduled = await scheduleRebase(deps, Number(mr.id), user.id, false);
  return redirect(self, scheduled ? 'Rebase scheduled.' : 'A rebase is already in progress.');
}
