// Artifact expiry (`artifacts:expire_in`, the upload's `expire_in`): an expired archive is already
// refused for download at once (sendArchive); this daily job deletes the rows so their bytes leave the
// database. Batched, so a large backlog spreads over runs instead of one long transaction. GitLab's
// "keep the latest artifacts of a ref" is not applied: an expired archive goes whatever its pipeline.
import type { Deps } from '../../platform/deps.js';
import { daily } from '../../platform/jobs/daily.js';

export const EXPIRE_ARTIFACTS_JOB = 'ci.expire_artifacts';
const BATCH = 500;
const BATCHES_PER_RUN = 20;

export async function expireArtifacts(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  let deleted = 0;
  for (let batch = 0; batch < BATCHES_PER_RUN; batch += 1) {
    const ids = await deps.db.selectFrom('ci_job_artifacts').select('id').where('expire_at', 'is not', null).where('expire_at', '<=', now).limit(BATCH).execute();
    if (ids.length === 0) break;
    const result = await deps.db.deleteFrom('ci_job_artifacts').where('id', 'in', ids.map((row) => row.id)).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
    if (ids.length < BATCH) break;
  }
  if (deleted > 0) deps.log.info({ deleted }, 'deleted expired CI artifacts');
  return deleted;
}

export const expireArtifactsJob = daily(EXPIRE_ARTIFACTS_JOB, async (deps) => {
  await expireArtifacts(deps);
});
