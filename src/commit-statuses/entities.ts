// Wire shapes: GitLab's Entities::CommitStatus, and the pipeline of a merge request as
// Entities::Ci::PipelineBasic (`pipeline`) and Entities::Ci::Pipeline (`head_pipeline`).
import { isoTime } from '../platform/clock.js';
import { userBasic, type UserRow } from '../accounts/api.js';
import type { CiBuildRow, CiPipelineRow } from './rows.js';

type UserLike = Pick<UserRow, 'id' | 'username' | 'name' | 'state' | 'avatar'>;

export function commitStatusEntity(baseUrl: string, build: CiBuildRow, sha: string, author: UserLike | undefined) {
  return {
    id: Number(build.id),
    sha,
    ref: build.ref,
    status: build.status,
    name: build.name,
    target_url: build.target_url,
    description: build.description,
    created_at: isoTime(build.created_at),
    started_at: isoTime(build.started_at),
    finished_at: isoTime(build.finished_at),
    allow_failure: Number(build.allow_failure) === 1,
    coverage: build.coverage === null ? null : Number(build.coverage),
    pipeline_id: Number(build.commit_id),
    author: author ? userBasic(baseUrl, author) : null,
  };
}

/** Where a pipeline is shown, as GitLab's `/-/pipelines/:id`. */
export function pipelinePath(projectFullPath: string, pipelineId: number): string {
  return `/${projectFullPath}/-/pipelines/${pipelineId}`;
}

export function pipelineBasicEntity(baseUrl: string, pipeline: CiPipelineRow, projectFullPath: string) {
  return {
    id: Number(pipeline.id),
    iid: Number(pipeline.iid),
    project_id: Number(pipeline.project_id),
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status,
    source: pipeline.source,
    created_at: isoTime(pipeline.created_at),
    updated_at: isoTime(pipeline.updated_at),
    web_url: `${baseUrl}${pipelinePath(projectFullPath, Number(pipeline.id))}`,
  };
}

/** Labels GitLab's Gitlab::Ci::Status classes give each status (`success` reads "passed"). */
function statusLabel(status: string): string {
  return status === 'success' ? 'passed' : status;
}

export interface PipelineDetail {
  user: UserLike | undefined;
  /** The average coverage of its latest builds that report one, or null. */
  coverage: number | null;
}

export function pipelineEntity(baseUrl: string, pipeline: CiPipelineRow, projectFullPath: string, detail: PipelineDetail) {
  const path = pipelinePath(projectFullPath, Number(pipeline.id));
  const label = statusLabel(pipeline.status);
  const started = pipeline.started_at === null ? null : Number(pipeline.started_at);
  const finished = pipeline.finished_at === null ? null : Number(pipeline.finished_at);
  return {
    ...pipelineBasicEntity(baseUrl, pipeline, projectFullPath),
    before_sha: pipeline.before_sha ?? '0000000000000000000000000000000000000000',
    tag: Number(pipeline.tag) === 1,
    yaml_errors: null,
    user: detail.user ? userBasic(baseUrl, detail.user) : null,
    started_at: isoTime(started),
    finished_at: isoTime(finished),
    committed_at: null,
    duration: started !== null && finished !== null ? Math.round((finished - started) / 1000) : null,
    queued_duration: null,
    coverage: detail.coverage === null ? null : detail.coverage.toFixed(2),
    detailed_status: {
      icon: `status_${pipeline.status}`,
      text: label,
      label,
      group: pipeline.status,
      tooltip: label,
      has_details: true,
      details_path: path,
      illustration: null,
      favicon: `/assets/ci_favicons/favicon_status_${pipeline.status}.png`,
    },
  };
}
