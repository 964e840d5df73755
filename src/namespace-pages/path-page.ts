// What lives at a bare path: `/<group>/<project>` is a project, `/<group>` a group (GitLab serves a
// group at its own path as at /groups/<path>; we send it there), `/<username>` a user's profile.
// Registered after every other namespaced route: it takes only what nobody else did.
import type { Deps } from '../platform/deps.js';
import type { PageContext } from '../platform/web/page-route.js';
import { redirect } from '../platform/web/page.js';
import { NotFoundError } from '../platform/errors.js';
import { findGroup, findProject, findUserRow } from '../accounts/api.js';
import { renderProjectOverview } from './project-page.js';
import { renderUserProfile } from './user-page.js';

// Not API paths, not `-/…` routes, not git's `.git/…`, not inside a project's `/-/` pages.
export const PATH_PATTERN = /^(?<path>(?!api\/|-\/)(?!.*\.git(?:\/|$))(?:(?!\/-\/).)+?)\/?$/;

export async function renderPath(deps: Deps, context: PageContext) {
  const path = context.match.path;
  const principal = context.user ? { user: context.user, scopes: ['api'], via: 'session' as const, tokenId: null } : null;
  const project = await findProject(deps, principal, path, 'read_project').catch((error) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  if (project) return renderProjectOverview(context, project);
  const group = await findGroup(deps, principal, path).catch((error) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  if (group) return redirect(`/groups/${group.group.full_path}`, null, 302);
  if (!path.includes('/')) {
    const user = await findUserRow(deps, path);
    if (user && user.username.toLowerCase() === path.toLowerCase()) return renderUserProfile(context, user);
  }
  throw new NotFoundError('Page');
}
