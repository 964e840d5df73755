// A review on the pages (GitLab's "Start a review" / "Add to review" / "Submit review"): the comment
// forms carry a second button that keeps the comment as a draft note instead of publishing it; the
// merge request then shows the viewer's pending comments with "Submit review" (review-actions.ts),
// which publishes them all at once. Plain forms: no script needed.
import type { Deps } from '../../platform/deps.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import type { MergeRequestRow } from '../rows.js';
import { mergeRequestNoteable } from '../review/merge-request-noteable-type.js';
import { draftsOf, type DraftNoteRow } from '../review/draft-notes/draft-notes.js';
import { readPosition } from '../review/position.js';

/** The viewer's pending comments on the merge request (none when signed out). */
export function viewerDrafts(deps: Deps, context: PageContext, mr: MergeRequestRow): Promise<DraftNoteRow[]> {
  return context.user ? draftsOf(deps, mergeRequestNoteable(mr), context.user.id) : Promise.resolve([]);
}

/** The second submit button of a comment form. */
export function reviewButton(reviewing: boolean): Html {
  return html`<button type="submit" name="review" value="1" class="secondary">${reviewing ? 'Add to review' : 'Start a review'}</button>`;
}

function draftWhere(draft: DraftNoteRow): string {
  const position = readPosition(draft.position);
  if (position) return `${position.new_path ?? position.old_path ?? ''} line ${position.new_line ?? position.old_line ?? ''}`;
  return draft.discussion_id ? 'reply in a thread' : 'comment';
}

export function reviewPanel(context: PageContext, self: string, drafts: DraftNoteRow[]): Html {
  if (drafts.length === 0) return html``;
  return html`<section class="review-panel" id="pending-review" aria-labelledby="pending-review-heading">
<h2 id="pending-review-heading">Your review: ${drafts.length} pending comment${drafts.length === 1 ? '' : 's'}</h2>
<p class="muted">Only you see them until you submit the review.</p>
<ul>${drafts.map((draft) => html`<li><span class="muted">${draftWhere(draft)}:</span> ${draft.note.length > 200 ? `${draft.note.slice(0, 200)}…` : draft.note}</li>`)}</ul>
<form method="post" action="${self}/review" class="inline">${csrfField(context)}<button type="submit" id="submit-review">Submit review</button></form>
</section>`;
}

