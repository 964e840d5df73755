// The SQL of to-dos: the visibility re-check every listing makes (a to-do is shown only while its
// reader may still read its target), and the conditional updates that resolve pending to-dos.
import { sql, type SqlBool } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { q } from '../platform/db/statements.js';
import { readableIssueSql } from '../platform/auth/policies/issue-visibility-queries.js';
import { readableMergeRequestSql } from '../platform/auth/policies/merge-request-visibility-queries.js';
import type { TodoTargetType } from '../platform/db/tables/todos.js';

/** True for rows of `todos as t` whose target `viewer` may read now (issue and merge request policies). */
export function readableTargetSql(viewer: AuthUser, nowMs: number) {
  return sql<SqlBool>`((t.target_type = 'Issue' and exists (select 1 from issues i join projects p on p.id = i.project_id where i.id = t.target_id and ${readableIssueSql(viewer, nowMs)}))
    or (t.target_type = 'MergeRequest' and exists (select 1 from merge_requests m join projects p on p.id = m.target_project_id where m.id = t.target_id and ${readableMergeRequestSql(viewer, nowMs)})))`;
}

/** Whether `viewer` may read one target (an issue or a merge request by id). */
export async function canReadTarget(deps: Deps, viewer: AuthUser, type: TodoTargetType, id: number): Promise<boolean> {
  const nowMs = deps.clock.now();
  const row = type === 'Issue'
    ? await deps.db.selectFrom('issues as i').innerJoin('projects as p', 'p.id', 'i.project_id').select('i.id').where('i.id', '=', id).where(readableIssueSql(viewer, nowMs)).executeTakeFirst()
    : await deps.db.selectFrom('merge_requests as m').innerJoin('projects as p', 'p.id', 'm.target_project_id').select('m.id').where('m.id', '=', id).where(readableMergeRequestSql(viewer, nowMs)).executeTakeFirst();
  return row !== undefined;
}

/** Every pending to-do on a target, done (the target was closed or merged). */
export function resolveTargetTodos(type: TodoTargetType, id: number, nowMs: number) {
  return q`update todos set state = 'done', updated_at = ${nowMs} where target_type = ${type} and target_id = ${id} and state = 'pending'`;
}

/** One user's pending to-dos on a target, done (they acted on it). */
export function resolveUserTargetTodos(userId: number, type: TodoTargetType, id: number, nowMs: number) {
  return q`update todos set state = 'done', updated_at = ${nowMs} where target_type = ${type} and target_id = ${id} and state = 'pending' and user_id = ${userId}`;
}
