// A merge request's notes as GitLab's Note entities: their users (authors, resolvers) and the
// suggestions of its diff notes read once for the page (GitLab's Suggestion entity: from_line and
// to_line around the note's current line, whether it can be applied now).
import type { Deps } from '../../platform/deps.js';
import { discussionEntity, noteEntity, noteUserIds, usersById, type NotePresenter, type NoteRow } from '../../issues/api.js';
import type { MergeRequestRow } from '../rows.js';
import { latestDiffOf } from '../finder.js';
import { readPosition } from './position.js';
import { isActive } from './diff-threads.js';
import { suggestionEntity, type SuggestionRow } from './suggestions/suggestion-entity.js';

export async function presentMergeRequestNotes(deps: Deps, noteable: { iid: number; mr: MergeRequestRow }, notes: NoteRow[]): Promise<NotePresenter> {
  const diffNoteIds = notes.filter((note) => note.type === 'DiffNote').map((note) => Number(note.id));
  const [users, suggestions, latest] = await Promise.all([
    usersById(deps.db, noteUserIds(notes)),
    diffNoteIds.length ? deps.db.selectFrom('suggestions').selectAll().where('note_id', 'in', diffNoteIds).orderBy('note_id').orderBy('relative_order').execute() : Promise.resolve([] as SuggestionRow[]),
    diffNoteIds.length ? latestDiffOf(deps.db, noteable.mr) : Promise.resolve(null),
  ]);
  const byNote = new Map(notes.map((note) => [Number(note.id), note]));
  const extras = {
    suggestions: (noteId: number) => {
      const note = byNote.get(noteId)!;
      const position = readPosition(note.position);
      const active = isActive(note, latest);
      return suggestions.filter((row) => Number(row.note_id) === noteId).map((row) => suggestionEntity(row, position, { active, mrState: noteable.mr.state }));
    },
  };
  const baseUrl = deps.config.baseUrl;
  return {
    note: (row) => noteEntity(baseUrl, row, users, noteable.iid, extras),
    discussion: (id, rows) => discussionEntity(baseUrl, id, rows, users, noteable.iid, extras),
  };
}
