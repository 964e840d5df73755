// Erase a job (GitLab's Ci::BuildEraseService through POST /projects/:id/jobs/:job_id/erase): its log
// and artifacts go, erased_at is set. Only a finished job that still has a log or artifacts may be
// erased, so erasing twice answers 403 as GitLab does ("Job is not erasable!").
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import { StatusError } from '../../platform/errors.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import type { CiBuildRow } from '../../commit-statuses/api.js';

const COMPLETE: CiStatus[] = ['success', 'failed', 'canceled', 'skipped'];

export async function eraseJob(deps: Deps, build: CiBuildRow): Promise<CiBuildRow> {
  return inTransaction(deps.db, async (trx) => {
    const trace = await trx.selectFrom('ci_build_traces').select('build_id').where('build_id', '=', build.id).executeTakeFirst();
    const artifact = await trx.selectFrom('ci_job_artifacts').select('build_id').where('build_id', '=', build.id).executeTakeFirst();
    if (!COMPLETE.includes(build.status) || (!trace && !artifact)) throw new StatusError(403, '403 Forbidden - Job is not erasable!');
    await trx.deleteFrom('ci_job_artifacts').where('build_id', '=', build.id).execute();
    await trx.deleteFrom('ci_build_traces').where('build_id', '=', build.id).execute();
    const now = deps.clock.now();
    return trx.updateTable('ci_builds').set({ erased_at: now, trace_size: 0, artifacts_expire_at: null, updated_at: now }).where('id', '=', build.id).returningAll().executeTakeFirstOrThrow();
  });
}
