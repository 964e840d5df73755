// Merge request pipelines (GitLab's MergeRequests::CreatePipelineService, "detached" pipelines): when
// a merge request is opened, when its source branch is pushed, or on request (the API), a pipeline
// with source `merge_request_event` runs for the merge request's head on its
// `refs/merge-requests/<iid>/head`, with the CI_MERGE_REQUEST_* variables. Only jobs that ask for it
// (`rules: - if: $CI_PIPELINE_SOURCE == "merge_request_event"`, `only: [merge_requests]`) are in it;
// none: no pipeline. A merge request from a fork gets none (GitLab runs those in the fork, or in the
// parent only when a Maintainer asks; Kiln does neither yet).
import type { Deps } from '../../platform/deps.js';
import type { CiPipelineRow } from '../../commit-statuses/api.js';
import { findProjectRow } from '../../accounts/api.js';
import { createPipeline } from './create-pipeline.js';
import { mergeRequestPipelineFacts } from './merge-request-variables.js';
import { queueSignal } from '../queue-signal.js';

export const MERGE_REQUEST_PIPELINE_JOB = 'ci.merge_request_pipeline';

/** The merge request cannot have a pipeline: closed or merged, from a fork, gone, or without a version yet. */
export class MergeRequestPipelineRefused extends Error {}

/** The pipeline, or null when the configuration runs nothing for merge requests (background only). */
export async function createMergeRequestPipeline(deps: Deps, input: { mergeRequestId: number; userId: number | null; background: boolean }): Promise<CiPipelineRow | null> {
  const mr = await deps.db
    .selectFrom('merge_requests as m')
    .leftJoin('merge_request_diffs as d', 'd.id', 'm.latest_merge_request_diff_id')
    .select(['m.id', 'm.state', 'm.source_project_id', 'm.target_project_id', 'd.head_commit_sha'])
    .where('m.id', '=', input.mergeRequestId)
    .executeTakeFirst();
  if (!mr || mr.state !== 'opened' || Number(mr.source_project_id) !== Number(mr.target_project_id)) throw new MergeRequestPipelineRefused();
  if (!mr.head_commit_sha) throw new MergeRequestPipelineRefused('no diff version yet');
  const [project, facts] = await Promise.all([findProjectRow(deps, Number(mr.target_project_id)), mergeRequestPipelineFacts(deps, deps.db, Number(mr.id))]);
  if (!project || !facts) throw new MergeRequestPipelineRefused();
  const pipeline = await createPipeline(deps, {
    project, ref: facts.refPath, tag: false, sha: mr.head_commit_sha, beforeSha: null, source: 'merge_request_event', userId: input.userId, mergeRequest: facts,
    background: input.background,
  });
  if (pipeline) queueSignal(deps).tick();
  return pipeline;
}

/** The job of an opened or pushed merge request. At-least-once: the head's pipeline is made once. */
export async function mergeRequestPipelineJob(deps: Deps, payload: { mergeRequestId: number; actorId: number | null }): Promise<void> {
  const mr = await deps.db
    .selectFrom('merge_requests as m')
    .leftJoin('merge_request_diffs as d', 'd.id', 'm.latest_merge_request_diff_id')
    .select(['m.state', 'd.head_commit_sha'])
    .where('m.id', '=', Number(payload.mergeRequestId))
    .executeTakeFirst();
  if (!mr || mr.state !== 'opened') return;
  // Opened a moment ago: its first version (and its refs/merge-requests/<iid>/head) is still being
  // recorded; the job is tried again (with backoff) until it is.
  if (!mr.head_commit_sha) throw new Error(`merge request ${payload.mergeRequestId} has no diff version yet`);
  const existing = await deps.db.selectFrom('ci_pipelines').select('id').where('merge_request_id', '=', Number(payload.mergeRequestId)).where('sha', '=', mr.head_commit_sha).executeTakeFirst();
  if (existing) return;
  try {
    await createMergeRequestPipeline(deps, { mergeRequestId: Number(payload.mergeRequestId), userId: payload.actorId, background: true });
  } catch (error) {
    if (!(error instanceof MergeRequestPipelineRefused)) throw error;
  }
}

/** GitLab's MergeRequest#all_pipelines: its own pipelines and its source branch's for its heads, newest first. */
export function mergeRequestPipelinesQuery(deps: Deps, mr: { id: number; source_project_id: number | null; source_branch: string }) {
  return deps.db
    .selectFrom('ci_pipelines')
    .selectAll('ci_pipelines')
    .where((eb) => eb.or([
      eb('merge_request_id', '=', mr.id),
      eb.and([
        eb('project_id', '=', Number(mr.source_project_id ?? 0)),
        eb('ref', '=', mr.source_branch),
        eb('tag', '=', 0),
        // The heads of its diff versions (GitLab's recent_diff_head_shas); Kiln keeps no list of every commit.
        eb('sha', 'in', eb.selectFrom('merge_request_diffs').select('head_commit_sha').where('merge_request_id', '=', mr.id).where('head_commit_sha', 'is not', null)),
      ]),
    ]))
    .orderBy('id', 'desc');
}
