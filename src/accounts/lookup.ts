// Resolving `:id` path parameters (GitLab's REST API documentation) to records the caller may see. Anything the
// caller cannot read is indistinguishable from a missing record: 404.
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import type { UsersTable } from '../platform/db/tables/accounts.js';
import { NotFoundError } from '../platform/errors.js';
import type { GroupAccess, NamespaceRow, PrefetchedProject, ProjectAccess, ProjectRow } from '../platform/auth/subjects.js';
import { authorizeGroup, authorizeProject, canOnGroup, canOnProject, type GroupAbility, type ProjectAbility } from '../platform/auth/policies/index.js';
import { groupAccessLevel, levelOn, projectAccess, readsProjectInGroup } from './access.js';
import { GROUP_TABLES, groupById, groupByPath, PROJECT_TABLES, projectById, projectByPath, projectByRedirect, REDIRECT_TABLES, USER_TABLES, userById, userByUsername } from './lookup-queries.js';

export type UserRow = Selectable<UsersTable>;
export type { GroupAccess, ProjectAccess };

const DIGITS = /^\d+$/;

export async function findProjectRow(deps: Deps, idOrPath: string | number): Promise<ProjectRow | undefined> {
  const key = String(idOrPath);
  // Through the row cache: every project-scoped request starts here.
  if (DIGITS.test(key)) return (await deps.reads.cached<ProjectRow>(projectById(Number(key)), PROJECT_TABLES))[0];
  // A bare word cannot name a project: projects always live in a namespace.
  if (!key.includes('/')) return undefined;
  const lower = key.toLowerCase();
  const found = (await deps.reads.cached<ProjectRow>(projectByPath(lower), PROJECT_TABLES))[0];
  if (found) return found;
  // An old path of a renamed or transferred project still leads to it, in the API and for git
  // (GitLab's find_by_full_path with follow_redirects), until another project takes the path.
  return (await deps.reads.cached<ProjectRow>(projectByRedirect(lower), REDIRECT_TABLES))[0];
}

/**
 * A project the caller can read ("404 Project Not Found" otherwise) on which they hold `ability`
 * (403 otherwise), with their access level.
 */
export async function findProject(
  deps: Deps,
  principal: Principal | null,
  idOrPath: string | number,
  ability: ProjectAbility = 'read_project',
  prefetched?: PrefetchedProject,
): Promise<ProjectAccess> {
  const user = principal?.user ?? null;
  // Read with the principal's own token (resolve-token-with-project.ts): the same rows, one statement.
  const current = prefetched ?? null;
  const project = current ? current.project : await findProjectRow(deps, idOrPath);
  if (!project) throw new NotFoundError('Project');
  const { level, namespace } = current
    ? { level: levelOn(user, current.namespace, current.memberLevel), namespace: current.namespace }
    : await projectAccess(deps.reads, user, project, deps.clock.now());
  const access: ProjectAccess = { user, level, visibility: project.visibility, features: project, project, namespace };
  if (!canOnProject(access, 'read_project')) throw new NotFoundError('Project');
  if (ability !== 'read_project') authorizeProject(access, ability);
  return access;
}

export async function findGroupRow(deps: Deps, idOrPath: string | number): Promise<NamespaceRow | undefined> {
  const key = String(idOrPath);
  const statement = DIGITS.test(key) ? groupById(Number(key)) : groupByPath(key.toLowerCase());
  return (await deps.reads.cached<NamespaceRow>(statement, GROUP_TABLES))[0];
}

/** A group the caller can read ("404 Group Not Found" otherwise) on which they hold `ability` (403 otherwise). */
export async function findGroup(deps: Deps, principal: Principal | null, idOrPath: string | number, ability: GroupAbility = 'read_group'): Promise<GroupAccess> {
  const group = await findGroupRow(deps, idOrPath);
  if (!group) throw new NotFoundError('Group');
  const user = principal?.user ?? null;
  const now = deps.clock.now();
  const level = await groupAccessLevel(deps.reads, user, group, now);
  let access: GroupAccess = { user, level, visibility: group.visibility, features: group, group };
  // Whoever reads a project inside reads the group too (GitLab's has_projects): looked up only when
  // neither a role nor the visibility lets them, the one case where it decides anything.
  if (!canOnGroup(access, 'read_group') && user && (await readsProjectInGroup(deps.db, user, group, now))) access = { ...access, readsProjectBelow: true };
  if (!canOnGroup(access, 'read_group')) throw new NotFoundError('Group');
  if (ability !== 'read_group') authorizeGroup(access, ability);
  return access;
}

export async function findUserRow(deps: Deps, idOrUsername: string | number): Promise<UserRow | undefined> {
  const key = String(idOrUsername);
  if (DIGITS.test(key)) return (await deps.reads.cached<UserRow>(userById(Number(key)), USER_TABLES))[0];
  return (await deps.reads.cached<UserRow>(userByUsername(key.toLowerCase()), USER_TABLES))[0];
}

export async function findUser(deps: Deps, idOrUsername: string | number): Promise<UserRow> {
  const user = await findUserRow(deps, idOrUsername);
  if (!user) throw new NotFoundError('User');
  return user;
}

/** Registered as the route kit's subject finders (platform/auth/subjects.ts). */
export function subjectFinders(deps: Deps) {
  return {
    project: (principal: Principal | null, id: string | number, ability: ProjectAbility, prefetched?: PrefetchedProject) => findProject(deps, principal, id, ability, prefetched),
    group: (principal: Principal | null, id: string | number, ability: GroupAbility) => findGroup(deps, principal, id, ability),
  };
}
