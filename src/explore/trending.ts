// Trending projects (GitLab's TrendingProject: the projects with the most activity of the last month).
// GitLab counts a month's notes in a daily job; Kiln ranks the projects of the newest activity events
// of the last 30 days when the page asks, with both scans bounded so the page costs the same on a busy
// instance: at most 10,000 events are counted and the 1,000 most active projects kept. Which of them
// the reader may see is the caller's filter.
import type { Deps } from '../platform/deps.js';

export const TRENDING_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
const EVENTS_COUNTED = 10_000;
const PROJECTS_RANKED = 1000;

/** Project ids, the most active first, with how many events each had. */
export async function trendingProjects(deps: Deps): Promise<Array<{ id: number; events: number }>> {
  const since = deps.clock.now() - TRENDING_DAYS * DAY_MS;
  const recent = deps.db.selectFrom('events').select('project_id').where('created_at', '>=', since).where('project_id', 'is not', null).orderBy('created_at', 'desc').limit(EVENTS_COUNTED).as('recent');
  const rows = await deps.db
    .selectFrom(recent)
    .select(['recent.project_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('recent.project_id')
    .orderBy('n', 'desc')
    .orderBy('recent.project_id', 'desc')
    .limit(PROJECTS_RANKED)
    .execute();
  return rows.map((row) => ({ id: Number(row.project_id), events: Number(row.n) }));
}
