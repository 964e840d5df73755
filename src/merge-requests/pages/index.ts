// The merge request pages under a project's full path (issue 34): the list, a new merge request from
// two branches, and one merge request with its Overview, Commits and Changes and the forms that act
// on it. Every write goes through the services the API uses; each page declares the ability it
// needs, and the handlers ask the finer ones (merging follows the target branch's protection,
// approving the project's approval rules, resolving the thread's author or resolve_note).
import type { Feature } from '../../platform/feature.js';
import type { ProjectAbility } from '../../platform/auth/policies/abilities.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { namespacedPage, type PageContext } from '../../platform/web/page-route.js';
import type { PageOutcome } from '../../platform/web/page.js';
import { MERGE_REQUESTS_PATTERN, renderMergeRequestList } from './list-page.js';
import { NEW_MERGE_REQUEST_PATTERN, handleNewMergeRequest, renderNewMergeRequest } from './new-page.js';
import { AWARD_PATTERN, COMMITS_TAB_PATTERN, MERGE_REQUEST_PATTERN, NOTE_AWARD_PATTERN, WIDGET_PATTERN, postAward, postNoteAward, renderCommitsTab, renderOverview, renderWidget } from './show-page.js';
import { CHANGES_TAB_PATTERN, DIFF_NOTE_FORM_PATTERN, renderChangesTab, renderDiffNoteForm } from './changes-page.js';
import { EDIT_PATTERN, handleEdit, renderEdit } from './edit-page.js';
import { APPLY_SUGGESTION_PATTERN, SUBMIT_REVIEW_PATTERN, postApplySuggestion, postSubmitReview } from './review-actions.js';
import {
  APPROVE_PATTERN,
  CANCEL_AUTO_MERGE_PATTERN,
  MERGE_PATTERN,
  NOTES_PATTERN,
  REBASE_PATTERN,
  RESOLVE_PATTERN,
  STATE_PATTERN,
  UNAPPROVE_PATTERN,
  postApproval,
  postCancelAutoMerge,
  postMerge,
  postNote,
  postRebase,
  postResolve,
  postState,
} from './actions.js';

type Render = (context: PageContext, access: ProjectAccess) => Promise<PageOutcome>;

export const mergeRequestPagesFeature: Feature = {
  name: 'merge-request-pages',
  routes(app, deps) {
    // Public projects' merge requests are readable without signing in, as GitLab serves them.
    const reads: [RegExp, Render][] = [
      [MERGE_REQUESTS_PATTERN, renderMergeRequestList],
      [MERGE_REQUEST_PATTERN, renderOverview],
      [COMMITS_TAB_PATTERN, renderCommitsTab],
      [CHANGES_TAB_PATTERN, renderChangesTab],
      [WIDGET_PATTERN, renderWidget],
    ];
    for (const [pattern, render] of reads) namespacedPage(app, deps, { method: 'GET', pattern, ability: { project: 'read_merge_request' }, auth: 'optional', handler: async (context) => render(context, await context.project()) });
    const writes: ['GET' | 'POST', RegExp, ProjectAbility, Render][] = [
      // Opening one needs both ends: the source project's create_merge_request_from and the target's _in (one project here).
      ['GET', NEW_MERGE_REQUEST_PATTERN, 'create_merge_request_in', renderNewMergeRequest],
      ['POST', NEW_MERGE_REQUEST_PATTERN, 'create_merge_request_from', handleNewMergeRequest],
      ['GET', EDIT_PATTERN, 'update_merge_request', renderEdit],
      ['POST', EDIT_PATTERN, 'update_merge_request', handleEdit],
      ['POST', STATE_PATTERN, 'update_merge_request', postState],
      // A comment asks create_note and the discussion lock (canCommentOnMergeRequest in the handler).
      ['GET', DIFF_NOTE_FORM_PATTERN, 'create_note', renderDiffNoteForm],
      ['POST', NOTES_PATTERN, 'create_note', postNote],
      ['POST', SUBMIT_REVIEW_PATTERN, 'create_note', postSubmitReview],
      // Applying a suggestion pushes to the source branch (its protection asked in the handler).
      ['POST', APPLY_SUGGESTION_PATTERN, 'push_code', postApplySuggestion],
      // The merge request's author may resolve too: the handler asks canResolveThread.
      ['POST', RESOLVE_PATTERN, 'read_merge_request', postResolve],
      ['POST', APPROVE_PATTERN, 'approve_merge_request', (context, access) => postApproval(context, access, true)],
      ['POST', UNAPPROVE_PATTERN, 'read_merge_request', (context, access) => postApproval(context, access, false)],
      // Merging and rebasing follow the branches' protection (canMergeToBranch, mayWriteSourceBranch in the handlers).
      ['POST', MERGE_PATTERN, 'read_merge_request', postMerge],
      ['POST', CANCEL_AUTO_MERGE_PATTERN, 'read_merge_request', postCancelAutoMerge],
      ['POST', REBASE_PATTERN, 'read_merge_request', postRebase],
      // Reading it is declared; awarding (award_emoji) is asked in the handler.
      ['POST', AWARD_PATTERN, 'read_merge_request', postAward],
      ['POST', NOTE_AWARD_PATTERN, 'read_merge_request', postNoteAward],
    ];
    for (const [method, pattern, ability, render] of writes) namespacedPage(app, deps, { method, pattern, ability: { project: ability }, handler: async (context) => render(context, await context.project()) });
  },
};
