// System notes on merge requests (GitLab's SystemNoteService, app/services/system_notes): rows of
// `notes` with noteable_type 'MergeRequest' and system set, each its own discussion, written in the
// transaction of the change they record.
import { randomBytes } from 'node:crypto';
import type { Executor } from '../platform/db/database.js';
import type { MergeRequestRow } from './entities.js';

export async function addSystemNote(trx: Executor, mr: Pick<MergeRequestRow, 'id' | 'target_project_id'>, authorId: number, body: string, now: number): Promise<number> {
  const row = await trx
    .insertInto('notes')
    .values({
      project_id: Number(mr.target_project_id),
      noteable_type: 'MergeRequest',
      noteable_id: Number(mr.id),
      author_id: authorId,
      body,
      system: 1,
      discussion_id: randomBytes(20).toString('hex'),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
