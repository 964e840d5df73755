import type { Deps } from '../platform/deps.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { BadRequestError } from '../platform/errors.js';
import type { NoteRow } from './entities.js';
import { createNote } from './create-note.js';
import { findDiscussion } from './discussions-finder.js';
import type { Noteable } from './noteable.js';

/**
 * Reply in a discussion (POST …/discussions/:discussion_id/notes). Replying to an individual comment
 * turns it into a thread, as GitLab converts it (IndividualNoteDiscussion#convert_to_discussion!);
 * system notes take no replies. A reply in a diff thread is a DiffNote at the thread's position
 * (DiffDiscussion#reply_attributes).
 */
export async function replyToDiscussion(deps: Deps, authorId: number, noteable: Noteable, discussionId: string, body: string, createdAt?: number, executor: Executor = deps.db): Promise<NoteRow> {
  return inTransaction(executor, async (trx) => {
    const notes = await findDiscussion(trx, noteable, discussionId);
    const [first] = notes;
    if (Number(first.system) === 1) throw new BadRequestError('Discussion can not be replied to.');
    if (first.type === null) await trx.updateTable('notes').set({ type: 'DiscussionNote' }).where('id', '=', first.id).execute();
    const diff = first.type === 'DiffNote' && first.position !== null
      ? { position: first.position, originalPosition: first.original_position ?? first.position, lineCode: first.line_code, commitId: first.commit_id, tracedToDiffId: first.traced_to_diff_id }
      : undefined;
    return createNote(deps, authorId, noteable, body, { discussionId, createdAt, diff }, trx);
  });
}
