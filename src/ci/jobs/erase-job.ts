// Erase a job (GitLab's Ci::BuildEraseService through POST /projects/:id/jobs/:job_id/erase): its log
// and artifacts go, erased_at is set. Only a finished job that still has a log or artifacts may be
// erased, so erasing twice answers 403 as GitLab does ("Job is not erasable!").
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import { StatusError } from '../../platform/errors.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import type { CiBuildRow } from '../../commit-statuses/api.js';
import { deleteTrace } from './trace.js';

const COMPLETE: CiStatus[] = ['success', 'failed', 'canceled', 'skipped'];

const NOT_ERASABLE = '403 Forbidden - Job is not erasable!';

export async function eraseJob(deps: Deps, build: CiBuildRow): Promise<CiBuildRow> {
  if (!COMPLETE.includes(build.status)) throw new StatusError(403, NOT_ERASABLE);
  return inTransaction(deps.db, async (trx) => {
    const artifacts = await trx.deleteFrom('ci_job_artifacts').where('build_id', '=', build.id).executeTakeFirst();
    const traceChunks = await deleteTrace(trx, Number(build.id));
    // Nothing was there to erase (erased already): refused, and the transaction has changed nothing.
    if (Number(artifacts.numDeletedRows) + traceChunks === 0) throw new StatusError(403, NOT_ERASABLE);
    const now = deps.clock.now();
    return trx.updateTable('ci_builds').set({ erased_at: now, trace_size: 0, artifacts_expire_at: null, updated_at: now }).where('id', '=', build.id).returningAll().executeTakeFirstOrThrow();
  });
}
