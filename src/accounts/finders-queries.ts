// The conditions of the accounts listings (finders.ts) that the query builder cannot express.
import { sql } from 'kysely';
import { authorizedProjectIdsSql } from './access-queries.js';

/** A condition no row meets (a listing that is empty for this caller). */
export function noRows() {
  return sql<boolean>`1 = 0`;
}

/** Projects the user is a member of (directly, through a group, or as the personal owner). */
export function memberProjects(userId: number, nowMs: number) {
  return sql<boolean>`id in (${authorizedProjectIdsSql(userId, nowMs)})`;
}

/** Public and internal projects, and the user's own (GitLab's ProjectsFinder for a signed-in user). */
export function visibleOrMemberProjects(userId: number, nowMs: number) {
  return sql<boolean>`(visibility in ('public', 'internal') or id in (${authorizedProjectIdsSql(userId, nowMs)}))`;
}

/** Name or full path containing `pattern` (a LIKE pattern escaped with backslashes). */
export function nameOrPathLike(pattern: string) {
  return sql<boolean>`(lower(name) like ${pattern} escape '\\' or full_path_lower like ${pattern} escape '\\')`;
}

/** The groups the user is a member of, and their descendants. */
function memberGroups(userId: number) {
  return sql<{ id: number }>`
    with recursive member_groups(id) as (
      select source_id from members where source_type = 'Namespace' and user_id = ${userId}
      union
      select n.id from namespaces n join member_groups m on n.parent_id = m.id
    ) select id from member_groups`;
}

export function memberGroupsOnly(userId: number) {
  return sql<boolean>`id in (${memberGroups(userId)})`;
}

export function visibleOrMemberGroups(userId: number) {
  return sql<boolean>`(visibility in ('public', 'internal') or id in (${memberGroups(userId)}))`;
}
