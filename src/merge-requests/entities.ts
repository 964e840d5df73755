// Wire shapes of merge requests (GitLab 16's API::Entities::MergeRequestBasic and MergeRequest, and
// the `view=simple` MergeRequestSimple), fields listed explicitly and in GitLab's order. What a
// merge request shows besides its row is loaded for a whole page at once (present.ts) and handed in.
import { isoTime } from '../platform/clock.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { MergeRequestDiffRow, MergeRequestRow } from './rows.js';
import { projectWebUrl, userBasic, type UserRow } from '../accounts/api.js';
import { labelBasicEntity, type LabelRow } from '../labels/api.js';
import { isDraftTitle } from './draft.js';
import { timeStatsEntity } from '../time-tracking/api.js';
import { taskCompletionStatus } from './task-completion.js';
import { detailedMergeStatus, publicMergeStatus, type MergeFacts } from './merge-status.js';
import { pipelineBasicEntity, pipelineEntity, type HeadPipeline } from '../commit-statuses/api.js';

export type { MergeRequestDiffRow, MergeRequestRow };
export type Users = Map<number, Pick<UserRow, 'id' | 'username' | 'name' | 'state' | 'avatar'>>;

/** How a merge request is referred to from where it is listed (IssuableReferences.relative). */
export type ReferenceFrom = { projectId: number; namespaceId: number } | null;

export interface MergeRequestLinks {
  users: Users;
  target: ProjectRow;
  labels: LabelRow[];
  assigneeIds: number[];
  reviewerIds: number[];
  milestone: unknown;
  notesCount: number;
  /** Thumbs up and down awarded (the issues feature's voteCounts). */
  votes?: { upvotes: number; downvotes: number };
  latestDiff: MergeRequestDiffRow | null;
  /** Seconds spent in all (the sum of its timelogs). */
  timeSpent?: number;
  facts: MergeFacts;
  /** The head pipeline (commit-statuses' head-pipelines.ts) and the path of the project it ran in. */
  headPipeline?: (HeadPipeline & { projectPath: string }) | null;
  /** MergeRequest#allow_collaboration: the flag and collaboration possible (source-branch-access.ts). */
  allowCollaboration?: boolean;
  from: ReferenceFrom;
  withLabelsDetails?: boolean;
}

function user(baseUrl: string, users: Users, id: number | null) {
  const row = id === null ? undefined : users.get(Number(id));
  return row ? userBasic(baseUrl, row) : null;
}

export function mergeRequestWebUrl(baseUrl: string, target: ProjectRow, iid: number): string {
  return `${projectWebUrl(baseUrl, target.full_path)}/-/merge_requests/${iid}`;
}

/** `!7` from its own project, `path!7` from another of the same namespace, `full/path!7` otherwise. */
export function mergeRequestReference(target: ProjectRow, iid: number, from: ReferenceFrom): string {
  if (from && from.projectId === Number(target.id)) return `!${iid}`;
  if (from && from.namespaceId === Number(target.namespace_id)) return `${target.path}!${iid}`;
  return `${target.full_path}!${iid}`;
}

/** The merge request's own view of whether the source branch goes after merging (merge_params). */
function flag(value: number | null): boolean | null {
  return value === null ? null : Number(value) === 1;
}

export function mergeRequestSimpleEntity(baseUrl: string, mr: MergeRequestRow, target: ProjectRow) {
  return {
    id: Number(mr.id),
    iid: mr.iid,
    project_id: Number(mr.target_project_id),
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: isoTime(mr.created_at),
    updated_at: isoTime(mr.updated_at),
    web_url: mergeRequestWebUrl(baseUrl, target, mr.iid),
  };
}

export function mergeRequestBasicEntity(baseUrl: string, mr: MergeRequestRow, links: MergeRequestLinks) {
  const { users, target } = links;
  const assignees = links.assigneeIds.map((id) => user(baseUrl, users, id)).filter((entity) => entity !== null);
  const reviewers = links.reviewerIds.map((id) => user(baseUrl, users, id)).filter((entity) => entity !== null);
  const mergedBy = user(baseUrl, users, mr.merged_by_id);
  const draft = isDraftTitle(mr.title);
  const reference = mergeRequestReference(target, mr.iid, links.from);
  const forFork = mr.source_project_id !== null && Number(mr.source_project_id) !== Number(mr.target_project_id);
  return {
    id: Number(mr.id),
    iid: mr.iid,
    project_id: Number(mr.target_project_id),
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: isoTime(mr.created_at),
    updated_at: isoTime(mr.updated_at),
    merged_by: mergedBy,
    merge_user: user(baseUrl, users, mr.merge_user_id ?? mr.merged_by_id),
    merged_at: isoTime(mr.merged_at),
    closed_by: user(baseUrl, users, mr.closed_by_id),
    closed_at: isoTime(mr.closed_at),
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    user_notes_count: links.notesCount,
    upvotes: links.votes?.upvotes ?? 0,
    downvotes: links.votes?.downvotes ?? 0,
    author: user(baseUrl, users, mr.author_id),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers,
    source_project_id: mr.source_project_id === null ? null : Number(mr.source_project_id),
    target_project_id: Number(mr.target_project_id),
    labels: links.withLabelsDetails ? links.labels.map(labelBasicEntity) : links.labels.map((label) => label.title),
    draft,
    work_in_progress: draft,
    milestone: links.milestone ?? null,
    merge_when_pipeline_succeeds: Number(mr.merge_when_pipeline_succeeds) === 1,
    merge_status: publicMergeStatus(mr.merge_status),
    detailed_merge_status: detailedMergeStatus(mr, links.facts),
    sha: links.latestDiff?.head_commit_sha ?? null,
    merge_commit_sha: mr.merge_commit_sha,
    squash_commit_sha: mr.squash_commit_sha,
    discussion_locked: mr.discussion_locked === null ? null : Number(mr.discussion_locked) === 1,
    should_remove_source_branch: flag(mr.should_remove_source_branch),
    force_remove_source_branch: flag(mr.force_remove_source_branch) ?? false,
    prepared_at: isoTime(links.latestDiff?.created_at ?? null),
    ...(forFork ? { allow_collaboration: links.allowCollaboration === true, allow_maintainer_to_push: links.allowCollaboration === true } : {}),
    reference,
    references: { short: `!${mr.iid}`, relative: reference, full: `${target.full_path}!${mr.iid}` },
    web_url: mergeRequestWebUrl(baseUrl, target, mr.iid),
    time_stats: timeStatsEntity(Number(mr.time_estimate), links.timeSpent ?? 0),
    squash: Number(mr.squash) === 1,
    squash_on_merge: squashOnMerge(mr, target),
    task_completion_status: taskCompletionStatus(mr.description),
    has_conflicts: mr.merge_status === 'cannot_be_merged',
    blocking_discussions_resolved: !(links.facts.discussionsMustBeResolved && links.facts.unresolvedThreads > 0),
  };
}

/** Whether merging squashes (MergeRequest#squash_on_merge?): the project's always/never win over the flag. */
export function squashOnMerge(mr: Pick<MergeRequestRow, 'squash'>, target: Pick<ProjectRow, 'squash_option'>): boolean {
  if (target.squash_option === 'always') return true;
  if (target.squash_option === 'never') return false;
  return Number(mr.squash) === 1;
}

export interface MergeRequestDetail {
  subscribed: boolean;
  changesCount: string | null;
  canMerge: boolean;
  /** Only when asked for (include_diverged_commits_count). */
  divergedCommitsCount?: number;
  includeRebaseInProgress?: boolean;
}

export function mergeRequestEntity(baseUrl: string, mr: MergeRequestRow, links: MergeRequestLinks, detail: MergeRequestDetail) {
  const diff = links.latestDiff;
  const head = links.headPipeline ?? null;
  return {
    ...mergeRequestBasicEntity(baseUrl, mr, links),
    subscribed: detail.subscribed,
    changes_count: detail.changesCount,
    latest_build_started_at: isoTime(head?.pipeline.started_at ?? null),
    latest_build_finished_at: isoTime(head?.pipeline.finished_at ?? null),
    first_deployed_to_production_at: null,
    pipeline: head ? pipelineBasicEntity(baseUrl, head.pipeline, head.projectPath) : null,
    head_pipeline: head ? pipelineEntity(baseUrl, head.pipeline, head.projectPath, { user: head.pipeline.user_id === null ? undefined : links.users.get(Number(head.pipeline.user_id)), coverage: head.coverage }) : null,
    diff_refs: diff && diff.head_commit_sha ? { base_sha: diff.base_commit_sha, head_sha: diff.head_commit_sha, start_sha: diff.start_commit_sha } : null,
    merge_error: mr.merge_error,
    ...(detail.includeRebaseInProgress ? { rebase_in_progress: mr.rebase_jid !== null } : {}),
    ...(detail.divergedCommitsCount !== undefined ? { diverged_commits_count: detail.divergedCommitsCount } : {}),
    first_contribution: false,
    user: { can_merge: detail.canMerge },
  };
}
