import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { NOTE_TARGET_TYPES } from '../platform/events/vocabulary.js';
import { forgetEventCounts } from '../events/api.js';
import type { NoteRow } from './entities.js';

/**
 * Delete a comment (GitLab's Notes::DestroyService), its `commented` event (Note's
 * `has_many :events, dependent: :delete_all`) and its award emoji. The rest of its thread stays.
 */
export async function destroyNote(deps: Deps, note: NoteRow): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    await trx.deleteFrom('events').where('project_id', '=', Number(note.project_id)).where('target_type', 'in', [...NOTE_TARGET_TYPES]).where('target_id', '=', note.id).execute();
    await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Note').where('awardable_id', '=', note.id).execute();
    await trx.deleteFrom('notes').where('id', '=', note.id).execute();
  });
  // Events below the count cache's watermark are gone: this node recounts (others within a minute, count-cache.ts).
  forgetEventCounts(deps);
}
