// The automatic merge's work (arm-auto-merge.ts), as jobs: a pipeline whose status changed to
// `success` looks for the merge requests armed on its sha; each is merged by its merge user with the
// parameters kept when it was armed, through the ordinary merge (its checks, the merge user's rights
// on the target branch, the `sha` guard against a moved head). The merge locks the merge request
// (opened → locked, a guarded update), so two processes running the job at once merge it once: the
// other finds it locked or merged and stops. A refused merge stays armed with the reason in
// `merge_error`, as GitLab's.
import type { Deps } from '../platform/deps.js';
import type { EventTx } from '../platform/domain-events.js';
import { enqueue } from '../platform/jobs/queue.js';
import { StatusError } from '../platform/errors.js';
import { ApiError } from '../platform/http/api-error.js';
import { toAuthUser } from '../accounts/api.js';
import { findMergeRequestById, fullProject, latestDiffOf } from './finder.js';
import { mergeMergeRequest } from './merge-merge-request.js';
import { AUTO_MERGE_JOB, readAutoMergeParams } from './arm-auto-merge.js';

export const AUTO_MERGE_PIPELINE_JOB = 'merge_requests.auto_merge_pipeline';

/** Listener of `pipeline.status_changed`: only a success can merge anything. */
export async function onPipelineStatus(tx: EventTx, deps: Deps, event: { projectId: number; sha: string; status: string }): Promise<void> {
  if (event.status !== 'success') return;
  await enqueue(tx, deps.clock, AUTO_MERGE_PIPELINE_JOB, { projectId: event.projectId, sha: event.sha });
}

/** The merge requests armed on a pipeline's sha, each in a job of its own. */
export async function autoMergePipelineJob(deps: Deps, payload: { projectId: number; sha: string }): Promise<void> {
  const armed = await deps.db
    .selectFrom('merge_requests as m')
    .innerJoin('merge_request_diffs as d', 'd.id', 'm.latest_merge_request_diff_id')
    .select('m.id')
    .where('m.source_project_id', '=', Number(payload.projectId))
    .where('m.state', '=', 'opened')
    .where('m.merge_when_pipeline_succeeds', '=', 1)
    .where('d.head_commit_sha', '=', String(payload.sha))
    .limit(100)
    .execute();
  for (const row of armed) await enqueue(deps.db, deps.clock, AUTO_MERGE_JOB, { mergeRequestId: Number(row.id) });
  if (armed.length) deps.pokeWorker();
}

export async function autoMergeJob(deps: Deps, payload: { mergeRequestId: number }): Promise<void> {
  const mr = await findMergeRequestById(deps.db, Number(payload.mergeRequestId));
  const params = mr ? readAutoMergeParams(mr) : null;
  if (!mr || !params || mr.state !== 'opened' || Number(mr.merge_when_pipeline_succeeds) !== 1 || mr.merge_user_id === null) return;
  const [target, latest, user] = await Promise.all([
    fullProject(deps.db, Number(mr.target_project_id)),
    latestDiffOf(deps.db, mr),
    deps.db.selectFrom('users').selectAll().where('id', '=', Number(mr.merge_user_id)).executeTakeFirst(),
  ]);
  if (!target || !user || latest?.head_commit_sha !== params.sha) return;
  try {
    await mergeMergeRequest(deps, toAuthUser(user), mr, target, { ...params, mergeWhenPipelineSucceeds: true, automatic: true });
  } catch (error) {
    // Not mergeable (yet): the pipeline is not green, a check fails, the merge user may no longer
    // merge, or another process merges it.
    if (error instanceof StatusError || error instanceof ApiError) return;
    throw error;
  }
}
