// Draft notes (GitLab's DraftNote, DraftNotes::CreateService): a review in progress, seen only by its
// author. A draft is a new thread (with `position` on a diff line) or a reply to a thread
// (`in_reply_to_discussion_id`, optionally resolving it when published). Its position is checked
// against the merge request's diffs when it is written, so that publishing does not fail on it.
import type { Selectable } from 'kysely';
import type { Deps } from '../../../platform/deps.js';
import type { ProjectAccess } from '../../../platform/auth/subjects.js';
import { canResolveThread } from '../../../platform/auth/policies/index.js';
import { RecordNotFoundError, ValidationError } from '../../../platform/errors.js';
import { checkNoteBody } from '../../../issues/api.js';
import type { DraftNotesTable } from '../../../platform/db/tables/review.js';
import { positionJson } from '../position.js';
import { placeThread } from '../start-thread.js';
import type { MergeRequestNoteable } from '../merge-request-noteable-type.js';

export type DraftNoteRow = Selectable<DraftNotesTable>;

export interface DraftInput {
  note: string;
  position?: unknown;
  commitId?: string | null;
  inReplyTo?: string | null;
  resolveDiscussion?: boolean;
}

/** GitLab's DraftNote entity; `position` is `{}` for a draft that is not on a diff line (nil.to_h). */
export function draftNoteEntity(row: DraftNoteRow) {
  return {
    id: Number(row.id),
    author_id: Number(row.author_id),
    merge_request_id: Number(row.merge_request_id),
    resolve_discussion: Number(row.resolve_discussion) === 1,
    discussion_id: row.discussion_id,
    note: row.note,
    commit_id: row.commit_id,
    line_code: row.line_code,
    position: row.position ? JSON.parse(row.position) : {},
  };
}

export function draftsOf(deps: Deps, mr: MergeRequestNoteable, authorId: number): Promise<DraftNoteRow[]> {
  return deps.db.selectFrom('draft_notes').selectAll().where('merge_request_id', '=', mr.id).where('author_id', '=', authorId).orderBy('id').limit(1000).execute();
}

/** One of the caller's drafts on the merge request; another's or an unknown id is `404 Not found`. */
export async function findDraft(deps: Deps, mr: MergeRequestNoteable, authorId: number, id: number): Promise<DraftNoteRow> {
  const row = await deps.db.selectFrom('draft_notes').selectAll().where('id', '=', id).where('merge_request_id', '=', mr.id).where('author_id', '=', authorId).executeTakeFirst();
  if (!row) throw new RecordNotFoundError();
  return row;
}

/** A placed diff position (stored as placed) and its line code, or none. */
async function placedPosition(deps: Deps, mr: MergeRequestNoteable, raw: unknown, commitId: string | null): Promise<{ position: string | null; lineCode: string | null }> {
  if (raw === undefined || raw === null) return { position: null, lineCode: null };
  const { placed } = await placeThread(deps, mr, raw, commitId);
  return { position: positionJson(placed.position), lineCode: placed.lineCode };
}

export async function createDraft(deps: Deps, access: ProjectAccess, authorId: number, mr: MergeRequestNoteable, input: DraftInput): Promise<DraftNoteRow> {
  checkNoteBody(input.note);
  let discussionId: string | null = null;
  let raw = input.position;
  let commitId = input.commitId ?? null;
  if (input.inReplyTo) {
    const first = await deps.db.selectFrom('notes').selectAll().where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', mr.id).where('discussion_id', '=', input.inReplyTo).orderBy('id').executeTakeFirst();
    if (!first || Number(first.system) === 1) throw new ValidationError({ base: ['Thread to reply to cannot be found'] });
    discussionId = first.discussion_id;
    // A reply is published into its thread, at the thread's place; its own position is not asked for.
    raw = undefined;
    commitId = null;
  }
  if (input.resolveDiscussion && !(discussionId && canResolveThread(access, mr.mr))) throw new ValidationError({ base: ['User is not allowed to resolve thread'] });
  const { position, lineCode } = await placedPosition(deps, mr, raw, commitId);
  const now = deps.clock.now();
  return deps.db
    .insertInto('draft_notes')
    .values({ merge_request_id: mr.id, author_id: authorId, note: input.note, discussion_id: discussionId, commit_id: position ? commitId : null, position, line_code: lineCode, resolve_discussion: input.resolveDiscussion ? 1 : 0, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** PUT …/draft_notes/:id: the text, and the position when one is given (checked as on create). */
export async function updateDraft(deps: Deps, mr: MergeRequestNoteable, draft: DraftNoteRow, note: string, rawPosition: unknown): Promise<DraftNoteRow> {
  checkNoteBody(note);
  const placed = rawPosition === undefined || rawPosition === null || draft.discussion_id ? null : await placedPosition(deps, mr, rawPosition, draft.commit_id);
  const updated = await deps.db
    .updateTable('draft_notes')
    .set({ note, updated_at: deps.clock.now(), ...(placed ? { position: placed.position, line_code: placed.lineCode } : {}) })
    .where('id', '=', Number(draft.id))
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new RecordNotFoundError();
  return updated;
}
