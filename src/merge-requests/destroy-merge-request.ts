// Deleting a merge request (Owners; GitLab's Issuable::DestroyService): its notes, award emoji and
// subscriptions go with it, its other rows by cascade, and its refs from the repository.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { MergeRequestRow } from './entities.js';
import { dropMergeRequestRefs, readRepository } from './mr-repository.js';

export async function destroyMergeRequest(deps: Deps, mr: MergeRequestRow, target: ProjectRow): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const notes = trx.selectFrom('notes').select('id').where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', Number(mr.id));
    await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Note').where('awardable_id', 'in', notes).execute();
    await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'MergeRequest').where('awardable_id', '=', Number(mr.id)).execute();
    await trx.deleteFrom('subscriptions').where('subscribable_type', '=', 'MergeRequest').where('subscribable_id', '=', Number(mr.id)).execute();
    await trx.deleteFrom('notes').where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', Number(mr.id)).execute();
    await trx.deleteFrom('merge_requests').where('id', '=', Number(mr.id)).execute();
  });
  const repoPath = await readRepository(deps, target);
  if (repoPath) await dropMergeRequestRefs(repoPath, mr.iid);
}
