// Accounts: users, groups, projects, members, personal access tokens, sign-in and browser sessions,
// and the signed-in user's two-factor and token pages.
import type { Feature } from '../platform/feature.js';
import { resolvePersonalAccessToken } from './resolve-personal-access-token.js';
import { resolveTokenWithProject } from './resolve-token-with-project.js';
import { findUserRow, subjectFinders } from './lookup.js';
import { toAuthUser } from './user-entities.js';
import { ensureRootUser } from './ensure-root.js';
import { userStatusRoutes } from './user-status-routes.js';
import { usersRoutes } from './users-routes.js';
import { groupsRoutes } from './groups-routes.js';
import { projectsRoutes } from './projects-routes.js';
import { accessRequestsRoutes } from './access-requests-routes.js';
import { sharingRoutes } from './sharing-routes.js';
import { membersRoutes } from './members-routes.js';
import { tokensRoutes } from './tokens-routes.js';
import { accessTokensRoutes } from './access-tokens-routes.js';
import { avatarRoute } from './avatar-route.js';
import { projectEditRoutes } from './project-edit-routes.js';
import { groupEditRoutes } from './group-edit-routes.js';
import { userAdminRoutes } from './user-admin-routes.js';
import { emailsRoutes } from './emails-routes.js';
import { membershipsRoutes } from './memberships-routes.js';
import { uploadsRoute } from './uploads-route.js';
import { DESTROY_GROUP_JOB } from './schedule-group-deletion.js';
import { destroyGroupJob } from './destroy-group.js';
import { DESTROY_USER_JOB } from './schedule-user-deletion.js';
import { PRUNE_TOKEN_BOTS_JOB, pruneTokenBots } from './prune-token-bots.js';
import { daily, scheduleOnce } from '../platform/jobs/daily.js';
import { destroyUserJob } from './destroy-user.js';
import { browserSessions } from './sessions.js';
import { signInRoutes } from './sign-in.js';
import { twoFactorPages } from './two-factor-pages.js';
import { personalAccessTokenPages } from './personal-access-tokens-pages.js';
import { userSettingsPages } from './settings/index.js';
import { passwordResetPages } from './password-reset-pages.js';
import { signUpPages } from './sign-up-pages.js';
import { adminUsersPages } from './admin-users-pages.js';
import { adminUserPage } from './admin-user-page.js';
import { impersonationPages } from './impersonation-pages.js';
import { adminNamespacesPages } from './admin-namespaces-pages.js';
import { projectImportRoutes } from './project-import-routes.js';

export const accountsFeature: Feature = {
  name: 'accounts',
  setup(deps) {
    deps.auth.personalAccessToken.push((token) => resolvePersonalAccessToken(deps, token));
    deps.auth.personalAccessTokenWithProject = (token, idOrPath) => resolveTokenWithProject(deps, token, idOrPath);
    deps.auth.findUserForSudo = async (idOrUsername) => {
      const row = await findUserRow(deps, idOrUsername);
      return row ? toAuthUser(row) : null;
    };
    deps.auth.subjects = subjectFinders(deps);
    deps.auth.sessions = browserSessions(deps);
  },
  routes(app, deps) {
    usersRoutes(app, deps);
    userStatusRoutes(app, deps);
    groupsRoutes(app, deps);
    projectsRoutes(app, deps);
    projectImportRoutes(app, deps);
    membersRoutes(app, deps);
    sharingRoutes(app, deps);
    accessRequestsRoutes(app, deps);
    tokensRoutes(app, deps);
    accessTokensRoutes(app, deps);
    avatarRoute(app, deps);
    projectEditRoutes(app, deps);
    groupEditRoutes(app, deps);
    userAdminRoutes(app, deps);
    emailsRoutes(app, deps);
    membershipsRoutes(app, deps);
    uploadsRoute(app, deps);
    signInRoutes(app, deps);
    twoFactorPages(app, deps);
    personalAccessTokenPages(app, deps);
    userSettingsPages(app, deps);
    passwordResetPages(app, deps);
    signUpPages(app, deps);
    adminUsersPages(app, deps);
    adminUserPage(app, deps);
    impersonationPages(app, deps);
    adminNamespacesPages(app, deps);
  },
  jobs: {
    [DESTROY_GROUP_JOB]: destroyGroupJob,
    [DESTROY_USER_JOB]: destroyUserJob,
    [PRUNE_TOKEN_BOTS_JOB]: daily(PRUNE_TOKEN_BOTS_JOB, async (deps) => {
      await pruneTokenBots(deps);
    }),
  },
  async onStart(deps) {
    await ensureRootUser(deps);
    await scheduleOnce(deps, PRUNE_TOKEN_BOTS_JOB, deps.clock.now(), { orRunning: true });
  },
};
// Issue 16: the project, group and members pages, a feature of their own (features.ts registers it).
export { accountPagesFeature } from './pages/index.js';
