import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { BadRequestError } from '../platform/errors.js';
import type { IssueRow, NoteRow } from './entities.js';
import { createIssueNote } from './create-note.js';
import { findDiscussion } from './discussions-finder.js';

/**
 * Reply in a discussion (POST …/discussions/:discussion_id/notes). Replying to an individual comment
 * turns it into a thread, as GitLab converts it (IndividualNoteDiscussion#convert_to_discussion!);
 * system notes take no replies.
 */
export async function replyToDiscussion(deps: Deps, authorId: number, issue: IssueRow, discussionId: string, body: string, createdAt?: number): Promise<NoteRow> {
  return inTransaction(deps.db, async (trx) => {
    const notes = await findDiscussion(trx, Number(issue.id), discussionId);
    const [first] = notes;
    if (Number(first.system) === 1) throw new BadRequestError('Discussion can not be replied to.');
    if (first.type === null) await trx.updateTable('notes').set({ type: 'DiscussionNote' }).where('id', '=', first.id).execute();
    return createIssueNote(deps, authorId, issue, body, { discussionId, createdAt }, trx);
  });
}
