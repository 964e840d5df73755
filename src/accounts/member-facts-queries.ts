// The statements of member-facts.ts: recursive walks of the namespace chain, in the caller's transaction.
import { q, type Statement } from '../platform/db/statements.js';
import { LAST_OWNER_LEVEL } from '../platform/auth/policies/index.js';
import { today } from '../platform/auth/access-scope.js';

/** Take the row lock of the hierarchy's top group (an update that changes nothing). */
export function lockTopGroup(groupId: number): Statement {
  return q`
    with recursive chain(id, parent_id) as (
      select id, parent_id from namespaces where id = ${groupId}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )
    update namespaces set updated_at = updated_at where id = (select id from chain where parent_id is null)`;
}

/** Owners of the group, direct or inherited, besides the user's own membership of this group. */
export function otherOwnersOf(groupId: number, userId: number, nowMs: number): Statement {
  return q`
    with recursive chain(id, parent_id) as (
      select id, parent_id from namespaces where id = ${groupId}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )
    select count(distinct m.user_id) as owners from chain c
      join members m on m.source_type = 'Namespace' and m.source_id = c.id
    where m.access_level = ${LAST_OWNER_LEVEL}
      and (m.expires_at is null or m.expires_at >= ${today(nowMs)})
      and not (m.source_id = ${groupId} and m.user_id = ${userId})`;
}

/** Where the groups above a source start: a project's namespace. */
export function projectNamespace(projectId: number): Statement {
  return q`select namespace_id as start from projects where id = ${projectId}`;
}

/** Where the groups above a source start: a subgroup's parent. */
export function groupParent(groupId: number): Statement {
  return q`select parent_id as start from namespaces where id = ${groupId}`;
}

/** The user's highest live membership of the group `start` and its ancestors, with that group's name. */
export function highestMembershipAbove(start: number, userId: number, nowMs: number): Statement {
  return q`
    with recursive chain(id, parent_id) as (
      select id, parent_id from namespaces where id = ${start}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )
    select m.access_level as level, n.name as group_name from chain c
      join members m on m.source_type = 'Namespace' and m.source_id = c.id and m.user_id = ${userId}
      join namespaces n on n.id = c.id
    where m.expires_at is null or m.expires_at >= ${today(nowMs)}
    order by m.access_level desc, c.id
    limit 1`;
}
