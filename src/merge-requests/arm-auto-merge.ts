// Merge when pipeline succeeds (GitLab's AutoMerge::MergeWhenPipelineSucceedsService): `PUT …/merge`
// with `merge_when_pipeline_succeeds` while the head pipeline is still active arms an automatic merge
// instead — the merge request keeps who armed it (`merge_user`) and the merge's parameters
// (`merge_params`) — and merges, as that user, once the pipeline succeeds (auto-merge-job.ts). A push
// to the source branch disarms it (refresh-merge-requests.ts); a failed pipeline does not, as in
// GitLab: a later successful status (a retried job) still merges. `POST …/cancel_merge_when_pipeline_succeeds`
// disarms it by hand.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { inTransaction } from '../platform/db/database.js';
import { enqueue } from '../platform/jobs/queue.js';
import { StatusError } from '../platform/errors.js';
import type { MergeRequestRow } from './rows.js';
import { findMergeRequestById } from './finder.js';
import { addSystemNote } from './system-notes.js';

export const AUTO_MERGE_JOB = 'merge_requests.auto_merge';

/** What the automatic merge will merge with (GitLab's merge_params), kept as JSON on the merge request. */
export interface AutoMergeParams {
  sha: string;
  mergeCommitMessage?: string;
  squashCommitMessage?: string;
  squash?: boolean;
  shouldRemoveSourceBranch?: boolean;
}

export function readAutoMergeParams(mr: Pick<MergeRequestRow, 'merge_params'>): AutoMergeParams | null {
  if (!mr.merge_params) return null;
  try {
    const parsed = JSON.parse(mr.merge_params) as AutoMergeParams;
    return typeof parsed?.sha === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Arms (or re-arms with new parameters) the automatic merge of an open merge request. A job is
 * enqueued with it: a pipeline that succeeded between the check and this commit still merges.
 */
export async function armAutoMerge(deps: Deps, actor: AuthUser, mr: MergeRequestRow, params: AutoMergeParams): Promise<MergeRequestRow> {
  const now = deps.clock.now();
  await inTransaction(deps.db, async (trx) => {
    const armed = await trx
      .updateTable('merge_requests')
      .set({ merge_when_pipeline_succeeds: 1, merge_user_id: actor.id, merge_params: JSON.stringify(params), merge_error: null, updated_at: now })
      .where('id', '=', Number(mr.id))
      .where('state', '=', 'opened')
      .executeTakeFirst();
    if (Number(armed.numUpdatedRows) === 0) throw new StatusError(405, '405 Method Not Allowed');
    if (Number(mr.merge_when_pipeline_succeeds) !== 1) await addSystemNote(trx, mr, actor.id, `enabled an automatic merge when the pipeline for ${params.sha} succeeds`, now);
    await enqueue(trx, deps.clock, AUTO_MERGE_JOB, { mergeRequestId: Number(mr.id) });
  });
  deps.pokeWorker();
  return (await findMergeRequestById(deps.db, Number(mr.id)))!;
}

/** Disarms it (cancel_merge_when_pipeline_succeeds); false when it was not armed. */
export async function cancelAutoMerge(deps: Deps, actor: AuthUser, mr: MergeRequestRow): Promise<boolean> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const disarmed = await trx
      .updateTable('merge_requests')
      .set({ merge_when_pipeline_succeeds: 0, merge_user_id: null, merge_params: null, updated_at: now })
      .where('id', '=', Number(mr.id))
      .where('state', '=', 'opened')
      .where('merge_when_pipeline_succeeds', '=', 1)
      .executeTakeFirst();
    if (Number(disarmed.numUpdatedRows) === 0) return false;
    await addSystemNote(trx, mr, actor.id, 'canceled the automatic merge', now);
    return true;
  });
}
