// Issues in bulk for the bench: multi-row INSERTs straight into `issues` (and the projects' iid
// counters), not the API, so 10⁵ issues seed in seconds. No events, notes or labels: the bench reads
// issues, it does not need their history.
import { sql } from 'kysely';
import type { Deps } from '../src/platform/deps.js';

export interface BulkIssues {
  /** Issues go to the projects in turn; each project's iids continue from `firstIid[project]` (1 if absent). */
  projectIds: number[];
  count: number;
  authorIds: number[];
  /** Issue n's title (`needle` words make searches that match a few). */
  title(n: number): string;
  /** Offset of n, so that a second call continues the first's titles. */
  from?: number;
}

const BATCH = 500;

/** Insert the issues; answers each project's last iid. */
export async function insertIssues(deps: Deps, spec: BulkIssues, lastIids = new Map<number, number>()): Promise<Map<number, number>> {
  const from = spec.from ?? 0;
  const now = deps.clock.now();
  for (let start = 0; start < spec.count; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(spec.count, start + BATCH); i += 1) {
      const n = from + i;
      const projectId = spec.projectIds[n % spec.projectIds.length];
      // The issue's place within its project's turn, so that authors and states vary inside every project.
      const turn = Math.floor(n / spec.projectIds.length);
      const iid = (lastIids.get(projectId) ?? 0) + 1;
      lastIids.set(projectId, iid);
      const closed = turn % 4 === 3;
      rows.push({
        project_id: projectId,
        iid,
        title: spec.title(n),
        description: `Issue ${n} of the bench: steps to reproduce, expected and actual behaviour.`,
        state: closed ? ('closed' as const) : ('opened' as const),
        author_id: spec.authorIds[turn % spec.authorIds.length],
        closed_by_id: closed ? spec.authorIds[0] : null,
        closed_at: closed ? now : null,
        created_at: now - (spec.count - i) * 1000,
        updated_at: now - (spec.count - i) * 1000,
      });
    }
    await deps.db.insertInto('issues').values(rows).execute();
  }
  for (const [projectId, iid] of lastIids) {
    await deps.db
      .insertInto('internal_ids')
      .values({ project_id: projectId, usage: 'issues', last_value: iid })
      .onConflict((conflict) => conflict.columns(['project_id', 'usage']).doUpdateSet({ last_value: iid }))
      .execute();
  }
  // A live PostgreSQL database has its statistics and its visibility map kept by autovacuum; right after a
  // bulk load neither may be there yet: the planner would not know which trigram or B-tree index is
  // selective, and an index-only scan would visit the table for every row (a bounded count of 10,001
  // closed issues by one author at 10⁶: a sequential scan, 10.8 ms, against 1 ms from the index alone),
  // or autovacuum would do that work in the middle of a measurement.
  if (deps.dialect === 'postgres') await sql`vacuum analyze issues`.execute(deps.db);
  return lastIids;
}
