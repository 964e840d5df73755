import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import { RecordNotFoundError } from '../platform/errors.js';
import type { NoteRow } from './entities.js';
import { checkNoteBody } from './create-note.js';

/** Change a comment's text (GitLab's Notes::UpdateService). */
export async function updateNote(deps: Deps, note: NoteRow, body: string, executor: Executor = deps.db): Promise<NoteRow> {
  checkNoteBody(body);
  const updated = await executor.updateTable('notes').set({ body, updated_at: deps.clock.now() }).where('id', '=', note.id).returningAll().executeTakeFirst();
  if (!updated) throw new RecordNotFoundError();
  return updated;
}
