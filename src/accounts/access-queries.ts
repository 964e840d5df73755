// The statements of the access checks every request makes (access.ts), as raw SQL through the row
// cache: the query builder's per-query work cost as much as running them (docs/performance.md).
import { q, type Statement } from '../platform/db/statements.js';
import type { CachedTable } from '../platform/db/reads.js';

/** What the level statements read (the row cache, platform/db/reads.ts). */
export const LEVEL_TABLES: readonly CachedTable[] = ['namespaces', 'members'];
import { today } from '../platform/auth/access-scope.js';

/**
 * The user's highest membership level on a group and its ancestors. The ancestors are joined to
 * members rather than tested with `source_id in (select … from chain)`: SQLite plans the IN-subquery
 * form with a bloom filter per execution, about ten times slower.
 */
export function groupLevelStatement(groupId: number, userId: number, nowMs: number): Statement {
  return q`
    with recursive chain(id, parent_id) as (
      select id, parent_id from namespaces where id = ${groupId}
      union all
      select n.id, n.parent_id from namespaces n join chain c on n.id = c.parent_id
    )
    select max(m.access_level) as level from chain c
      join members m on m.user_id = ${userId} and m.source_type = 'Namespace' and m.source_id = c.id
    where m.expires_at is null or m.expires_at >= ${today(nowMs)}`;
}

/**
 * The project's namespace with the user's levels on the project (its own members) and on the
 * namespace chain. Two scalar subqueries (the chain's members joined, not matched with IN) instead of
 * one OR'ed subquery: SQLite ran the OR/IN form at ~80 µs, this at ~7.
 */
export function projectAccessStatement(project: { id: number; namespace_id: number }, userId: number, nowMs: number): Statement {
  const live = today(nowMs);
  return q`
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
    from namespaces ns where ns.id = ${project.namespace_id}`;
}
