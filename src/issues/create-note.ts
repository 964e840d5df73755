import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import type { IssueRow, NoteRow } from './entities.js';
import { noteEventTargetType, touchNoteable, type Noteable } from './noteable.js';

/** Where a DiffNote is (GitLab's position JSON, already validated by the caller), copied to its replies. */
export interface DiffAttributes {
  position: string;
  originalPosition: string;
  lineCode: string | null;
  commitId: string | null;
  /** The diff version the position was last traced to (merge requests' position tracing). */
  tracedToDiffId?: number | null;
}

export interface NoteOptions {
  system?: boolean;
  /** Start a thread (POST …/discussions): the note's type is DiscussionNote. */
  thread?: boolean;
  /** Reply in this discussion (its notes already made DiscussionNotes by the caller). */
  discussionId?: string;
  /** A note on a diff line: a DiffNote with its position. */
  diff?: DiffAttributes;
  /** Owners and administrators only (set_note_created_at), checked by the caller. */
  createdAt?: number;
}

/** A new discussion's id: 40 hexadecimal digits, as GitLab's (a SHA-1 of random data). */
export function newDiscussionId(): string {
  return randomBytes(20).toString('hex');
}

export function issueNoteable(issue: Pick<IssueRow, 'id' | 'project_id' | 'iid'>): Noteable {
  return { type: 'Issue', id: Number(issue.id), projectId: Number(issue.project_id), iid: issue.iid };
}

/** GitLab's Note validations of the text. */
export function checkNoteBody(body: string): void {
  if (!body?.trim()) throw new ValidationError({ note: ["can't be blank"] });
  if (body.length > 1_000_000) throw new ValidationError({ note: ['is too long (maximum is 1000000 characters)'] });
}

/**
 * Comment on a noteable. Every note belongs to a discussion: its own (an individual note), a new
 * thread, or the thread it replies to. User comments (not system notes) record a `commented` event
 * whose target is the note's class (Note, DiscussionNote, DiffNote), and every note publishes
 * `note.created` in its transaction (hooks, e-mail, to-dos listen).
 */
export async function createNote(deps: Deps, authorId: number, noteable: Noteable, body: string, options: NoteOptions = {}, executor: Executor = deps.db): Promise<NoteRow> {
  checkNoteBody(body);
  const now = deps.clock.now();
  const createdAt = options.createdAt ?? now;
  const type = options.diff ? 'DiffNote' : options.thread || options.discussionId ? 'DiscussionNote' : null;
  return inTransaction(executor, async (trx) => {
    const note = await trx
      .insertInto('notes')
      .values({
        project_id: noteable.projectId,
        noteable_type: noteable.type,
        noteable_id: noteable.id,
        author_id: authorId,
        body,
        system: options.system ? 1 : 0,
        discussion_id: options.discussionId ?? newDiscussionId(),
        type,
        ...(noteable.commitId ? { commit_id: noteable.commitId } : {}),
        ...(options.diff ? { position: options.diff.position, original_position: options.diff.originalPosition, line_code: options.diff.lineCode, commit_id: options.diff.commitId, traced_to_diff_id: options.diff.tracedToDiffId ?? null } : {}),
        created_at: createdAt,
        updated_at: createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await touchNoteable(trx, noteable, now);
    await deps.domainEvents.publish(trx, { kind: 'note.created', projectId: noteable.projectId, actorId: authorId, noteId: Number(note.id), noteableType: noteable.type, noteableId: noteable.id, system: Boolean(options.system) });
    if (!options.system) {
      await recordEvent(trx, deps.clock, { projectId: noteable.projectId, authorId, action: 'commented', target: { type: noteEventTargetType(type), id: Number(note.id), iid: null, title: null } });
    }
    return note;
  });
}

/** Comment on an issue (createNote for an issue row). */
export function createIssueNote(deps: Deps, authorId: number, issue: IssueRow, body: string, options: NoteOptions = {}, executor: Executor = deps.db): Promise<NoteRow> {
  return createNote(deps, authorId, issueNoteable(issue), body, options, executor);
}
