// Pipelines and builds (migration 20261228T1742-commit-statuses): today the commit statuses external
// CI posts; the CI of issue 39 adds its own rows.
import type { Generated } from 'kysely';

export type CiStatus = 'created' | 'waiting_for_resource' | 'preparing' | 'pending' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'manual' | 'scheduled';

export interface CiPipelinesTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  sha: string;
  ref: string | null;
  tag: Generated<number>;
  before_sha: string | null;
  source: string;
  status: Generated<CiStatus>;
  user_id: number | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
  yaml_errors: string | null;
  failure_reason: string | null;
  variables: string | null;
  stages: string | null;
  /** The pipeline schedule that made it (source `schedule`). */
  pipeline_schedule_id: number | null;
  /** The merge request of a `merge_request_event` pipeline. */
  merge_request_id: Generated<number | null>;
  /** `workflow:auto_cancel:on_new_commit` of its configuration; null is GitLab's default, `conservative`. */
  auto_cancel_on_new_commit: Generated<'conservative' | 'interruptible' | 'none' | null>;
  /** `workflow:auto_cancel:on_job_failure`; null is GitLab's default, `none`. */
  auto_cancel_on_job_failure: Generated<'none' | 'all' | null>;
  /** The newer pipeline of its ref that cancelled it (auto-cancel redundant pipelines). */
  auto_canceled_by_id: Generated<number | null>;
}

/** A project's job token settings (no row: the inbound limit is on). */
export interface CiJobTokenSettingsTable {
  project_id: number;
  inbound_enabled: number;
  updated_at: number;
}

/** `target_project_id`'s job tokens may reach `source_project_id` (its inbound allowlist). */
export interface CiJobTokenProjectScopeLinksTable {
  source_project_id: number;
  target_project_id: number;
  added_by_id: number | null;
  created_at: number;
}

/** The job tokens of projects in `target_group_id` (and its subgroups) may reach `source_project_id`. */
export interface CiJobTokenGroupScopeLinksTable {
  source_project_id: number;
  target_group_id: number;
  added_by_id: number | null;
  created_at: number;
}

export interface CiBuildsTable {
  id: Generated<number>;
  project_id: number;
  commit_id: number;
  type: string;
  name: string;
  stage: string;
  stage_idx: number;
  ref: string | null;
  status: Generated<CiStatus>;
  target_url: string | null;
  description: string | null;
  coverage: number | null;
  allow_failure: Generated<number>;
  retried: Generated<number>;
  user_id: number | null;
  created_at: number;
  updated_at: number;
  queued_at: number | null;
  started_at: number | null;
  finished_at: number | null;
  when: string | null;
  options: string | null;
  token_digest: string | null;
  runner_id: number | null;
  failure_reason: string | null;
  tag: Generated<number>;
  tag_list: string | null;
  protected: Generated<number>;
  environment: string | null;
  scheduled_at: number | null;
  erased_at: number | null;
  artifacts_expire_at: number | null;
  retries: Generated<number>;
  trace_size: Generated<number>;
  /** Until when (epoch ms) a viewer counts as watching the running job's log; null when none has. */
  trace_watched_until: number | null;
  /** The newer pipeline of its ref that cancelled the job (auto-cancel redundant pipelines). */
  auto_canceled_by_id: Generated<number | null>;
  /** The resource group whose resource the job needs to run (migration 20261231T1210-ci-resource-groups). */
  resource_group_id: Generated<number | null>;
  /** When the job last started waiting for its group's resource. */
  waiting_for_resource_at: Generated<number | null>;
}

/** A project's resource group (GitLab's Ci::ResourceGroup): its jobs run one at a time. */
export interface CiResourceGroupsTable {
  id: Generated<number>;
  project_id: number;
  key: string;
  process_mode: 'unordered' | 'oldest_first' | 'newest_first' | 'newest_ready_first';
  created_at: number;
  updated_at: number;
}

/** The one resource of a group; `build_id` is the job holding it, null while it is free. */
export interface CiResourcesTable {
  id: Generated<number>;
  resource_group_id: number;
  build_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface CiRunnersTable {
  id: Generated<number>;
  runner_type: 'instance_type' | 'group_type' | 'project_type';
  token_digest: string;
  token_prefix: string;
  group_id: number | null;
  description: Generated<string>;
  maintenance_note: string | null;
  active: Generated<number>;
  locked: Generated<number>;
  run_untagged: Generated<number>;
  tag_list: Generated<string>;
  access_level: Generated<string>;
  maximum_timeout: number | null;
  registration_type: string;
  creator_id: number | null;
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
  executor_type: string | null;
  ip_address: string | null;
  contacted_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface CiRunnerProjectsTable {
  id: Generated<number>;
  runner_id: number;
  project_id: number;
  created_at: number;
}

export interface CiRegistrationTokensTable {
  id: Generated<number>;
  scope: 'instance' | 'project' | 'group';
  subject_id: number | null;
  token_digest: string;
  created_at: number;
}

/** A job's log in fixed 128 KiB pieces (GitLab's ci_build_trace_chunks): every chunk but the last is full. */
export interface CiBuildTraceChunksTable {
  build_id: number;
  chunk_index: number;
  data: Buffer;
}

export interface CiJobArtifactsTable {
  id: Generated<number>;
  build_id: number;
  project_id: number;
  file_type: string;
  file_format: string;
  filename: string;
  size: number;
  data: Buffer;
  expire_at: number | null;
  created_at: number;
}

export interface CiTables {
  ci_pipelines: CiPipelinesTable;
  ci_job_token_settings: CiJobTokenSettingsTable;
  ci_job_token_project_scope_links: CiJobTokenProjectScopeLinksTable;
  ci_job_token_group_scope_links: CiJobTokenGroupScopeLinksTable;
  ci_builds: CiBuildsTable;
  ci_runners: CiRunnersTable;
  ci_runner_projects: CiRunnerProjectsTable;
  ci_registration_tokens: CiRegistrationTokensTable;
  ci_build_trace_chunks: CiBuildTraceChunksTable;
  ci_job_artifacts: CiJobArtifactsTable;
  ci_resource_groups: CiResourceGroupsTable;
  ci_resources: CiResourcesTable;
}
