// SQL the search scopes need that the builder does not write: a group with its descendants, and the
// users who are members of a project or group (their one definition is platform/auth/membership-queries.ts).
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import { groupUserIdsSql, projectTeamUserIdsSql } from '../platform/auth/membership-queries.js';

/** The group and every group below it. */
export async function groupWithDescendants(db: Executor, groupId: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    with recursive tree(id) as (
      select cast(${sql.lit(Math.trunc(groupId))} as bigint)
      union all
      select n.id from namespaces n join tree t on n.parent_id = t.id
    ) select id from tree`.execute(db);
  return rows.map((row) => Number(row.id));
}

/** `users` rows with a live membership of the group or an ancestor (GitLab's users_with_parents). */
export function isGroupMember(groupId: number, nowMs: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`id in (${groupUserIdsSql(groupId, nowMs)})`;
}

/** `users` rows in the project's team. */
export function isProjectMember(projectId: number, namespaceId: number, nowMs: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`id in (${projectTeamUserIdsSql(projectId, namespaceId, nowMs)})`;
}
