// The dashboard's milestones: those of the projects and groups the reader is a member of, and the
// progress of each (the issues on it the reader may read, how many closed), in SQL.
import { sql, type SqlBool } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { memberGroupIdsSql, memberProjectIdsSql } from '../platform/auth/membership-queries.js';
import { readableIssueSql } from '../platform/auth/policies/issue-visibility-queries.js';
import { dueDateNullsLast } from '../milestones/api.js';

/**
 * Milestones of the projects and groups the user is a member of (GitLab's Dashboard::MilestonesController:
 * the user's authorized projects and groups, not everything an administrator could read), soonest due
 * first, those without a due date last.
 */
export function memberMilestonesQuery(deps: Deps, user: AuthUser, state: 'active' | 'closed' | 'all') {
  const now = deps.clock.now();
  const query = deps.db.selectFrom('milestones').selectAll()
    .where(sql<SqlBool>`(project_id in (${memberProjectIdsSql(user.id, ACCESS.guest, now)}) or group_id in (${memberGroupIdsSql(user.id, now)}))`);
  return state === 'all' ? query : query.where('state', '=', state);
}

export function orderedMilestones(query: ReturnType<typeof memberMilestonesQuery>) {
  return query.orderBy(dueDateNullsLast).orderBy('due_date').orderBy('id', 'desc');
}

/** Per milestone, the issues the user may read on it and how many of them are closed (one statement). */
export async function milestoneProgress(deps: Deps, user: AuthUser, milestoneIds: number[]): Promise<Map<number, { total: number; closed: number }>> {
  const progress = new Map<number, { total: number; closed: number }>();
  if (milestoneIds.length === 0) return progress;
  const rows = await deps.db.selectFrom('issues as i').innerJoin('projects as p', 'p.id', 'i.project_id')
    .select(['i.milestone_id', 'i.state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('i.milestone_id', 'in', milestoneIds)
    .where(readableIssueSql(user, deps.clock.now()))
    .groupBy(['i.milestone_id', 'i.state'])
    .execute();
  for (const row of rows) {
    const entry = progress.get(Number(row.milestone_id)) ?? { total: 0, closed: 0 };
    entry.total += Number(row.n);
    if (row.state === 'closed') entry.closed += Number(row.n);
    progress.set(Number(row.milestone_id), entry);
  }
  return progress;
}
