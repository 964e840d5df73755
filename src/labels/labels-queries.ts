// Namespace trees for labels (a project sees the labels of every ancestor group; a group's label
// counts span its subgroups) and the issue counts of `with_counts`, as the caller may see them.
import { sql } from 'kysely';
import { containsPattern, lowerLike } from '../platform/db/like.js';
import type { Executor } from '../platform/db/database.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { readableIssueSql } from '../platform/auth/policies/issue-visibility-queries.js';

/** The group itself and its ancestors, nearest first (user namespaces are not groups: none). */
export async function groupAndAncestorIds(db: Executor, namespaceId: number): Promise<number[]> {
  const { rows } = await sql<{ id: number; depth: number }>`
    with recursive chain(id, parent_id, kind, depth) as (
      select id, parent_id, kind, 0 from namespaces where id = ${namespaceId}
      union all
      select n.id, n.parent_id, n.kind, c.depth + 1 from namespaces n join chain c on n.id = c.parent_id
    ) select id, depth from chain where kind = 'group' order by depth`.execute(db);
  return rows.map((row) => Number(row.id));
}

/** The group itself and every group below it. */
export async function groupAndDescendantIds(db: Executor, groupId: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    with recursive tree(id) as (
      select id from namespaces where id = ${groupId}
      union all
      select n.id from namespaces n join tree t on n.parent_id = t.id
    ) select id from tree`.execute(db);
  return rows.map((row) => Number(row.id));
}

export interface IssueCounts {
  opened: number;
  closed: number;
}

/**
 * Per label, its issues the viewer may read, opened and closed, among the issues of the given projects
 * (a project label) or of every project under the given groups (a group label).
 */
export async function labelIssueCounts(db: Executor, labelIds: number[], where: { projectId: number } | { groupIds: number[] }, viewer: AuthUser | null, nowMs: number): Promise<Map<number, IssueCounts>> {
  const counts = new Map<number, IssueCounts>(labelIds.map((id) => [id, { opened: 0, closed: 0 }]));
  if (labelIds.length === 0) return counts;
  const scope = 'projectId' in where
    ? sql`p.id = ${where.projectId}`
    : where.groupIds.length ? sql`p.namespace_id in (${sql.join(where.groupIds)})` : sql`1 = 0`;
  const { rows } = await sql<{ label_id: number; state: string; n: number }>`
    select ll.label_id, i.state, count(*) as n
    from label_links ll join issues i on i.id = ll.issue_id join projects p on p.id = i.project_id
    where ll.label_id in (${sql.join(labelIds)}) and ${scope} and ${readableIssueSql(viewer, nowMs)}
    group by ll.label_id, i.state`.execute(db);
  for (const row of rows) {
    const entry = counts.get(Number(row.label_id));
    if (entry) entry[row.state === 'closed' ? 'closed' : 'opened'] = Number(row.n);
  }
  return counts;
}

/** Rows whose title or description contain `text` literally, ignoring case (LIKE wildcards escaped). */
export function titleOrDescriptionContains(text: string) {
  const pattern = containsPattern(text);
  return sql<boolean>`(${lowerLike('title', pattern)} or ${lowerLike('description', pattern)})`;
}

/**
 * Promotion: the subscriptions to the `old` labels whose user already has one to `target` in the same
 * scope (a project, or none) go, so that moving the others keeps one row per user, label and scope.
 */
export async function deleteSubscriptionsDuplicatedOn(db: Executor, old: number[], target: number): Promise<void> {
  await sql`delete from label_subscriptions where label_id in (${sql.join(old)}) and exists (
    select 1 from label_subscriptions kept where kept.label_id = ${target} and kept.user_id = label_subscriptions.user_id
      and coalesce(kept.project_id, 0) = coalesce(label_subscriptions.project_id, 0))`.execute(db);
}
