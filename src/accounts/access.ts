// Who may read or change what: membership (direct, inherited from ancestor groups, or the owner of a
// personal namespace), visibility, and administrators. Every feature asks here.
import { sql } from 'kysely';
import { q, type Reads } from '../platform/db/reads.js';
import type { NamespaceRow, ProjectRow } from '../platform/auth/subjects.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { DAY_MS } from '../platform/clock.js';

export type { NamespaceRow, ProjectRow };

/** Today's date as members.expires_at compares it; a membership expires at the end of its date. */
export function today(nowMs: number): string {
  const day = Math.floor(nowMs / DAY_MS);
  if (day !== lastDay.day) lastDay = { day, text: new Date(day * DAY_MS).toISOString().slice(0, 10) };
  return lastDay.text;
}

// Asked on most requests (membership expiry, cache keys): formatting a date each time showed in profiles.
let lastDay = { day: Number.NaN, text: '' };

/**
 * What an access decision depends on besides the data: who asks, and the day (memberships expire
 * by the day). Part of every read-cache key of an answer that went through an access check.
 */
export function accessScope(user: AuthUser, nowMs: number): [number, boolean, string] {
  return [user.id, user.admin, today(nowMs)];
}

/** Highest access level a user holds on a group, counting memberships of its ancestors. */
export async function groupAccessLevel(reads: Reads, user: AuthUser | null, group: NamespaceRow, nowMs: number): Promise<number> {
  if (!user) return ACCESS.none;
  if (user.admin) return ACCESS.owner;
  if (group.kind === 'user') return group.owner_id === user.id ? ACCESS.owner : ACCESS.none;
  // The ancestors are joined to members rather than tested with `source_id in (select … from chain)`:
  // SQLite plans the IN-subquery form with a bloom filter per execution, about ten times slower.
  const rows = await reads.all<{ level: number | null }>(q`
    with recursive chain(id, parent_id) as (
      select id, parent_id from namespaces where id = ${group.id}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )
    select max(m.access_level) as level from chain c
      join members m on m.user_id = ${user.id} and m.source_type = 'Namespace' and m.source_id = c.id
    where m.expires_at is null or m.expires_at >= ${today(nowMs)}`, { cache: true });
  return Number(rows[0]?.level ?? 0);
}

/**
 * Highest access level on a project — its own members, its group's (inherited), or the personal
 * owner — together with the project's namespace, in one query: every project-scoped request needs
 * the level and most need the namespace, and a query fewer is measurable on the hot path
 * (docs/performance.md).
 */
export async function projectAccess(reads: Reads, user: AuthUser | null, project: ProjectRow, nowMs: number): Promise<{ level: number; namespace: NamespaceRow }> {
  const userId = user?.id ?? 0;
  const live = today(nowMs);
  // Two scalar subqueries (the project's own members; members of the namespace chain joined, not
  // matched with IN) instead of one OR'ed subquery: SQLite ran the OR/IN form at ~80 µs, this at ~7.
  const rows = await reads.all<NamespaceRow & { project_level: number | null; group_level: number | null }>(q`
    with recursive chain(id, parent_id) as (
      select id, parent_id from namespaces where id = ${project.namespace_id}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )
    select ns.*,
      (select max(m.access_level) from members m
        where m.user_id = ${userId} and m.source_type = 'Project' and m.source_id = ${project.id}
          and (m.expires_at is null or m.expires_at >= ${live})) as project_level,
      (select max(m.access_level) from chain c
        join members m on m.user_id = ${userId} and m.source_type = 'Namespace' and m.source_id = c.id
        where m.expires_at is null or m.expires_at >= ${live}) as group_level
    from namespaces ns where ns.id = ${project.namespace_id}`, { cache: true });
  const { project_level: projectLevel, group_level: groupLevel, ...namespace } = rows[0];
  const memberLevel = Math.max(Number(projectLevel ?? 0), Number(groupLevel ?? 0));
  let level: number = ACCESS.none;
  if (user?.admin) level = ACCESS.owner;
  else if (user && namespace.kind === 'user' && Number(namespace.owner_id) === user.id) level = ACCESS.owner;
  else if (user) level = memberLevel;
  return { level, namespace: namespace as NamespaceRow };
}

/** Highest access level on a project (see projectAccess). */
export async function projectAccessLevel(reads: Reads, user: AuthUser | null, project: ProjectRow, nowMs: number): Promise<number> {
  return (await projectAccess(reads, user, project, nowMs)).level;
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
