// Read queries of the namespaces API that need SQL the builder does not write: the members of a group
// and of its descendant groups (GitLab's users_with_descendants), counted once each.
import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';

/** Distinct users with a membership in each group or any group below it, by group id. */
export async function membersCountWithDescendants(db: Executor, groupIds: number[], day: string): Promise<Map<number, number>> {
  if (groupIds.length === 0) return new Map();
  const seeds = sql.join(groupIds.map((id) => sql`select cast(${sql.lit(Math.trunc(id))} as bigint), cast(${sql.lit(Math.trunc(id))} as bigint)`), sql` union all `);
  const { rows } = await sql<{ root_id: number; n: number }>`
    with recursive tree(root_id, id) as (
      ${seeds}
      union all
      select t.root_id, n.id from namespaces n join tree t on n.parent_id = t.id
    )
    select t.root_id, count(distinct m.user_id) as n from tree t
      join members m on m.source_type = 'Namespace' and m.source_id = t.id and (m.expires_at is null or m.expires_at >= ${day})
    group by t.root_id`.execute(db);
  return new Map(rows.map((row) => [Number(row.root_id), Number(row.n)]));
}
