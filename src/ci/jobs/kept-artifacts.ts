// GitLab's "keep artifacts from the most recent successful jobs" (the project's keep_latest_artifact,
// on by default): the artifacts of the latest successful pipeline of each ref outlive their
// `expire_in` — the daily expiry leaves them and they stay downloadable — until a newer pipeline of
// that ref succeeds, when they expire as written. With the setting off, expiry applies to them too.
import type { Deps } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/database.js';
import { projectSetting } from '../../accounts/api.js';

/** Of these jobs, those of their ref's latest successful pipeline in a project that keeps them. */
export async function keptLatestBuilds(db: Executor, buildIds: number[]): Promise<Set<number>> {
  if (buildIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('ci_builds as b')
    .innerJoin('ci_pipelines as p', 'p.id', 'b.commit_id')
    .innerJoin('projects as pr', 'pr.id', 'p.project_id')
    .select(['b.id', 'pr.settings'])
    .where('b.id', 'in', buildIds)
    .where('p.status', '=', 'success')
    .where(({ not, exists, selectFrom }) =>
      not(exists(
        selectFrom('ci_pipelines as newer').select('newer.id')
          .whereRef('newer.project_id', '=', 'p.project_id').whereRef('newer.ref', '=', 'p.ref').whereRef('newer.tag', '=', 'p.tag')
          .where('newer.status', '=', 'success').whereRef('newer.id', '>', 'p.id'),
      )))
    .execute();
  return new Set(rows.filter((row) => projectSetting(row, 'keep_latest_artifact') === true).map((row) => Number(row.id)));
}

/** Whether a job's archive expiring at `expireAt` may still be read: not expired yet, or kept as its ref's latest. */
export async function archiveAvailable(deps: Deps, buildId: number, expireAt: number | string | null): Promise<boolean> {
  if (expireAt === null || Number(expireAt) > deps.clock.now()) return true;
  return (await keptLatestBuilds(deps.db, [buildId])).has(buildId);
}
