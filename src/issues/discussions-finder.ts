// A noteable's discussions (GitLab's Discussion.build_collection): notes grouped by discussion id, the
// discussions ordered by their first note, each discussion's notes oldest first; and its notes as a list.
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import { NotFoundError, RecordNotFoundError } from '../platform/errors.js';
import type { NoteRow } from './entities.js';
import type { Noteable } from './noteable.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { visibleNotes } from './cross-reference-visibility.js';

type NoteableKey = Pick<Noteable, 'type' | 'id'>;

/** The noteable's discussion ids in the order they started, for paging. */
export function discussionIdsQuery(deps: Deps, noteable: NoteableKey) {
  return deps.db
    .selectFrom('notes')
    .select(['discussion_id', deps.db.fn.min('id').as('first_id')])
    .where('noteable_type', '=', noteable.type)
    .where('noteable_id', '=', noteable.id)
    .groupBy('discussion_id')
    .orderBy('first_id');
}

/** The notes of these discussions, grouped, in the order of `ids`. */
export async function discussionsOf(db: Executor, noteable: NoteableKey, ids: string[]): Promise<Array<{ id: string; notes: NoteRow[] }>> {
  if (ids.length === 0) return [];
  const notes = await db.selectFrom('notes').selectAll().where('noteable_type', '=', noteable.type).where('noteable_id', '=', noteable.id).where('discussion_id', 'in', ids).orderBy('id').execute();
  return ids.map((id) => ({ id, notes: notes.filter((note) => note.discussion_id === id) }));
}

/** One discussion's notes; `404 Discussion Not Found` when the noteable has none with that id. */
export async function findDiscussion(db: Executor, noteable: NoteableKey, discussionId: string): Promise<NoteRow[]> {
  const [discussion] = await discussionsOf(db, noteable, [discussionId]);
  if (discussion.notes.length === 0) throw new NotFoundError('Discussion');
  return discussion.notes;
}

/** A note of the noteable (GitLab's `noteable.notes.find`): `404 Not found` otherwise. */
export async function findNote(db: Executor, noteable: NoteableKey, noteId: number): Promise<NoteRow> {
  const note = await db.selectFrom('notes').selectAll().where('noteable_type', '=', noteable.type).where('noteable_id', '=', noteable.id).where('id', '=', noteId).executeTakeFirst();
  if (!note) throw new RecordNotFoundError();
  return note;
}

/** The discussions `access`'s reader may see: hidden "mentioned in" notes left out, a discussion left with none dropped. */
export async function visibleDiscussions(deps: Deps, access: ProjectAccess, discussions: Array<{ id: string; notes: NoteRow[] }>): Promise<Array<{ id: string; notes: NoteRow[] }>> {
  const shown = new Set(await visibleNotes(deps, access.user, discussions.flatMap((discussion) => discussion.notes), access));
  return discussions.map((discussion) => ({ id: discussion.id, notes: discussion.notes.filter((note) => shown.has(note)) })).filter((discussion) => discussion.notes.length > 0);
}

/** findDiscussion for a reader: a discussion of hidden notes only is `404 Discussion Not Found`. */
export async function findVisibleDiscussion(deps: Deps, access: ProjectAccess, noteable: NoteableKey, discussionId: string): Promise<NoteRow[]> {
  const notes = await visibleNotes(deps, access.user, await findDiscussion(deps.db, noteable, discussionId), access);
  if (notes.length === 0) throw new NotFoundError('Discussion');
  return notes;
}

/** findNote for a reader: a hidden "mentioned in" note is `404 Not found`. */
export async function findVisibleNote(deps: Deps, access: ProjectAccess, noteable: NoteableKey, noteId: number): Promise<NoteRow> {
  const [note] = await visibleNotes(deps, access.user, [await findNote(deps.db, noteable, noteId)], access);
  if (!note) throw new RecordNotFoundError();
  return note;
}

/** A noteable's notes by creation (or update) time, then id, in the direction asked (GET …/notes). */
export function notesQuery(deps: Deps, noteable: NoteableKey, orderBy: 'created_at' | 'updated_at', direction: 'asc' | 'desc') {
  return deps.db.selectFrom('notes').selectAll().where('noteable_type', '=', noteable.type).where('noteable_id', '=', noteable.id).orderBy(orderBy, direction).orderBy('id', direction);
}
