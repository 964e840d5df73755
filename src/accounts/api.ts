// What other features may use of accounts: users, projects and groups as records and entities, the
// caller's access, the password check and the sign-in throttle. Everything else in this folder is
// internal (the lint rules in .dependency-cruiser.cjs enforce it).
export type { UserRow } from './lookup.js';
export { findGroup, findProject, findProjectRow, findUser, findUserRow } from './lookup.js';
export { groupAccessLevel, levelOn, projectAccess, today, userCanOnProject } from './access.js';
export { actsInName } from './acts-in-name.js';
export { memberGroupsWithLevels } from './member-group-levels-queries.js';
export { visibleProjectsQuery } from './finders.js';
export type { ProjectFilters } from './finders.js';
export { groupWebUrl, projectWebUrl } from './entities.js';
export { uploadedAvatarUrl } from './avatar-urls.js';
export { avatarUrl, type AvatarOwner, type UserLike, toAuthUser, userBasic, userPrivate, userProfile, userWebUrl } from './user-entities.js';
export { checkPassword, findUserByLogin, keptOutUnconfirmed } from './check-password.js';
export { unconfirmedTokenMessage } from './confirmation-period.js';
export { protectedPathHit } from './sign-in-rate-limit.js';
export { createUser, validateUserFields } from './create-user.js';
export { updateUser } from './update-user.js';
export { lockProject } from './lock-project.js';
export { createPersonalAccessToken, PAT_SCOPES } from './create-personal-access-token.js';
// Hooks other features register at setup for accounts' actions to call (hooks.ts).
export { accountHooks, type InitialFiles, type NewProjectTemplates } from './hooks.js';
// Issue 15 (namespaces, search): the namespace and project entities, and literal LIKE patterns.
export { namespaceEntity, projectEntity, projectSimpleEntity } from './entities.js';
export { containsPattern } from './like-pattern.js';
export { usersQuery } from './users-finder.js';
export { confirmedEmailsOf } from './emails-finder.js';
// Issue 16 (pages behind every web_url): a group's projects and subgroups as the API lists them.
export { groupProjectsQuery, subgroupsQuery } from './group-listings.js';
export { visibleGroupsQuery } from './finders.js';
export { noteActivity } from './record-activity.js';
export { unconfirmedRefusal } from './unconfirmed-tokens.js';
// Issue 37 (SSH): gitlab-shell's 2fa_recovery_codes and personal_access_token commands.
export { regenerateRecoveryCodes } from './regenerate-recovery-codes.js';
export { scopesAvailableTo } from './create-personal-access-token.js';
// Issue 36: profile pages link a user's website only when it is an http(s) address.
export { isWebAddress } from './update-profile.js';
// Issue 37 (Git LFS): whether a project's LFS is on (its stored `lfs_enabled` setting).
export { projectLfsEnabled, projectResourceGroupDefaultProcessMode, runnerFlagColumns } from './settings-tables.js';
// CI/CD settings the jobs act on (build_timeout, ci_default_git_depth, build_git_strategy, max_artifacts_size).
export { projectSetting } from './settings-tables.js';
// Forks (src/forks/): a project made as another's fork, and the fork network's links.
export { createProject } from './create-project.js';
export { updateProject } from './update-project.js';
export { deleteProject } from './delete-project.js';
export { forkedFromIds, forkedFromJson, inSameForkNetwork, isFork, joinForkNetwork, leaveForkNetwork } from './fork-network.js';
export { projectJson } from './entities.js';
export { namespacesOf } from './finders.js';
export { parseStored } from './stored-settings.js';
export { PROJECT_LIST_PARAMS, projectFilters } from './project-list-params.js';
// Issue 38: a user's status (emoji, message, availability), for their profile page.
export { userStatusOf } from './user-status.js';
// Issue 38 (topics): a topic's avatar is checked, kept and served as projects' and groups' are.
export { avatarChange } from './avatar-change.js';
export { storeAvatar } from './store-avatar.js';
export { removeAvatar } from './remove-avatar.js';
export { findAvatar, sendAvatar } from './avatars-finder.js';
// Issue 36 (access requests): the project and group pages' "Request access" button.
export { groupRequestAccessHtml, projectRequestAccessHtml } from './pages/members-page.js';
// Issue 40 (membership levels in one place): a project's team as users (the issue sidebar's assignees)
// and the groups a user reaches (the notifications page), from platform/auth/membership-queries.ts.
export { projectUsersQuery } from './project-users-queries.js';
export { memberGroupsOnly } from './finders-queries.js';
// The user entity's `can_create_project` (keys' owners): projects in each user's personal namespace.
export { personalProjectCounts } from './personal-projects.js';
