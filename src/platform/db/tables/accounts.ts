import type { Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_lower: string;
  name: string;
  email: string;
  email_lower: string;
  state: Generated<UserState>;
  admin: Generated<number>;
  password_hash: string | null;
  otp_secret_sealed: string | null;
  otp_required: Generated<number>;
  otp_backup_codes: string | null;
  failed_attempts: Generated<number>;
  locked_until: number | null;
  bio: Generated<string>;
  location: Generated<string>;
  public_email: Generated<string>;
  website_url: Generated<string>;
  organization: Generated<string>;
  private_profile: Generated<number>;
  /** `project_bot`: the user behind a project's or group's access token. */
  user_type: Generated<'human' | 'ghost' | 'project_bot'>;
  last_activity_on: string | null;
  pronouns: Generated<string>;
  /** The colours of the user's pages: `system` follows the browser's preference. */
  theme: Generated<Theme>;
  /** An IANA time zone, for the times shown on the user's pages. */
  time_zone: Generated<string>;
  /** GitLab's password_expires_at: set, the user must choose a new password at the next sign-in. */
  password_expires_at: number | null;
  /** The uploaded avatar's file name (its bytes in `avatars`, model_type 'User'); null: the generated SVG. */
  avatar: string | null;
  /** SHA-256 of the token of the last password reset link sent, until it is used or replaced. */
  reset_password_digest: string | null;
  reset_password_sent_at: number | null;
  /** How many projects the user's personal namespace may hold (GitLab's projects_limit); 0: none. */
  projects_limit: Generated<number>;
  created_at: number;
  updated_at: number;
}

export type Theme = 'light' | 'dark' | 'system';

/**
 * GitLab's user states that Kiln has: `deactivated` users are reactivated by signing in again;
 * `blocked_pending_approval` ones signed up and wait for an administrator; `banned` is blocked by an
 * administrator's ban (GitLab's Users::BanService), refused as a blocked user is (docs/accounts.md).
 */
export type UserState = 'active' | 'blocked' | 'blocked_pending_approval' | 'deactivated' | 'banned';

export type Visibility = 'private' | 'internal' | 'public';

export interface NamespacesTable {
  id: Generated<number>;
  kind: 'user' | 'group';
  name: string;
  path: string;
  full_path: string;
  full_path_lower: string;
  parent_id: number | null;
  owner_id: number | null;
  visibility: Generated<Visibility>;
  description: Generated<string>;
  read_only: Generated<number>;
  avatar: string | null;
  deletion_scheduled_at: number | null;
  created_at: number;
  updated_at: number;
  /** Moved by every update (a trigger): the Project entity cache's key (platform/http/entity-cache.ts). */
  version: Generated<number>;
  /** The settings of accounts/settings-tables.ts a client set, as a JSON object (groups only). */
  settings: Generated<string>;
}

export interface ProjectsTable {
  id: Generated<number>;
  namespace_id: number;
  name: string;
  path: string;
  full_path: string;
  full_path_lower: string;
  description: Generated<string>;
  visibility: Generated<Visibility>;
  creator_id: number | null;
  default_branch: string;
  topics: Generated<string>;
  issues_access_level: Generated<FeatureAccessLevel>;
  repository_access_level: Generated<FeatureAccessLevel>;
  // Merge request settings (migration 20261228T1311-merge-requests; GitLab's names and defaults).
  merge_requests_access_level: Generated<FeatureAccessLevel>;
  merge_method: Generated<'merge' | 'rebase_merge' | 'ff'>;
  squash_option: Generated<'never' | 'always' | 'default_on' | 'default_off'>;
  only_allow_merge_if_pipeline_succeeds: Generated<number>;
  allow_merge_on_skipped_pipeline: Generated<number>;
  only_allow_merge_if_all_discussions_are_resolved: Generated<number>;
  resolve_outdated_diff_discussions: Generated<number>;
  remove_source_branch_after_merge: Generated<number>;
  printing_merge_request_link_enabled: Generated<number>;
  autoclose_referenced_issues: Generated<number>;
  approvals_before_merge: Generated<number>;
  reset_approvals_on_push: Generated<number>;
  merge_requests_author_approval: Generated<number>;
  merge_requests_disable_committers_approval: Generated<number>;
  mr_default_target_self: Generated<number>;
  merge_commit_template: Generated<string | null>;
  squash_commit_template: Generated<string | null>;
  suggestion_commit_message: Generated<string | null>;
  star_count: Generated<number>;
  /** Direct forks (projects naming it as forked_from_project_id), kept by the fork actions. */
  forks_count: Generated<number>;
  /** The upstream this project was forked from (GitLab's forked_from_project), kept by the fork actions. */
  forked_from_project_id: number | null;
  avatar: string | null;
  /**
   * 1 while the project may have group links (project_group_links), kept by the link's writes in their
   * transaction: 0 means it has none, so GET /projects/:id skips reading them. Not an API attribute.
   */
  has_group_links: Generated<number>;
  /**
   * Copies of the settings' shared_runners_enabled and group_runners_enabled (1 on, 0 off), written
   * with the settings (accounts/settings-tables.ts runnerFlagColumns) for the job claim. Not API attributes.
   */
  shared_runners_enabled: Generated<number>;
  group_runners_enabled: Generated<number>;
  created_at: number;
  updated_at: number;
  last_activity_at: number;
  /** Moved by every update (a trigger): the Project entity cache's key (platform/http/entity-cache.ts). */
  version: Generated<number>;
  /** The settings of accounts/settings-tables.ts a client set, as a JSON object. */
  settings: Generated<string>;
}

/** A project feature's access level, as GitLab's API names them. */
export type FeatureAccessLevel = 'disabled' | 'private' | 'enabled';

export interface UsersStarProjectsTable {
  id: Generated<number>;
  user_id: number;
  project_id: number;
  created_at: number;
}

export interface RedirectRoutesTable {
  id: Generated<number>;
  source_type: 'Project' | 'Namespace';
  source_id: number;
  path: string;
  path_lower: string;
  created_at: number;
}

export interface EmailsTable {
  id: Generated<number>;
  user_id: number;
  email: string;
  email_lower: string;
  confirmed_at: number | null;
  confirmation_digest: string | null;
  confirmation_sent_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface AvatarsTable {
  id: Generated<number>;
  model_type: 'Project' | 'Namespace' | 'Topic' | 'User';
  model_id: number;
  filename: string;
  content_type: string;
  data: Buffer;
  created_at: number;
}

export interface MembersTable {
  id: Generated<number>;
  source_type: 'Namespace' | 'Project';
  source_id: number;
  user_id: number;
  access_level: number;
  expires_at: string | null;
  created_by_id: number | null;
  created_at: number;
  updated_at: number;
}

/** A group shared with a group (GitLab's group_group_links): the invited group's members reach the shared one. */
export interface GroupGroupLinksTable {
  id: Generated<number>;
  shared_group_id: number;
  shared_with_group_id: number;
  group_access: number;
  expires_at: string | null;
  created_at: number;
}

/** A project shared with a group (GitLab's project_group_links). */
export interface ProjectGroupLinksTable {
  id: Generated<number>;
  project_id: number;
  group_id: number;
  group_access: number;
  expires_at: string | null;
  created_at: number;
}

export interface PersonalAccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_digest: string;
  scopes: string;
  expires_at: string | null;
  revoked: Generated<number>;
  /** When it was revoked (null while it is not, and for none revoked before the column existed). */
  revoked_at: Generated<number | null>;
  impersonation: Generated<number>;
  last_used_at: number | null;
  created_at: number;
}

/** A project and its forks, their forks, … (GitLab's fork_networks); the root is the first upstream. */
export interface ForkNetworksTable {
  id: Generated<number>;
  root_project_id: number | null;
  created_at: number;
}

/** A project's place in its fork network (the upstream it was forked from is on the project row). */
export interface ForkNetworkMembersTable {
  id: Generated<number>;
  fork_network_id: number;
  project_id: number;
  created_at: number;
}

export interface InternalIdsTable {
  project_id: number;
  usage: string;
  last_value: number;
}

/** A user's status (GitLab's user_statuses): one row per user, gone when cleared. */
export interface UserStatusesTable {
  user_id: number;
  emoji: string;
  message: string | null;
  availability: Generated<'not_set' | 'busy'>;
  clear_status_at: number | null;
  updated_at: number;
}

export interface AccountsTables {
  users: UsersTable;
  user_statuses: UserStatusesTable;
  namespaces: NamespacesTable;
  projects: ProjectsTable;
  members: MembersTable;
  group_group_links: GroupGroupLinksTable;
  project_group_links: ProjectGroupLinksTable;
  personal_access_tokens: PersonalAccessTokensTable;
  internal_ids: InternalIdsTable;
  users_star_projects: UsersStarProjectsTable;
  redirect_routes: RedirectRoutesTable;
  emails: EmailsTable;
  avatars: AvatarsTable;
  fork_networks: ForkNetworksTable;
  fork_network_members: ForkNetworkMembersTable;
}
