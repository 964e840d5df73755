// Merge request pipelines (GitLab's MergeRequests::CreatePipelineService, "detached" pipelines): when
// a merge request is opened, when its source branch is pushed, or on request (the API), a pipeline
// with source `merge_request_event` runs for the merge request's head, with the CI_MERGE_REQUEST_*
// variables. Only jobs that ask for it (`rules: - if: $CI_PIPELINE_SOURCE == "merge_request_event"`,
// `only: [merge_requests]`) are in it; none: no pipeline. Where it runs is GitLab's
// pipeline_project_and_ref: in the target project on `refs/merge-requests/<iid>/head` when the user
// may run pipelines there (for a fork's merge request, when the target lets forks' pipelines run in
// it, ci_allow_fork_pipelines_to_run_in_parent_project; otherwise when the user may update the source
// branch there), else in the source project on the source branch — so a fork's author, who cannot
// run pipelines in the parent, gets the pipeline in the fork, and a parent's Maintainer who asks runs
// it in the parent.
import type { Deps } from '../../platform/deps.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import type { CiPipelineRow } from '../../commit-statuses/api.js';
import { actsInName, findProjectRow, toAuthUser, userCanOnProject } from '../../accounts/api.js';
import { canMergeToBranch } from '../../repositories/api.js';
import { parseStored } from '../../platform/db/stored-json.js';
import { createPipeline } from './create-pipeline.js';
import { mergeRequestPipelineFacts } from './merge-request-variables.js';
import { queueSignal } from '../queue-signal.js';

export const MERGE_REQUEST_PIPELINE_JOB = 'ci.merge_request_pipeline';

/** The merge request cannot have a pipeline: closed or merged, gone, without a version yet, or the user may run none. */
export class MergeRequestPipelineRefused extends Error {}

interface Placement {
  project: ProjectRow;
  /** The pipeline's ref: the merge request's ref in the target, the source branch in the source project. */
  ref: string | null;
}

async function placement(deps: Deps, mr: { source_branch: string }, target: ProjectRow, source: ProjectRow, userId: number | null): Promise<Placement | null> {
  const fork = Number(source.id) !== Number(target.id);
  // Made by an event without an actor: where GitLab would run it for the author's push.
  if (userId === null) return fork ? { project: source, ref: mr.source_branch } : { project: target, ref: null };
  const row = await deps.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  // An access token's bot only while one of its tokens is usable: a job queued before they were revoked runs nothing.
  if (!row || !(await actsInName(deps, row))) return null;
  const user = toAuthUser(row);
  const now = deps.clock.now();
  if (await userCanOnProject(deps.reads, user, target, 'create_pipeline', now)) {
    const inTarget = fork ? parseStored(target.settings).ci_allow_fork_pipelines_to_run_in_parent_project !== false : await canMergeToBranch(deps, target, user, mr.source_branch);
    if (inTarget) return { project: target, ref: null };
  }
  return (await userCanOnProject(deps.reads, user, source, 'create_pipeline', now)) ? { project: source, ref: mr.source_branch } : null;
}

/** The pipeline, or null when the configuration runs nothing for merge requests (background only). */
export async function createMergeRequestPipeline(deps: Deps, input: { mergeRequestId: number; userId: number | null; background: boolean }): Promise<CiPipelineRow | null> {
  const mr = await deps.db
    .selectFrom('merge_requests as m')
    .leftJoin('merge_request_diffs as d', 'd.id', 'm.latest_merge_request_diff_id')
    .select(['m.id', 'm.state', 'm.source_project_id', 'm.target_project_id', 'm.source_branch', 'd.head_commit_sha'])
    .where('m.id', '=', input.mergeRequestId)
    .executeTakeFirst();
  if (!mr || mr.state !== 'opened' || mr.source_project_id === null) throw new MergeRequestPipelineRefused();
  if (!mr.head_commit_sha) throw new MergeRequestPipelineRefused('no diff version yet');
  const [target, source, facts] = await Promise.all([
    findProjectRow(deps, Number(mr.target_project_id)), findProjectRow(deps, Number(mr.source_project_id)), mergeRequestPipelineFacts(deps, deps.db, Number(mr.id)),
  ]);
  if (!target || !source || !facts) throw new MergeRequestPipelineRefused();
  const where = await placement(deps, mr, target, source, input.userId);
  if (!where) throw new MergeRequestPipelineRefused('the user may not run pipelines for this merge request');
  const pipeline = await createPipeline(deps, {
    project: where.project, ref: where.ref ?? facts.refPath, tag: false, sha: mr.head_commit_sha, beforeSha: null, source: 'merge_request_event', userId: input.userId, mergeRequest: facts,
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
