// The memberships that give a user access, as SQL for listings across many projects or groups: the one
// definition the project and group lists, the issue and merge request visibility and the search use.
// A membership counts while it is unexpired (GitLab's `members.expires_at`, compared with today's date);
// a project is reached directly, through its namespace or any ancestor group, or by owning the
// personal namespace it is in; a group through itself or any ancestor.
import { sql, type RawBuilder } from 'kysely';
import { today } from './access-scope.js';

/** Ids of the projects where the user is a member with at least `level` (direct, inherited or personal owner). */
export function memberProjectIdsSql(userId: number, level: number, nowMs: number): RawBuilder<{ id: number }> {
  const day = today(nowMs);
  return sql<{ id: number }>`
    with recursive member_namespaces(id) as (
      select source_id from members
        where source_type = 'Namespace' and user_id = ${userId} and access_level >= ${level} and (expires_at is null or expires_at >= ${day})
      union
      select id from namespaces where kind = 'user' and owner_id = ${userId}
      union
      select n.id from namespaces n join member_namespaces m on n.parent_id = m.id
    )
    select id from projects where namespace_id in (select id from member_namespaces)
    union
    select source_id from members
      where source_type = 'Project' and user_id = ${userId} and access_level >= ${level} and (expires_at is null or expires_at >= ${day})`;
}

/** Ids of the groups the user is an unexpired member of, and of every group below them. */
export function memberGroupIdsSql(userId: number, nowMs: number): RawBuilder<{ id: number }> {
  return sql<{ id: number }>`
    with recursive member_groups(id) as (
      select source_id from members
        where source_type = 'Namespace' and user_id = ${userId} and (expires_at is null or expires_at >= ${today(nowMs)})
      union
      select n.id from namespaces n join member_groups m on n.parent_id = m.id
    ) select id from member_groups`;
}

/** The namespace and every group above it, as the CTE `chain(id, parent_id, owner_id)`. */
function namespaceChainSql(namespaceId: number): RawBuilder<unknown> {
  return sql`with recursive chain(id, parent_id, owner_id) as (
      select id, parent_id, owner_id from namespaces where id = ${namespaceId}
      union all
      select n.id, n.parent_id, n.owner_id from namespaces n join chain c on n.id = c.parent_id
    )`;
}

/**
 * Ids of the users on a project's team (GitLab's `project.team`): a live membership of the project, of its
 * namespace or of a group above it, or owning the personal namespace it is in (only user namespaces have
 * an owner).
 */
export function projectTeamUserIdsSql(projectId: number, namespaceId: number, nowMs: number): RawBuilder<{ user_id: number }> {
  const day = today(nowMs);
  return sql<{ user_id: number }>`${namespaceChainSql(namespaceId)}
    select user_id from members
      where source_type = 'Project' and source_id = ${projectId} and (expires_at is null or expires_at >= ${day})
    union
    select m.user_id from chain c join members m on m.source_type = 'Namespace' and m.source_id = c.id
      where m.expires_at is null or m.expires_at >= ${day}
    union
    select owner_id from chain where owner_id is not null`;
}

/** Ids of the users with a live membership of the group or of a group above it (GitLab's `users_with_parents`). */
export function groupUserIdsSql(groupId: number, nowMs: number): RawBuilder<{ user_id: number }> {
  return sql<{ user_id: number }>`${namespaceChainSql(groupId)}
    select m.user_id from chain c join members m on m.source_type = 'Namespace' and m.source_id = c.id
      where m.expires_at is null or m.expires_at >= ${today(nowMs)}`;
}
