import type { Deps } from '../platform/deps.js';
import { RecordNotFoundError, ValidationError } from '../platform/errors.js';
import type { NoteRow } from './entities.js';

/** Change a comment's text (GitLab's Notes::UpdateService). */
export async function updateNote(deps: Deps, note: NoteRow, body: string): Promise<NoteRow> {
  if (!body.trim()) throw new ValidationError({ note: ["can't be blank"] });
  const updated = await deps.db.updateTable('notes').set({ body, updated_at: deps.clock.now() }).where('id', '=', note.id).returningAll().executeTakeFirst();
  if (!updated) throw new RecordNotFoundError();
  return updated;
}
