// What users do to jobs and pipelines (GitLab's Ci::Build / Ci::Pipeline events through the API):
// cancel (every active or blocked job → canceled), retry (a failed or canceled job gets a new copy in
// `created`, the old one counts as retried; the pipeline is processed again), play (a manual job →
// pending). Each runs in one transaction with the pipeline's processing.
import type { Deps } from '../../platform/deps.js';
import { inTransaction, type DbTransaction } from '../../platform/db/database.js';
import { StatusError } from '../../platform/errors.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import type { CiBuildRow } from '../../commit-statuses/api.js';
import { enqueuedAt, enqueuedStatus, holdPipelineResources, processPipeline, updatePipelineStatus } from '../pipelines/process-pipeline.js';
import { jobStatusChanged } from '../pipelines/job-status-changed.js';
import { cancelBuilds } from '../pipelines/cancel-jobs.js';

const RETRYABLE: CiStatus[] = ['success', 'failed', 'canceled'];

export async function cancelJob(deps: Deps, build: CiBuildRow): Promise<CiBuildRow> {
  return inTransaction(deps.db, async (trx) => {
    await cancelBuilds(trx, deps, [build]);
    await processPipeline(trx, deps, Number(build.commit_id));
    return trx.selectFrom('ci_builds').selectAll().where('id', '=', build.id).executeTakeFirstOrThrow();
  });
}

export async function cancelPipeline(deps: Deps, pipelineId: number): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const builds = await trx.selectFrom('ci_builds').selectAll().where('commit_id', '=', pipelineId).where('retried', '=', 0).execute();
    await cancelBuilds(trx, deps, builds);
    await updatePipelineStatus(trx, deps, pipelineId);
  });
}

/** A copy of the job in `created`, the old one retried; the pipeline processed (GitLab's Ci::RetryJobService). */
async function cloneBuild(trx: DbTransaction, deps: Deps, build: CiBuildRow, userId: number | null): Promise<CiBuildRow> {
  const now = deps.clock.now();
  await trx.updateTable('ci_builds').set({ retried: 1, updated_at: now }).where('id', '=', build.id).execute();
  const { id: _id, ...rest } = build;
  const copy = await trx
    .insertInto('ci_builds')
    .values({
      ...rest, status: 'created', retried: 0, user_id: userId, created_at: now, updated_at: now, queued_at: null, started_at: null, finished_at: null,
      token_digest: null, runner_id: null, failure_reason: null, scheduled_at: null, erased_at: null, artifacts_expire_at: null, trace_size: 0, trace_watched_until: null, retries: Number(build.retries) + 1, coverage: null,
      auto_canceled_by_id: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx.updateTable('deployments').set({ deployable_id: copy.id, status: 'created', updated_at: now, finished_at: null }).where('deployable_id', '=', build.id).execute();
  return copy;
}

export async function retryJob(deps: Deps, build: CiBuildRow, userId: number): Promise<CiBuildRow> {
  if (build.type !== 'Ci::Build' || !RETRYABLE.includes(build.status) || Number(build.retried) === 1) throw new StatusError(403, '403 Forbidden - Job is not retryable');
  return inTransaction(deps.db, async (trx) => {
    const copy = await cloneBuild(trx, deps, build, userId);
    await jobStatusChanged(trx, deps, copy, 'created');
    // A retried job runs again even when its `when` waits for the stage before (GitLab enqueues it);
    // one of a resource group waits for the resource again.
    const status = copy.when === 'manual' ? 'manual' : enqueuedStatus(copy);
    const now = deps.clock.now();
    await trx.updateTable('ci_builds').set({ status, ...enqueuedAt(status, now) }).where('id', '=', copy.id).execute();
    await jobStatusChanged(trx, deps, copy, status);
    await processPipeline(trx, deps, Number(build.commit_id));
    return trx.selectFrom('ci_builds').selectAll().where('id', '=', copy.id).executeTakeFirstOrThrow();
  });
}

/** Every failed or canceled job of the pipeline again (GitLab's Ci::RetryPipelineService); the later stages wait for them. */
export async function retryPipeline(deps: Deps, pipelineId: number, userId: number): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    // Its resource rows before its row (finished_at below), in the order processing takes them.
    await holdPipelineResources(trx, deps, pipelineId);
    const builds = await trx.selectFrom('ci_builds').selectAll().where('commit_id', '=', pipelineId).where('retried', '=', 0).where('type', '=', 'Ci::Build').orderBy('stage_idx').orderBy('id').execute();
    const failed = builds.filter((build) => build.status === 'failed' || build.status === 'canceled');
    if (failed.length === 0) return;
    const firstStage = Math.min(...failed.map((build) => build.stage_idx));
    for (const build of builds) {
      if (failed.includes(build)) await jobStatusChanged(trx, deps, await cloneBuild(trx, deps, build, userId), 'created');
      else if (build.stage_idx > firstStage && build.status === 'skipped') {
        await trx.updateTable('ci_builds').set({ status: 'created', finished_at: null, updated_at: deps.clock.now() }).where('id', '=', build.id).execute();
        await jobStatusChanged(trx, deps, build, 'created');
      }
    }
    await trx.updateTable('ci_pipelines').set({ finished_at: null }).where('id', '=', pipelineId).execute();
    await processPipeline(trx, deps, pipelineId);
  });
}

export async function playJob(deps: Deps, build: CiBuildRow, userId: number): Promise<CiBuildRow> {
  if (build.status !== 'manual' && build.status !== 'scheduled') {
    if (RETRYABLE.includes(build.status) && build.when === 'manual') return retryJob(deps, build, userId);
    throw new StatusError(400, '400 Bad request - Unplayable Job');
  }
  return inTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    // A job of a resource group waits for its resource (GitLab's enqueue to waiting_for_resource).
    const status = enqueuedStatus(build);
    await trx.updateTable('ci_builds').set({ status, updated_at: now, user_id: userId, ...enqueuedAt(status, now) }).where('id', '=', build.id).execute();
    await jobStatusChanged(trx, deps, { ...build, user_id: userId }, status);
    await processPipeline(trx, deps, Number(build.commit_id));
    return trx.selectFrom('ci_builds').selectAll().where('id', '=', build.id).executeTakeFirstOrThrow();
  });
}
