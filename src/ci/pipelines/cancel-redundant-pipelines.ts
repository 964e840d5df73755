// Auto-cancel redundant pipelines (GitLab's Ci::PipelineCreation::CancelRedundantPipelinesService):
// once a new pipeline is committed, the older pipelines of its ref that are still alive are cancelled,
// when the project's `auto_cancel_pending_pipelines` is `enabled` (the default). Older means a smaller
// id, made in the last 7 days, for another commit than the new pipeline's and than the ref's head (a
// pipeline run again for the head is not redundant). What is cancelled is each older pipeline's own
// `workflow:auto_cancel:on_new_commit`, as GitLab keeps it on the pipeline:
// - `conservative` (the default): the whole pipeline, unless one of its jobs that started (running,
//   passed or failed) is not `interruptible`;
// - `interruptible`: only its `interruptible` jobs, whatever else started;
// - `none`: nothing.
// Each older pipeline is decided and cancelled in a transaction of its own, after the new pipeline's
// committed, and the decision is made on rows held by it: on PostgreSQL its jobs' rows (FOR UPDATE),
// then the pipeline's row (only while its status is still cancelable). A runner claiming one of them at
// that moment skips it (claim-job.ts claims with SKIP LOCKED) or, having claimed it first, is waited
// for and seen as started; SQLite runs one writer at a time. Another Kiln process cancelling the same
// pipeline waits for the row and finds the jobs cancelled. Running jobs stop on their runners through
// the cancel path users take (cancel-jobs.ts).
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import { parseStored } from '../../platform/db/stored-json.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import type { CiPipelineRow } from '../../commit-statuses/api.js';
import { readOptions } from './build-options.js';
import { cancelBuilds } from './cancel-jobs.js';
import { holdPipelineResources, processPipeline } from './process-pipeline.js';

/** GitLab's cancelable pipeline statuses (a pipeline waiting on a manual job is not among them). */
const CANCELABLE_PIPELINE_STATUSES: CiStatus[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled'];
/** Jobs that started: one of them not interruptible keeps a `conservative` pipeline alive. */
const STARTED: CiStatus[] = ['running', 'success', 'failed'];
/** The pipelines Kiln's CI makes (commit statuses posted by an external CI are not cancelled). */
const CI_SOURCES = ['push', 'web', 'api', 'trigger', 'schedule', 'merge_request_event'];
/** GitLab's bounds: the newest 3,000 candidates, made within 7 days. */
const MAX_CANCELLATIONS = 3000;
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Cancels the pipelines `pipeline` makes redundant; answers the ids of those it cancelled. */
export async function cancelRedundantPipelines(deps: Deps, project: { settings: string | null }, pipeline: CiPipelineRow, refHeadSha: string | null): Promise<number[]> {
  if (parseStored(project.settings).auto_cancel_pending_pipelines === 'disabled' || pipeline.ref === null) return [];
  let query = deps.db
    .selectFrom('ci_pipelines')
    .select('id')
    .where('project_id', '=', pipeline.project_id)
    .where('ref', '=', pipeline.ref)
    .where('tag', '=', pipeline.tag)
    .where('id', '<', pipeline.id)
    .where('status', 'in', CANCELABLE_PIPELINE_STATUSES)
    .where('source', 'in', CI_SOURCES)
    .where('created_at', '>=', deps.clock.now() - MAX_AGE_MS)
    .where('sha', '!=', pipeline.sha);
  if (refHeadSha) query = query.where('sha', '!=', refHeadSha);
  // The newest candidates, cancelled oldest first.
  const candidates = (await query.orderBy('id', 'desc').limit(MAX_CANCELLATIONS).execute()).reverse();
  const cancelled: number[] = [];
  for (const candidate of candidates) {
    if (await withDeadlockRetries(() => cancelRedundantPipeline(deps, Number(candidate.id), Number(pipeline.id)))) cancelled.push(Number(candidate.id));
  }
  return cancelled;
}

/**
 * PostgreSQL may choose this transaction as a deadlock's victim: a job's report that holds its row and
 * then processes the pipeline can cross the rows held here. It is run again (as GitLab retries a
 * cancel's lock three times); the other transaction has committed by then.
 */
async function withDeadlockRetries<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= 3 || (error as { code?: unknown }).code !== '40P01') throw error;
    }
  }
}

/** One older pipeline decided and cancelled by its own `on_new_commit`, in one transaction; true when a job was cancelled. */
async function cancelRedundantPipeline(deps: Deps, pipelineId: number, newerId: number): Promise<boolean> {
  return inTransaction(deps.db, async (trx) => {
    // The jobs' rows first, then the pipeline's: the order in which a runner's claim or report takes them.
    const jobsQuery = trx.selectFrom('ci_builds').selectAll().where('commit_id', '=', pipelineId).orderBy('id');
    const jobs = await (deps.dialect === 'postgres' ? jobsQuery.forUpdate() : jobsQuery).execute();
    // Then its resource groups' rows, before the pipeline's row, as processing takes them (assign-resource.ts).
    await holdPipelineResources(trx, deps, pipelineId);
    // Held while it is still cancelable (a no-op update takes the lock on both databases).
    const held = await trx
      .updateTable('ci_pipelines')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', pipelineId)
      .where('status', 'in', CANCELABLE_PIPELINE_STATUSES)
      .returning('auto_cancel_on_new_commit')
      .executeTakeFirst();
    const mode = held ? (held.auto_cancel_on_new_commit ?? 'conservative') : 'none';
    if (mode === 'none') return false;
    const interruptible = (job: (typeof jobs)[number]) => job.type === 'Ci::Build' && readOptions(job.options)?.interruptible === true;
    // Every attempt of a CI job counts, a retried one too (GitLab looks at all the pipeline's builds);
    // a status posted by an external CI has no `interruptible` and keeps nothing alive.
    if (mode === 'conservative' && jobs.some((job) => job.type === 'Ci::Build' && STARTED.includes(job.status) && !interruptible(job))) return false;
    const latest = jobs.filter((job) => Number(job.retried) === 0);
    const chosen = mode === 'interruptible' ? latest.filter(interruptible) : latest;
    if ((await cancelBuilds(trx, deps, chosen, newerId)) === 0) return false;
    await trx.updateTable('ci_pipelines').set({ auto_canceled_by_id: newerId }).where('id', '=', pipelineId).execute();
    // A job cancelled early may settle later ones (skipped); then the pipeline's status.
    await processPipeline(trx, deps, pipelineId);
    return true;
  });
}
