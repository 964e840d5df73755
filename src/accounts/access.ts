// Who may read or change what: membership (direct, inherited from ancestor groups, or the owner of a
// personal namespace), visibility, and administrators. Every feature asks here.
import type { Reads } from '../platform/db/reads.js';
import type { NamespaceRow, ProjectRow } from '../platform/auth/subjects.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import type { ProjectAbility } from '../platform/auth/policies/abilities.js';
import type { Executor } from '../platform/db/database.js';
import { groupLevelStatement, LEVEL_TABLES, projectAccessStatement } from './access-queries.js';
import { readsProjectInGroupSql } from '../platform/auth/membership-queries.js';

export type { NamespaceRow, ProjectRow };
export { today } from '../platform/auth/access-scope.js';

/** Highest access level a user holds on a group, counting memberships of its ancestors. */
export async function groupAccessLevel(reads: Reads, user: AuthUser | null, group: NamespaceRow, nowMs: number): Promise<number> {
  if (!user) return ACCESS.none;
  if (user.admin) return ACCESS.owner;
  if (group.kind === 'user') return group.owner_id === user.id ? ACCESS.owner : ACCESS.none;
  const rows = await reads.cached<{ level: number | null; shared_level: number | null }>(groupLevelStatement(group.id, user.id, nowMs), LEVEL_TABLES);
  return memberLevelOf(rows[0]?.level ?? null, rows[0]?.shared_level ?? null);
}

/**
 * Whether `user` reads a project in `group` or in a group below it (GitLab's has_projects): a private
 * group is readable to them without a role in it. Asked only where nothing else lets them read it.
 */
export async function readsProjectInGroup(executor: Executor, user: AuthUser, group: NamespaceRow, nowMs: number): Promise<boolean> {
  if (group.kind !== 'group') return false;
  const { rows } = await readsProjectInGroupSql(user.id, Number(group.id), nowMs).execute(executor);
  return rows.length > 0;
}

/**
 * Highest access level on a project — its own members, its group's (inherited), or the personal
 * owner — together with the project's namespace, in one query: every project-scoped request needs
 * the level and most need the namespace, and a query fewer is measurable on the hot path
 * (docs/performance.md).
 */
export async function projectAccess(reads: Reads, user: AuthUser | null, project: ProjectRow, nowMs: number): Promise<{ level: number; namespace: NamespaceRow }> {
  const userId = user?.id ?? 0;
  const rows = await reads.cached<NamespaceRow & { project_level: number | null; group_level: number | null; shared_level: number | null }>(projectAccessStatement(project, userId, nowMs), LEVEL_TABLES);
  const { project_level: projectLevel, group_level: groupLevel, shared_level: sharedLevel, ...namespace } = rows[0];
  return { level: levelOn(user, namespace as NamespaceRow, memberLevelOf(projectLevel, groupLevel, sharedLevel)), namespace: namespace as NamespaceRow };
}

/** Whether `user` may do `ability` on `project` now: for work done on a user's behalf outside a request. */
export async function userCanOnProject(reads: Reads, user: AuthUser, project: ProjectRow, ability: ProjectAbility, nowMs: number): Promise<boolean> {
  const { level } = await projectAccess(reads, user, project, nowMs);
  return canOnProject({ user, level, visibility: project.visibility, features: project }, ability);
}

/** The highest of the levels a user holds one way or another: membership, inherited, invited (null: none). */
export function memberLevelOf(...levels: Array<number | null>): number {
  return Math.max(0, ...levels.map((level) => Number(level ?? 0)));
}

/** The level on a project in `namespace` of a user with `memberLevel` there: administrators and personal owners own it. */
export function levelOn(user: AuthUser | null, namespace: NamespaceRow, memberLevel: number): number {
  if (!user) return ACCESS.none;
  if (user.admin) return ACCESS.owner;
  if (namespace.kind === 'user' && Number(namespace.owner_id) === user.id) return ACCESS.owner;
  return memberLevel;
}

/** Highest access level on a project (see projectAccess). */
export async function projectAccessLevel(reads: Reads, user: AuthUser | null, project: ProjectRow, nowMs: number): Promise<number> {
  return (await projectAccess(reads, user, project, nowMs)).level;
}
