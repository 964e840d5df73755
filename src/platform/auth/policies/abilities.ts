// The named abilities of Kiln and, as data, who holds each one: GitLab's "Permissions and roles" table
// (doc/user/permissions.md) for the actions Kiln has. Every permission decision in the code asks for
// one of these names through the policies beside this file; nothing else compares access levels.
import { ACCESS } from '../access-levels.js';

/** Who holds an ability without being a member, by the subject's visibility. */
export type Audience = 'anyone' | 'signed_in';

export interface AbilityRule {
  /** The lowest membership role that holds it (ACCESS level); `null`: no role, only admins or the rule below. */
  min: number | null;
  /** Non-members of a public subject: everyone (anonymous too) or any signed-in user. */
  public?: Audience;
  /** Non-members of an internal subject: any signed-in user. */
  internal?: 'signed_in';
  /** Administrators hold it too (true for every ability unless a rule says otherwise). */
  admin?: boolean;
  /**
   * The project feature it belongs to (GitLab's ProjectFeature): when the feature is `disabled`
   * nobody holds it, administrators included; when `private`, only members (and administrators).
   */
  feature?: ProjectFeature;
  /**
   * A group's: held too by whoever reads a project in the group or below it without a role in the
   * group (PolicySubject.readsProjectBelow; GitLab's has_projects enables read_group, and read_group
   * what is marked here). Not the group's members nor its wiki: GitLab keeps those from a private
   * group's non-members (can_read_group_member; the wiki wants a role or the group's visibility).
   */
  projectReaders?: boolean;
  /**
   * Non-members and Guests (whoever holds it below `min`) hold it only while the project's
   * public_jobs is on (GitLab's public_builds, "Project-based pipeline visibility": its
   * _read_public_build and _read_public_pipeline); Reporters and administrators always do.
   */
  publicJobs?: boolean;
  /**
   * Still held while its feature is `disabled` (`private` keeps non-members out as usual): GitLab asks
   * create_pipeline of a project whose own CI is off (internal_builds_disabled) and lets the pipeline
   * service refuse ("Pipelines are disabled!", create-pipeline.ts).
   */
  heldWhileDisabled?: boolean;
}

/** Project features with an access level of their own (GitLab's `<feature>_access_level`). */
export type ProjectFeature = 'issues' | 'repository' | 'merge_requests' | 'forking' | 'snippets' | 'wiki' | 'builds';

const READ: Omit<AbilityRule, 'min'> = { public: 'anyone', internal: 'signed_in' };
const PARTICIPATE: Omit<AbilityRule, 'min'> = { public: 'signed_in', internal: 'signed_in' };

export const PROJECT_ABILITIES = {
  read_project: { min: ACCESS.guest, ...READ },
  read_project_member: { min: ACCESS.guest, ...READ },
  read_issue: { min: ACCESS.guest, ...READ, feature: 'issues' },
  read_note: { min: ACCESS.guest, ...READ },
  read_events: { min: ACCESS.guest, ...READ },
  create_issue: { min: ACCESS.guest, ...PARTICIPATE, feature: 'issues' },
  create_note: { min: ACCESS.guest, ...PARTICIPATE },
  // Guests of a private project do not read its code (GitLab: "View project code": Reporter for private).
  download_code: { min: ACCESS.reporter, ...READ, feature: 'repository' },
  // The project's storage statistics (`statistics=true`; GitLab's read_statistics).
  read_statistics: { min: ACCESS.reporter },
  read_confidential_issues: { min: ACCESS.reporter },
  update_issue: { min: ACCESS.reporter, feature: 'issues' },
  admin_issue: { min: ACCESS.reporter, feature: 'issues' },
  // Linking issues (project_policy.rb admin_issue_link; IssueLinks::CreateService asks it of both
  // issues: "You must have at least the Guest role in both projects").
  admin_issue_link: { min: ACCESS.guest, feature: 'issues' },
  // Environments and deployments belong to CI/CD: nobody has them while builds_access_level keeps the
  // caller out (project_policy.rb's builds_disabled rule).
  read_environment: { min: ACCESS.reporter, feature: 'builds' },
  read_deployment: { min: ACCESS.reporter, feature: 'builds' },
  read_notification_setting: { min: ACCESS.guest, ...PARTICIPATE },
  create_environment: { min: ACCESS.developer, feature: 'builds' },
  update_environment: { min: ACCESS.developer, feature: 'builds' },
  stop_environment: { min: ACCESS.developer, feature: 'builds' },
  destroy_environment: { min: ACCESS.developer, feature: 'builds' },
  create_deployment: { min: ACCESS.developer, feature: 'builds' },
  update_deployment: { min: ACCESS.developer, feature: 'builds' },
  push_code: { min: ACCESS.developer, feature: 'repository' },
  // Creating and deleting tags through the API and pages (GitLab's admin_tag); protected tags narrow it.
  admin_tag: { min: ACCESS.developer, feature: 'repository' },
  read_alert_management_alert: { min: ACCESS.developer },
  update_alert_management_alert: { min: ACCESS.developer },
  send_test_alert: { min: ACCESS.developer },
  admin_operations: { min: ACCESS.maintainer },
  read_error_tracking_settings: { min: ACCESS.maintainer },
  admin_project_member: { min: ACCESS.maintainer },
  admin_protected_branch: { min: ACCESS.maintainer },
  // Git never deletes a protected branch; this decides which refusal a push gets (branch_check.rb).
  delete_protected_branch: { min: ACCESS.maintainer },
  // Deleting a protected tag from the web or API (GitLab's maintainer_access in its tag check).
  delete_protected_tag: { min: ACCESS.maintainer },
  admin_project: { min: ACCESS.maintainer },
  remove_project: { min: ACCESS.owner },
  destroy_issue: { min: ACCESS.owner, feature: 'issues' },
  change_visibility_level: { min: ACCESS.maintainer },
  change_namespace: { min: ACCESS.owner },
  rename_project: { min: ACCESS.maintainer },
  // Labels and milestones (project_policy.rb: Guests read them, Reporters manage them).
  read_label: { min: ACCESS.guest, ...READ },
  admin_label: { min: ACCESS.reporter },
  read_milestone: { min: ACCESS.guest, ...READ },
  admin_milestone: { min: ACCESS.reporter },
  // Issue boards (project_policy.rb: read_issue_board with the issues, admin_issue_board and
  // admin_issue_board_list for Reporters); nobody has them while the project's issues are off.
  read_issue_board: { min: ACCESS.guest, ...READ, feature: 'issues' },
  admin_issue_board: { min: ACCESS.reporter, feature: 'issues' },
  admin_issue_board_list: { min: ACCESS.reporter, feature: 'issues' },
  // Editing and deleting anyone's comment (a note's author may always change their own: note-policy).
  admin_note: { min: ACCESS.maintainer },
  // Backdating and choosing iids (GitLab's set_issue_created_at, set_issue_updated_at, set_issue_iid,
  // set_note_created_at): Owners and administrators.
  set_issue_created_at: { min: ACCESS.owner },
  set_issue_updated_at: { min: ACCESS.owner },
  set_issue_iid: { min: ACCESS.owner },
  set_note_created_at: { min: ACCESS.owner },
  // Webhooks and integrations (project_policy.rb: admin_web_hook and admin_integrations, Maintainers).
  admin_webhook: { min: ACCESS.maintainer },
  admin_integrations: { min: ACCESS.maintainer },
  // Merge requests (project_policy.rb, merge_request_policy.rb): read by Reporters of a private project
  // and by whoever reads a public or internal one; opened, changed, labelled and approved by
  // Developers; deleted by Owners. Who may merge is the target branch's business (protected branches).
  read_merge_request: { min: ACCESS.reporter, ...READ, feature: 'merge_requests' },
  create_merge_request_in: { min: ACCESS.developer, feature: 'merge_requests' },
  create_merge_request_from: { min: ACCESS.developer, feature: 'merge_requests' },
  update_merge_request: { min: ACCESS.developer, feature: 'merge_requests' },
  admin_merge_request: { min: ACCESS.developer, feature: 'merge_requests' },
  approve_merge_request: { min: ACCESS.developer, feature: 'merge_requests' },
  destroy_merge_request: { min: ACCESS.owner, feature: 'merge_requests' },
  // Review (project_policy.rb): Developers resolve threads (a merge request's author resolves theirs,
  // a note's author their note: note-policy.ts); award emoji are given by whoever may comment.
  resolve_note: { min: ACCESS.developer, feature: 'merge_requests' },
  award_emoji: { min: ACCESS.guest, ...PARTICIPATE },
  // Commit statuses (project_policy.rb: read_commit_status with the pipelines, Reporters and readers
  // of a public project; create_commit_status, Developers).
  read_commit_status: { min: ACCESS.reporter, ...READ, feature: 'repository' },
  create_commit_status: { min: ACCESS.developer, feature: 'repository' },
  // CI/CD (issue 39; project_policy.rb): pipelines and jobs read by Reporters and readers of a public
  // project, run, cancelled, retried and played by Developers, deleted by Owners; all within
  // builds_access_level (a stored setting the policy reads, policy.ts featureLevel) and the repository's
  // level. Below Reporter, pipelines and jobs are read only while public_jobs is on. read_build is the
  // jobs' (a job, its log, its artifacts), read_pipeline the pipelines'.
  read_pipeline: { min: ACCESS.reporter, ...READ, feature: 'builds', publicJobs: true },
  read_build: { min: ACCESS.reporter, ...READ, feature: 'builds', publicJobs: true },
  create_pipeline: { min: ACCESS.developer, feature: 'builds', heldWhileDisabled: true },
  update_build: { min: ACCESS.developer, feature: 'builds' },
  destroy_pipeline: { min: ACCESS.owner, feature: 'builds' },
  // Resource groups (project_policy.rb: read_resource_group, update_resource_group), Developers,
  // within the builds feature too.
  read_resource_group: { min: ACCESS.developer, feature: 'builds' },
  update_resource_group: { min: ACCESS.developer, feature: 'builds' },
  // CI/CD variables and pipeline trigger tokens (project_policy.rb: admin_cicd_variables, admin_build),
  // Maintainers; a Developer gets 403. Gone with the builds feature too.
  admin_cicd_variables: { min: ACCESS.maintainer, feature: 'builds' },
  admin_build: { min: ACCESS.maintainer, feature: 'builds' },
  // GET /projects/:id/runners (project_policy.rb's read_project_runners: Maintainers and administrators).
  read_project_runners: { min: ACCESS.maintainer },
  // A project's own artifact size limit (max_artifacts_size) is set by administrators only (project_policy.rb);
  // PUT /projects/:id drops it for everyone else, as Projects::UpdateService's remove_unallowed_params.
  update_max_artifacts_size: { min: null },
  // Pipeline schedules (project_policy.rb): read by Reporters, made by Developers; changing one is its
  // owner's (ci/schedules/schedule-policy.ts).
  read_pipeline_schedule: { min: ACCESS.reporter, feature: 'builds' },
  create_pipeline_schedule: { min: ACCESS.developer, feature: 'builds' },
  // Forks (project_policy.rb: fork_project with download_code; "Fork project": Guests of public and
  // internal projects, Reporters of private ones), within the project's forking_access_level (a stored
  // setting the policy reads from the project row, policy.ts featureLevel). Unlinking a
  // fork, or linking one, is the Owner's (remove_fork_project).
  fork_project: { min: ACCESS.reporter, ...PARTICIPATE, feature: 'forking' },
  remove_fork_project: { min: ACCESS.owner },
  // Releases (project_policy.rb): read by Guests and readers of a public project while the repository
  // is visible to them; made, changed and deleted by Developers.
  read_release: { min: ACCESS.guest, ...READ, feature: 'repository' },
  create_release: { min: ACCESS.developer, feature: 'repository' },
  update_release: { min: ACCESS.developer, feature: 'repository' },
  destroy_release: { min: ACCESS.developer, feature: 'repository' },
  // Markdown uploads (project_policy.rb: upload_file and read_upload with guest_access, so whoever
  // may comment may attach; uploads_controller: a file is served to whoever reads the project). The
  // uploads API lists, downloads and deletes for Maintainers (lib/api/project_uploads.rb).
  upload_file: { min: ACCESS.guest, ...PARTICIPATE },
  read_upload: { min: ACCESS.guest, ...READ },
  admin_upload: { min: ACCESS.maintainer },
  // Project snippets (project_policy.rb, project_snippet_policy.rb): read by Guests and readers of a
  // public project, made by Reporters, changed and deleted by Maintainers (and by their author:
  // src/snippets/snippet-policy.ts), all within snippets_access_level (a stored setting too, read by
  // the policy: navigation, API, pages and git follow it alike).
  read_snippet: { min: ACCESS.guest, ...READ, feature: 'snippets' },
  create_snippet: { min: ACCESS.reporter, feature: 'snippets' },
  admin_snippet: { min: ACCESS.maintainer, feature: 'snippets' },
  // The project's wiki (project_policy.rb): read and cloned by Guests and readers of the project,
  // written (pages, attachments, git pushes) by Developers, who also delete pages since GitLab 14.1;
  // all within wiki_access_level (a stored setting the policy reads from the project's settings).
  read_wiki: { min: ACCESS.guest, ...READ, feature: 'wiki' },
  download_wiki_code: { min: ACCESS.guest, ...READ, feature: 'wiki' },
  create_wiki: { min: ACCESS.developer, feature: 'wiki' },
  admin_wiki: { min: ACCESS.developer, feature: 'wiki' },
} satisfies Record<string, AbilityRule>;

// What GitLab's group policy enables with read_group, which reading a project inside gives too.
const WITH_GROUP: Pick<AbilityRule, 'projectReaders'> = { projectReaders: true };

export const GROUP_ABILITIES = {
  read_group: { min: ACCESS.guest, ...READ, ...WITH_GROUP },
  // GET /namespaces/:id: a group's readers; personal namespaces are asked as private (their owner only).
  // GitLab's read_namespace wants a role (has_access): reading a project inside is not enough.
  read_namespace: { min: ACCESS.guest, ...READ },
  // Not to those who only read a project inside a private group (GitLab's can_read_group_member).
  read_group_member: { min: ACCESS.guest, ...READ },
  read_group_events: { min: ACCESS.guest, ...READ, ...WITH_GROUP },
  // The notification settings API finds the group with read_group and asks nothing more.
  read_notification_setting: { min: ACCESS.guest, ...PARTICIPATE, ...WITH_GROUP },
  create_projects: { min: ACCESS.developer },
  create_subgroup: { min: ACCESS.maintainer },
  // Group members are managed by Owners (GitLab's group_policy.rb); project members by Maintainers.
  admin_group_member: { min: ACCESS.owner },
  read_repository_storage_moves: { min: null },
  // The group's wiki (ee group_policy.rb): read and cloned by whoever reads the group, written (pages,
  // attachments, pushes) and its pages deleted by Developers, all within the group's
  // wiki_access_level (a stored group setting the policy reads, as a project's).
  read_wiki: { min: ACCESS.guest, ...READ, feature: 'wiki' },
  download_wiki_code: { min: ACCESS.guest, ...READ, feature: 'wiki' },
  create_wiki: { min: ACCESS.developer, feature: 'wiki' },
  admin_wiki: { min: ACCESS.developer, feature: 'wiki' },
  admin_group: { min: ACCESS.owner },
  remove_group: { min: ACCESS.owner },
  change_visibility_level: { min: ACCESS.owner },
  // Moving a project into the group (group_policy.rb: Maintainers who can create projects there).
  transfer_projects: { min: ACCESS.maintainer },
  // Group labels and milestones (group_policy.rb: Guests read them, Reporters manage them).
  read_label: { min: ACCESS.guest, ...READ, ...WITH_GROUP },
  admin_label: { min: ACCESS.reporter },
  read_milestone: { min: ACCESS.guest, ...READ, ...WITH_GROUP },
  admin_milestone: { min: ACCESS.reporter },
  // Group issue boards (group_policy.rb: read with the group, managed by Reporters).
  read_issue_board: { min: ACCESS.guest, ...READ, ...WITH_GROUP },
  admin_issue_board: { min: ACCESS.reporter },
  admin_issue_board_list: { min: ACCESS.reporter },
  // Group webhooks (group_policy.rb: admin_web_hook, Owners).
  admin_webhook: { min: ACCESS.owner },
  // Group CI/CD variables (group_policy.rb: admin_cicd_variables, Owners).
  admin_cicd_variables: { min: ACCESS.owner },
} satisfies Record<string, AbilityRule>;

/**
 * Abilities that name no project or group. `read_instance`: anyone, anonymous too (public lists);
 * `log_in`: any signed-in, unblocked user; `admin_all_resources`: administrators.
 */
export const INSTANCE_ABILITIES = ['read_instance', 'log_in', 'read_users_list', 'create_group', 'create_project', 'admin_all_resources'] as const;

export type ProjectAbility = keyof typeof PROJECT_ABILITIES;
export type GroupAbility = keyof typeof GROUP_ABILITIES;
export type InstanceAbility = (typeof INSTANCE_ABILITIES)[number];

/**
 * The lowest membership level that holds a project ability, for the rare check that must run inside
 * SQL (listing events across many projects). Throws for abilities no role holds.
 */
export function minimumProjectLevel(ability: ProjectAbility): number {
  const min = (PROJECT_ABILITIES[ability] as AbilityRule).min;
  if (min === null) throw new Error(`no role holds ${ability}`);
  return min;
}
