import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import type { IssueRow, NoteRow } from './entities.js';

export interface NoteOptions {
  system?: boolean;
  /** Start a thread (POST …/discussions): the note's type is DiscussionNote. */
  thread?: boolean;
  /** Reply in this discussion (its notes already made DiscussionNotes by the caller). */
  discussionId?: string;
  /** Owners and administrators only (set_note_created_at), checked by the caller. */
  createdAt?: number;
}

/** A new discussion's id: 40 hexadecimal digits, as GitLab's (a SHA-1 of random data). */
export function newDiscussionId(): string {
  return randomBytes(20).toString('hex');
}

/**
 * Comment on an issue. Every note belongs to a discussion: its own (an individual note), a new thread,
 * or the thread it replies to. User comments (not system notes) record a `commented` event.
 */
export async function createIssueNote(deps: Deps, authorId: number, issue: IssueRow, body: string, options: NoteOptions = {}, executor: Executor = deps.db): Promise<NoteRow> {
  if (!body?.trim()) throw new ValidationError({ note: ["can't be blank"] });
  if (body.length > 1_000_000) throw new ValidationError({ note: ['is too long (maximum is 1000000 characters)'] });
  const now = deps.clock.now();
  const createdAt = options.createdAt ?? now;
  return inTransaction(executor, async (trx) => {
    const note = await trx
      .insertInto('notes')
      .values({
        project_id: issue.project_id,
        noteable_type: 'Issue',
        noteable_id: issue.id,
        author_id: authorId,
        body,
        system: options.system ? 1 : 0,
        discussion_id: options.discussionId ?? newDiscussionId(),
        type: options.thread || options.discussionId ? 'DiscussionNote' : null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx.updateTable('issues').set({ updated_at: now }).where('id', '=', issue.id).execute();
    await deps.domainEvents.publish(trx, { kind: 'note.created', projectId: Number(issue.project_id), actorId: authorId, noteId: Number(note.id), noteableType: 'Issue', noteableId: Number(issue.id), system: Boolean(options.system) });
    if (!options.system) {
      await recordEvent(trx, deps.clock, { projectId: Number(issue.project_id), authorId, action: 'commented', target: { type: 'Note', id: Number(note.id), iid: null, title: null } });
    }
    return note;
  });
}
