// Who may push to or merge into a protected branch: GitLab's ProtectedRefAccess#check_access and
// ProtectedBranch.protected_ref_accessible_to? (app/models/concerns/protected_ref_access.rb,
// app/models/protected_branch.rb). An access level names the lowest membership role allowed; 0 is
// nobody and 60 is administrators only. Administrators are not members: an administrator without a
// membership pushes only where the level is 60, as in GitLab.
import { ACCESS } from '../access-levels.js';
import { isBlockedState, type AuthUser } from '../principal.js';

/** The levels a protected branch accepts for pushing and merging (ProtectedRefAccess.allowed_access_levels). */
export const PROTECTED_REF_LEVELS = { noOne: 0, developer: ACCESS.developer, maintainer: ACCESS.maintainer, admin: 60 } as const;
export const ALLOWED_PROTECTED_REF_LEVELS: readonly number[] = Object.values(PROTECTED_REF_LEVELS);

/** GitLab's `humanize` of an access level, as the API's access_level_description. */
export const PROTECTED_REF_LEVEL_NAMES: Readonly<Record<number, string>> = {
  [PROTECTED_REF_LEVELS.noOne]: 'No one',
  [PROTECTED_REF_LEVELS.developer]: 'Developers + Maintainers',
  [PROTECTED_REF_LEVELS.maintainer]: 'Maintainers',
  [PROTECTED_REF_LEVELS.admin]: 'Administrators',
};

export interface BranchActor {
  user: AuthUser | null;
  /** The user's membership role on the project (direct, inherited or personal owner), without the administrator boost. */
  memberLevel: number;
}

/** One access level of a protected branch rule (ProtectedRefAccess#check_access). */
export function allowsProtectedRef(actor: BranchActor, accessLevel: number): boolean {
  const { user } = actor;
  if (!user || isBlockedState(user.state)) return false;
  if (accessLevel === PROTECTED_REF_LEVELS.noOne) return false;
  if (accessLevel === PROTECTED_REF_LEVELS.admin) return user.admin;
  return actor.memberLevel >= accessLevel;
}

/** Any access level of any rule matching the branch lets the actor through. */
export function allowsAnyProtectedRef(actor: BranchActor, accessLevels: readonly number[]): boolean {
  return accessLevels.some((level) => allowsProtectedRef(actor, level));
}

/**
 * In an empty repository every branch counts as protected (the default branch protection), and
 * Maintainers, Owners and administrators may create the first one (ProtectedBranch.protected_ref_accessible_to?).
 */
export function createsFirstBranch(actor: BranchActor): boolean {
  const { user } = actor;
  if (!user || isBlockedState(user.state)) return false;
  return user.admin || actor.memberLevel >= ACCESS.maintainer;
}
