// SQL the search scopes need that the builder does not write: a group with its descendants, and the
// users who are members of a project or group (GitLab's project team and group users, inherited from
// ancestor groups, with a personal namespace's owner).
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../platform/db/database.js';

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

function ancestorsSql(namespaceId: number): RawBuilder<unknown> {
  return sql`with recursive chain(id, parent_id) as (
      select id, parent_id from namespaces where id = ${namespaceId}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )`;
}

/** `users` rows with an unexpired membership of the group or an ancestor (GitLab's users_with_parents). */
export function isGroupMember(groupId: number, day: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`id in (${ancestorsSql(groupId)}
    select m.user_id from chain c join members m on m.source_type = 'Namespace' and m.source_id = c.id
      where m.expires_at is null or m.expires_at >= ${day})`;
}

/** `users` rows in the project's team: its members, its namespace chain's members, a personal namespace's owner. */
export function isProjectMember(projectId: number, namespaceId: number, day: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`id in (${ancestorsSql(namespaceId)}
    select m.user_id from chain c join members m on m.source_type = 'Namespace' and m.source_id = c.id
      where m.expires_at is null or m.expires_at >= ${day}
    union
    select user_id from members where source_type = 'Project' and source_id = ${projectId} and (expires_at is null or expires_at >= ${day})
    union
    select owner_id from namespaces where id = ${namespaceId} and kind = 'user' and owner_id is not null)`;
}
