// The review's form posts: "Submit review" publishes the viewer's draft notes at once (the draft
// notes API's bulk_publish), "Apply suggestion" applies one suggestion of a diff thread as a commit
// on the source branch (PUT /suggestions/:id/apply), for those who may push there.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canCommentOnMergeRequest } from '../../platform/auth/policies/index.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { redirect, type PageOutcome } from '../../platform/web/page.js';
import { ForbiddenError, NotFoundError, StatusError } from '../../platform/errors.js';
import { mayPushToBranch } from '../../repositories/api.js';
import { mergeRequestNoteable } from '../review/merge-request-noteable-type.js';
import { draftsOf } from '../review/draft-notes/draft-notes.js';
import { publishDrafts } from '../review/draft-notes/publish-draft-notes.js';
import { applySuggestions } from '../review/suggestions/apply-suggestions.js';
import { load } from './show-page.js';
import { returnPath } from './return-to.js';

export const SUBMIT_REVIEW_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/review$/;
export const APPLY_SUGGESTION_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/suggestions\/(?<suggestion>\d{1,12})\/apply$/;

export async function postSubmitReview(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, user } = context;
  const { mr, self } = await load(context, access);
  if (!canCommentOnMergeRequest(access, mr)) throw new ForbiddenError();
  const noteable = mergeRequestNoteable(mr);
  const notes = await publishDrafts(deps, access, user.id, noteable, await draftsOf(deps, noteable, user.id), true);
  return redirect(self, notes.length ? `Review submitted: ${notes.length} comment${notes.length === 1 ? '' : 's'}.` : 'Nothing to submit.');
}

export async function postApplySuggestion(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, user } = context;
  const { mr, target, self } = await load(context, access);
  const suggestion = await deps.db.selectFrom('suggestions').selectAll().where('id', '=', Number(context.match.suggestion)).executeTakeFirst();
  const note = suggestion ? await deps.db.selectFrom('notes').selectAll().where('id', '=', Number(suggestion.note_id)).where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', Number(mr.id)).executeTakeFirst() : undefined;
  if (!suggestion || !note) throw new NotFoundError('Suggestion');
  if (!(await mayPushToBranch(deps, access, mr.source_branch))) throw new ForbiddenError();
  // Back where it was applied from (the Changes tab's page, or the Overview), at its thread.
  const back = returnPath(self, context.form, `#discussion_${note.discussion_id}`, 'diffs');
  try {
    await applySuggestions(deps, access, target, user, [{ suggestion, note, mr }], undefined);
    return redirect(back, 'Suggestion applied.');
  } catch (error) {
    if (error instanceof StatusError) return redirect(back, `Suggestion not applied: ${String(error.body)}`);
    throw error;
  }
}
