// Resolving `:id` path parameters (gitlab-rest.md §1.2) to records the caller may see. Anything the
// caller cannot read is indistinguishable from a missing record: 404.
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import { q } from '../platform/db/reads.js';
import type { Principal } from '../platform/auth/principal.js';
import type { UsersTable } from '../platform/db/tables/accounts.js';
import { ForbiddenError, NotFoundError } from '../platform/errors.js';
import { canReadWithVisibility, groupAccessLevel, projectAccess, type NamespaceRow, type ProjectRow } from './access.js';

export type UserRow = Selectable<UsersTable>;

export interface ProjectAccess {
  project: ProjectRow;
  /** The namespace (user or group) the project lives in. */
  namespace: NamespaceRow;
  /** The caller's access level (0 for none; administrators count as owners). */
  level: number;
}

export interface GroupAccess {
  group: NamespaceRow;
  level: number;
}

const DIGITS = /^\d+$/;

export async function findProjectRow(deps: Deps, idOrPath: string | number): Promise<ProjectRow | undefined> {
  const key = String(idOrPath);
  // Read through the hot-path reads with their cache: every project-scoped request starts here.
  if (DIGITS.test(key)) return (await deps.reads.all<ProjectRow>(q`select * from projects where id = ${Number(key)}`, { cache: true }))[0];
  // A bare word cannot name a project: projects always live in a namespace.
  if (!key.includes('/')) return undefined;
  return (await deps.reads.all<ProjectRow>(q`select * from projects where full_path_lower = ${key.toLowerCase()}`, { cache: true }))[0];
}

/** A project the caller can read, with their access level; 404 "Project Not Found" otherwise. */
export async function findProject(deps: Deps, principal: Principal | null, idOrPath: string | number): Promise<ProjectAccess> {
  const project = await findProjectRow(deps, idOrPath);
  if (!project) throw new NotFoundError('Project');
  const user = principal?.user ?? null;
  const { level, namespace } = await projectAccess(deps.reads, user, project, deps.clock.now());
  if (!canReadWithVisibility(project.visibility, user, level)) throw new NotFoundError('Project');
  return { project, level, namespace };
}

export async function findGroupRow(deps: Deps, idOrPath: string | number): Promise<NamespaceRow | undefined> {
  const key = String(idOrPath);
  const query = deps.db.selectFrom('namespaces').selectAll().where('kind', '=', 'group');
  if (DIGITS.test(key)) return query.where('id', '=', Number(key)).executeTakeFirst();
  return query.where('full_path_lower', '=', key.toLowerCase()).executeTakeFirst();
}

/** A group the caller can read, with their access level; 404 "Group Not Found" otherwise. */
export async function findGroup(deps: Deps, principal: Principal | null, idOrPath: string | number): Promise<GroupAccess> {
  const group = await findGroupRow(deps, idOrPath);
  if (!group) throw new NotFoundError('Group');
  const user = principal?.user ?? null;
  const level = await groupAccessLevel(deps.reads, user, group, deps.clock.now());
  if (!canReadWithVisibility(group.visibility, user, level)) throw new NotFoundError('Group');
  return { group, level };
}

/** 403 unless the caller holds at least `minimum` (an ACCESS level). */
export function requireLevel(access: { level: number }, minimum: number): void {
  if (access.level < minimum) throw new ForbiddenError();
}

export async function findUserRow(deps: Deps, idOrUsername: string | number): Promise<UserRow | undefined> {
  const key = String(idOrUsername);
  if (DIGITS.test(key)) return (await deps.reads.all<UserRow>(q`select * from users where id = ${Number(key)}`, { cache: true }))[0];
  return (await deps.reads.all<UserRow>(q`select * from users where username_lower = ${key.toLowerCase()}`, { cache: true }))[0];
}

export async function findUser(deps: Deps, idOrUsername: string | number): Promise<UserRow> {
  const user = await findUserRow(deps, idOrUsername);
  if (!user) throw new NotFoundError('User');
  return user;
}

export function requireAdmin(principal: Principal): void {
  if (!principal.user.admin) throw new ForbiddenError();
}
