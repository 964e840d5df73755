// The project and group attributes GitLab's API documents (lib/api/helpers/projects_helpers.rb,
// groups_helpers.rb, the Project and GroupDetail entities) that Kiln keeps in the rows' `settings`
// JSON (stored-settings.ts), with GitLab's defaults for a new project or group. Attributes with a
// column of their own (names, visibility, merge request settings: update-project.ts) are not here.
// docs/settings.md says which of these act on something in Kiln and which are accepted but inert.
import { p } from '../platform/http/params.js';
import { flagAlias, levelAlias, parseStored, setting, type AliasTable, type SettingsTable } from './stored-settings.js';

const LEVELS = ['disabled', 'private', 'enabled'] as const;
const PUBLIC_LEVELS = ['disabled', 'private', 'enabled', 'public'] as const;
const level = (fallback = 'enabled') => setting.choice(LEVELS, fallback);

export const PROJECT_STORED_SETTINGS: SettingsTable = {
  // Feature access levels of features Kiln does not have (issues, repository and merge requests have columns).
  forking_access_level: level(),
  wiki_access_level: level(),
  builds_access_level: level(),
  snippets_access_level: level(),
  package_registry_access_level: setting.choice(PUBLIC_LEVELS, 'enabled'),
  pages_access_level: setting.choice(PUBLIC_LEVELS, 'private'),
  analytics_access_level: level(),
  container_registry_access_level: level(),
  security_and_compliance_access_level: level('private'),
  releases_access_level: level(),
  environments_access_level: level(),
  feature_flags_access_level: level(),
  infrastructure_access_level: level(),
  monitor_access_level: level(),
  model_experiments_access_level: level(),
  model_registry_access_level: level(),
  requirements_access_level: level(),
  emails_enabled: setting.flag(true),
  show_default_award_emojis: setting.flag(true),
  show_diff_preview_in_email: setting.flag(true),
  warn_about_potentially_unwanted_characters: setting.flag(true),
  enforce_auth_checks_on_uploads: setting.flag(true),
  lfs_enabled: setting.flag(true),
  request_access_enabled: setting.flag(true),
  service_desk_enabled: setting.flag(false),
  // CI/CD.
  build_git_strategy: setting.choice(['fetch', 'clone'], 'fetch'),
  build_timeout: setting.integer(3600, 600, 2_592_000),
  auto_cancel_pending_pipelines: setting.choice(['disabled', 'enabled'], 'enabled'),
  // GitLab's Project validation: a path inside the repository, never absolute or climbing out of it.
  ci_config_path: { ...setting.text(null), check: (value: string) => (/^\/|\.\./.test(value) ? 'cannot include leading slash or directory traversal.' : undefined) },
  ci_default_git_depth: setting.integer(20, 0, 1000),
  ci_forward_deployment_enabled: setting.flag(true),
  ci_forward_deployment_rollback_allowed: setting.flag(true),
  ci_allow_fork_pipelines_to_run_in_parent_project: setting.flag(true),
  ci_separated_caches: setting.flag(true),
  ci_push_repository_for_job_token_allowed: setting.flag(false),
  ci_id_token_sub_claim_components: setting.strings(['project_path', 'ref_type', 'ref']),
  ci_pipeline_variables_minimum_override_role: setting.choice(['no_one_allowed', 'developer', 'maintainer', 'owner'], 'developer'),
  ci_delete_pipelines_in_seconds: setting.integer(null, 86_400),
  restrict_user_defined_variables: setting.flag(false),
  keep_latest_artifact: setting.flag(true),
  max_artifacts_size: setting.integer(null, 0),
  shared_runners_enabled: setting.flag(true),
  group_runners_enabled: setting.flag(true),
  public_jobs: setting.flag(true),
  resource_group_default_process_mode: setting.choice(['unordered', 'oldest_first', 'newest_first', 'newest_ready_first'], 'unordered'),
  auto_devops_enabled: setting.flag(false),
  auto_devops_deploy_strategy: setting.choice(['continuous', 'manual', 'timed_incremental'], 'continuous'),
  container_expiration_policy_attributes: setting.hash(
    { cadence: p.string.optional({ values: ['1d', '7d', '14d', '1month', '3month'] }), keep_n: p.integer.optional(), older_than: p.string.optional({ values: ['7d', '14d', '30d', '60d', '90d'] }),
      name_regex: p.string.optional({ max: 255 }), name_regex_keep: p.string.optional({ max: 255 }), enabled: p.boolean.optional() },
    { cadence: '1d', enabled: false, keep_n: 10, older_than: '90d', name_regex: '.*', name_regex_keep: null, next_run_at: null },
    'container_expiration_policy',
  ),
  // Merge requests and issues: what Kiln does not act on yet.
  issue_branch_template: setting.text(null),
  merge_request_title_regex: setting.text(null),
  merge_request_title_regex_description: setting.text(null),
  merge_pipelines_enabled: setting.flag(false),
  merge_trains_enabled: setting.flag(false),
  merge_requests_template: setting.text(null, 1_048_576),
  issues_template: setting.text(null, 1_048_576),
  external_authorization_classification_label: setting.text(null),
};

export const PROJECT_SETTING_ALIASES: AliasTable = {
  wiki_enabled: levelAlias('wiki_access_level'),
  jobs_enabled: levelAlias('builds_access_level'),
  snippets_enabled: levelAlias('snippets_access_level'),
  container_registry_enabled: levelAlias('container_registry_access_level'),
  packages_enabled: levelAlias('package_registry_access_level'),
  emails_disabled: flagAlias('emails_enabled', true),
  public_builds: flagAlias('public_jobs', false),
};

export const GROUP_STORED_SETTINGS: SettingsTable = {
  share_with_group_lock: setting.flag(false),
  require_two_factor_authentication: setting.flag(false),
  two_factor_grace_period: setting.integer(48, 0),
  project_creation_level: setting.choice(['noone', 'owner', 'maintainer', 'developer', 'administrator'], 'developer'),
  auto_devops_enabled: setting.flag(null),
  subgroup_creation_level: setting.choice(['owner', 'maintainer'], 'maintainer'),
  emails_enabled: setting.flag(true),
  mentions_disabled: setting.flag(null),
  lfs_enabled: setting.flag(true),
  request_access_enabled: setting.flag(true),
  default_branch_protection: { ...setting.integer(2), rule: p.integer.optional(), check: (value: number) => ([0, 1, 2, 3, 4].includes(value) ? undefined : 'is not included in the list') },
  default_branch_protection_defaults: setting.hash(
    { allowed_to_push: p.json.optional(), allow_force_push: p.boolean.optional(), allowed_to_merge: p.json.optional(), developer_can_initial_push: p.boolean.optional() },
    { allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }], developer_can_initial_push: false },
  ),
  shared_runners_setting: setting.choice(['enabled', 'disabled_and_overridable', 'disabled_and_unoverridable', 'disabled_with_override'], 'enabled'),
  // The branch new projects of the group start with (null: the instance's, `main`).
  default_branch: setting.text(null),
  membership_lock: setting.flag(false),
  prevent_forking_outside_group: setting.flag(false),
  prevent_sharing_groups_outside_hierarchy: setting.flag(false),
  shared_runners_minutes_limit: setting.integer(null, 0),
  extra_shared_runners_minutes_limit: setting.integer(null, 0),
  wiki_access_level: level(),
  math_rendering_limits_enabled: setting.flag(true),
  lock_math_rendering_limits_enabled: setting.flag(false),
};

export const GROUP_SETTING_ALIASES: AliasTable = {
  emails_disabled: flagAlias('emails_enabled', true),
};

/** Whether Git LFS is on for the project: its stored `lfs_enabled`, GitLab's default (on) when never set. */
export function projectLfsEnabled(project: { settings: string | null }): boolean {
  return parseStored(project.settings).lfs_enabled !== false;
}

/** The process mode a new resource group of the project starts with: its stored setting, else `unordered`. */
export function projectResourceGroupDefaultProcessMode(project: { settings: string | null }): 'unordered' | 'oldest_first' | 'newest_first' | 'newest_ready_first' {
  const stored = parseStored(project.settings).resource_group_default_process_mode;
  return stored === 'oldest_first' || stored === 'newest_first' || stored === 'newest_ready_first' ? stored : 'unordered';
}

/** A project's stored setting, or the table's fallback (GitLab's default) when it was never set. */
export function projectSetting(project: { settings: string | null }, name: keyof typeof PROJECT_STORED_SETTINGS): unknown {
  return parseStored(project.settings)[name] ?? PROJECT_STORED_SETTINGS[name].fallback;
}

/**
 * The project row's copies of its runner flags (migration 20261231T1230), from the `settings` JSON about
 * to be written with them: 1 when the flag is on (stored, or GitLab's default when never set), else 0.
 * The job claim reads the columns, not the JSON (ci/runners/claim-job.ts says why), so every write of
 * a project's settings writes these too.
 */
export function runnerFlagColumns(settings: string): { shared_runners_enabled: number; group_runners_enabled: number } {
  const on = (name: 'shared_runners_enabled' | 'group_runners_enabled') => (projectSetting({ settings }, name) === false ? 0 : 1);
  return { shared_runners_enabled: on('shared_runners_enabled'), group_runners_enabled: on('group_runners_enabled') };
}
