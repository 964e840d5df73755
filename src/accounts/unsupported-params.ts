// GitLab parameters of the project and group update routes that Kiln has no feature for. A client
// that sends one gets a 400 naming it rather than a 200 that silently dropped it (issue 15: every
// write is stored or refused). Clients that send only what changed (python-gitlab's save()) never
// send them unless asked to.
import { p, type ParamRule } from '../platform/http/params.js';

function refused(names: readonly string[]): Record<string, ParamRule> {
  return Object.fromEntries(names.map((name) => [name, p.absent('is not supported')]));
}

export const UNSUPPORTED_PROJECT_PARAMS = refused([
  'wiki_access_level', 'snippets_access_level', 'builds_access_level', 'pages_access_level',
  'forking_access_level', 'analytics_access_level', 'operations_access_level', 'releases_access_level', 'environments_access_level',
  'feature_flags_access_level', 'infrastructure_access_level', 'monitor_access_level', 'container_registry_access_level',
  'security_and_compliance_access_level', 'requirements_access_level', 'model_experiments_access_level',
  'wiki_enabled', 'snippets_enabled', 'jobs_enabled', 'container_registry_enabled', 'lfs_enabled',
  'request_access_enabled', 'shared_runners_enabled', 'public_builds', 'public_jobs', 'service_desk_enabled', 'emails_disabled', 'emails_enabled',
  'issue_branch_template', 'ci_config_path', 'build_timeout', 'auto_devops_enabled', 'auto_devops_deploy_strategy',
  'import_url', 'mirror', 'keep_latest_artifact', 'packages_enabled', 'external_authorization_classification_label',
]);

export const UNSUPPORTED_GROUP_PARAMS = refused([
  'lfs_enabled', 'request_access_enabled', 'project_creation_level', 'subgroup_creation_level', 'share_with_group_lock',
  'require_two_factor_authentication', 'two_factor_grace_period', 'auto_devops_enabled', 'emails_disabled', 'emails_enabled',
  'mentions_disabled', 'default_branch_protection', 'default_branch_protection_defaults', 'membership_lock', 'shared_runners_setting',
  'prevent_forking_outside_group', 'prevent_sharing_groups_outside_hierarchy', 'default_branch_name', 'shared_runners_minutes_limit',
]);
