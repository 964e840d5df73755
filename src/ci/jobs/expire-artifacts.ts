// Artifact expiry (`artifacts:expire_in`, the upload's `expire_in`): an expired archive is already
// refused for download at once (sendArchive); this daily job deletes the rows so their bytes leave the
// database. Batched, so a large backlog spreads over runs instead of one long transaction. The
// artifacts of a ref's latest successful pipeline are left while the project keeps them
// (keep_latest_artifact, kept-artifacts.ts); the batches walk on past them by id.
import type { Deps } from '../../platform/deps.js';
import { daily } from '../../platform/jobs/daily.js';
import { keptLatestBuilds } from './kept-artifacts.js';

export const EXPIRE_ARTIFACTS_JOB = 'ci.expire_artifacts';
const BATCH = 500;
const BATCHES_PER_RUN = 20;

export async function expireArtifacts(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  let deleted = 0;
  let after = 0;
  for (let batch = 0; batch < BATCHES_PER_RUN; batch += 1) {
    const rows = await deps.db.selectFrom('ci_job_artifacts').select(['id', 'build_id']).where('expire_at', 'is not', null).where('expire_at', '<=', now).where('id', '>', after).orderBy('id').limit(BATCH).execute();
    if (rows.length === 0) break;
    after = Number(rows[rows.length - 1].id);
    const kept = await keptLatestBuilds(deps.db, [...new Set(rows.map((row) => Number(row.build_id)))]);
    const ids = rows.filter((row) => !kept.has(Number(row.build_id))).map((row) => row.id);
    if (ids.length) deleted += Number((await deps.db.deleteFrom('ci_job_artifacts').where('id', 'in', ids).executeTakeFirst()).numDeletedRows);
    if (rows.length < BATCH) break;
  }
  if (deleted > 0) deps.log.info({ deleted }, 'deleted expired CI artifacts');
  return deleted;
}

export const expireArtifactsJob = daily(EXPIRE_ARTIFACTS_JOB, async (deps) => {
  await expireArtifacts(deps);
});
