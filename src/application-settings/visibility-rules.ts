// What the visibility settings mean when a project or group is created or changed (GitLab's
// default_project_visibility / default_group_visibility and restricted_visibility_levels, with
// Gitlab::VisibilityLevel.allowed_for?: administrators may use any level).
import type { Executor } from '../platform/db/database.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { Visibility } from '../platform/db/tables/accounts.js';
import { canOnInstance } from '../platform/auth/policies/index.js';
import { readApplicationSettings } from './read-settings.js';

const ORDER: readonly Visibility[] = ['private', 'internal', 'public'];

/**
 * The visibility a new project or group gets when the caller names none: the instance default,
 * lowered to the visibility of the group it goes into (a child is never more visible than its parent).
 */
export async function defaultVisibility(db: Executor, kind: 'project' | 'group', cap: Visibility | null): Promise<Visibility> {
  const settings = await readApplicationSettings(db);
  const wanted = kind === 'project' ? settings.default_project_visibility : settings.default_group_visibility;
  if (cap !== null && ORDER.indexOf(wanted) > ORDER.indexOf(cap)) return cap;
  return wanted;
}

/** GitLab's `visibility_level` error when a non-administrator uses a restricted level, or null. */
export async function restrictedVisibilityProblem(db: Executor, user: AuthUser | null, visibility: Visibility): Promise<string | null> {
  if (canOnInstance(user, 'admin_all_resources')) return null;
  const { restricted_visibility_levels: restricted } = await readApplicationSettings(db);
  return restricted.includes(visibility) ? `${visibility} has been restricted by your GitLab administrator` : null;
}
