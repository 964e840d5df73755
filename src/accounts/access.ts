// Who may read or change what: membership (direct, inherited from ancestor groups, or the owner of a
// personal namespace), visibility, and administrators. Every feature asks here.
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { NamespacesTable, ProjectsTable } from '../platform/db/tables/accounts.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { ACCESS } from './access-levels.js';

export type ProjectRow = Selectable<ProjectsTable>;
export type NamespaceRow = Selectable<NamespacesTable>;

/** Today's date as members.expires_at compares it; a membership expires at the end of its date. */
export function today(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}

/** Highest access level a user holds on a group, counting memberships of its ancestors. */
export async function groupAccessLevel(executor: Executor, user: AuthUser | null, group: NamespaceRow, nowMs: number): Promise<number> {
  if (!user) return ACCESS.none;
  if (user.admin) return ACCESS.owner;
  if (group.kind === 'user') return group.owner_id === user.id ? ACCESS.owner : ACCESS.none;
  const { rows } = await sql<{ level: number | null }>`
    with recursive chain(id, parent_id) as (
      select id, parent_id from namespaces where id = ${group.id}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )
    select max(access_level) as level from members
    where source_type = 'Namespace' and user_id = ${user.id} and source_id in (select id from chain)
      and (expires_at is null or expires_at >= ${today(nowMs)})`.execute(executor);
  return Number(rows[0]?.level ?? 0);
}

/**
 * Highest access level on a project — its own members, its group's (inherited), or the personal
 * owner — together with the project's namespace, in one query: every project-scoped request needs
 * the level and most need the namespace, and a query fewer is measurable on the hot path
 * (docs/performance.md).
 */
export async function projectAccess(executor: Executor, user: AuthUser | null, project: ProjectRow, nowMs: number): Promise<{ level: number; namespace: NamespaceRow }> {
  const userId = user?.id ?? 0;
  const { rows } = await sql<NamespaceRow & { member_level: number | null }>`
    with recursive chain(id, parent_id) as (
      select id, parent_id from namespaces where id = ${project.namespace_id}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )
    select ns.*,
      (select max(access_level) from members
        where user_id = ${userId} and (expires_at is null or expires_at >= ${today(nowMs)})
          and ((source_type = 'Project' and source_id = ${project.id})
            or (source_type = 'Namespace' and source_id in (select id from chain)))) as member_level
    from namespaces ns where ns.id = ${project.namespace_id}`.execute(executor);
  const { member_level: memberLevel, ...namespace } = rows[0];
  let level: number = ACCESS.none;
  if (user?.admin) level = ACCESS.owner;
  else if (user && namespace.kind === 'user' && Number(namespace.owner_id) === user.id) level = ACCESS.owner;
  else if (user) level = Number(memberLevel ?? 0);
  return { level, namespace: namespace as NamespaceRow };
}

/** Highest access level on a project (see projectAccess). */
export async function projectAccessLevel(executor: Executor, user: AuthUser | null, project: ProjectRow, nowMs: number): Promise<number> {
  return (await projectAccess(executor, user, project, nowMs)).level;
}

/** Visibility decides reading for non-members: public for everyone, internal for any signed-in user. */
export function canReadWithVisibility(visibility: string, user: AuthUser | null, level: number): boolean {
  if (level >= ACCESS.guest) return true;
  if (visibility === 'public') return true;
  if (visibility === 'internal') return user !== null;
  return false;
}

/**
 * SQL for the ids of projects a user is authorised for through membership (GitLab's
 * `authorized_projects`): direct members, members of an ancestor group, and personal namespace owners.
 */
export function authorizedProjectIdsSql(userId: number, nowMs: number) {
  return sql<{ id: number }>`
    with recursive member_namespaces(id) as (
      select source_id from members
        where source_type = 'Namespace' and user_id = ${userId} and (expires_at is null or expires_at >= ${today(nowMs)})
      union
      select id from namespaces where kind = 'user' and owner_id = ${userId}
      union
      select n.id from namespaces n join member_namespaces m on n.parent_id = m.id
    )
    select id from projects where namespace_id in (select id from member_namespaces)
    union
    select source_id from members
      where source_type = 'Project' and user_id = ${userId} and (expires_at is null or expires_at >= ${today(nowMs)})`;
}
