// What a runner tells about the job it runs (GitLab's API::Ci::Runner job endpoints): its state
// (`PUT /jobs/:id`: success, or failed with a reason, which an exit code listed in
// `allow_failure:exit_codes` turns into an allowed failure, and `retry:` into a new attempt), its log
// appended piece by piece (`PATCH /jobs/:id/trace` with Content-Range) and its artifacts. A failure
// cancels the rest of a pipeline whose `workflow:auto_cancel:on_job_failure` is `all`.
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import type { CiBuildRow } from '../../commit-statuses/api.js';
import { enqueuedAt, enqueuedStatus, processPipeline } from '../pipelines/process-pipeline.js';
import { syncDeployment } from '../pipelines/sync-deployment.js';
import { publishJobStatus } from '../pipelines/job-status-changed.js';
import { readOptions } from '../pipelines/build-options.js';
import { parseDuration } from '../config/duration.js';
import { maskedValuesOf } from '../cicd-variables/mask-trace.js';
import { appendTraceChunks } from './trace.js';
import { cancelPipeline } from './job-actions.js';

/** GitLab's `ci_jobs_trace_size_limit` is 100 MB; Kiln keeps logs in the database and stops at 16 MiB. */
export const TRACE_LIMIT = 16 * 1024 * 1024;
export const ARTIFACT_LIMIT = 100 * 1024 * 1024;
const KNOWN_REASONS = new Set([
  'unknown_failure', 'script_failure', 'api_failure', 'stuck_or_timeout_failure', 'runner_system_failure', 'missing_dependency_failure', 'runner_unsupported',
  'stale_schedule', 'job_execution_timeout', 'archived_failure', 'unmet_prerequisites', 'scheduler_failure', 'data_integrity_failure', 'trace_size_exceeded',
  'image_pull_failure', 'runner_configuration_error', 'runner_external_dependency_failure', 'runner_interrupted', 'user_blocked',
]);
/** Failures no `retry:` repeats (GitLab's unretryable failure reasons): the job would fail the same way again. */
const UNRETRYABLE = new Set(['archived_failure', 'unmet_prerequisites', 'user_blocked']);

/**
 * Ends a running job (or, with `from: 'pending'`, one no runner took); true when it changed. A failure
 * may be allowed (exit codes) or retried (`retry:`).
 */
export async function finishJob(deps: Deps, build: CiBuildRow, state: 'success' | 'failed', failureReason?: string, exitCode?: number, from: 'running' | 'pending' = 'running'): Promise<boolean> {
  const outcome = await inTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    const options = readOptions(build.options);
    const reason = state === 'failed' ? (failureReason && KNOWN_REASONS.has(failureReason) ? failureReason : 'unknown_failure') : null;
    const allowedByExitCode = state === 'failed' && exitCode !== undefined && (options?.allowFailureExitCodes ?? []).includes(exitCode);
    const updated = await trx
      .updateTable('ci_builds')
      .set({ status: state, finished_at: now, updated_at: now, failure_reason: reason, ...(allowedByExitCode ? { allow_failure: 1 } : {}) })
      .where('id', '=', build.id)
      .where('status', '=', from)
      .returningAll()
      .executeTakeFirst();
    if (!updated) return null;
    if (state === 'success' && options?.artifacts?.expireIn && options.artifacts.expireIn !== 'never') {
      const seconds = parseDuration(options.artifacts.expireIn);
      if (seconds !== null) await trx.updateTable('ci_builds').set({ artifacts_expire_at: now + seconds * 1000 }).where('id', '=', build.id).execute();
    }
    await syncDeployment(trx, deps, Number(build.id), state);
    const retry = options?.retry;
    let copy: { id: number; project_id: number; user_id: number | null } | undefined;
    // A new attempt of a resource group's job waits for the resource again; processing settles it.
    const queued = enqueuedStatus(updated);
    if (state === 'failed' && !allowedByExitCode && retry && !UNRETRYABLE.has(reason!) && Number(build.retries) < retry.max && (retry.when.includes('always') || retry.when.includes(reason!))) {
      await trx.updateTable('ci_builds').set({ retried: 1 }).where('id', '=', build.id).execute();
      const { id: _id, ...rest } = updated;
      copy = await trx
        .insertInto('ci_builds')
        .values({ ...rest, status: queued, retried: 0, retries: Number(build.retries) + 1, created_at: now, updated_at: now, queued_at: null, waiting_for_resource_at: null, ...enqueuedAt(queued, now), started_at: null, finished_at: null, token_digest: null, runner_id: null, failure_reason: null, trace_size: 0, trace_watched_until: null })
        .returning(['id', 'project_id', 'user_id'])
        .executeTakeFirstOrThrow();
      await trx.updateTable('deployments').set({ deployable_id: copy.id, status: 'created', finished_at: null, updated_at: now }).where('deployable_id', '=', build.id).execute();
    }
    await processPipeline(trx, deps, Number(build.commit_id));
    await publishJobStatus(trx, deps, updated, state);
    // The new attempt is created, then queued: a Job Hook for each, as GitLab sends them.
    if (copy) {
      await publishJobStatus(trx, deps, copy, 'created');
      await publishJobStatus(trx, deps, copy, queued);
    }
    // A failure not allowed and not retried by `retry:` (GitLab's can_auto_cancel_pipeline_on_job_failure?).
    return { failedPipeline: state === 'failed' && !copy && Number(updated.allow_failure) !== 1 };
  });
  if (outcome?.failedPipeline) await cancelOnJobFailure(deps, Number(build.commit_id));
  return outcome !== null;
}

/**
 * `workflow:auto_cancel:on_job_failure: all`: the rest of the pipeline is cancelled once the failure
 * committed, as a user's cancel would (GitLab cancels it after the commit too).
 */
async function cancelOnJobFailure(deps: Deps, pipelineId: number): Promise<void> {
  const pipeline = await deps.db.selectFrom('ci_pipelines').select('auto_cancel_on_job_failure').where('id', '=', pipelineId).executeTakeFirst();
  if (pipeline?.auto_cancel_on_job_failure !== 'all') return;
  // The job's failure is recorded whatever happens here: the runner's report is not refused for it.
  await cancelPipeline(deps, pipelineId).catch((error: unknown) => deps.log.error({ err: error, pipelineId }, 'cancelling a pipeline on its job failure failed'));
}

/** A runner's keep-alive (`PUT /jobs/:id` with `state=running`): the job is not stuck (drop-stuck-jobs.ts). */
export async function touchJob(deps: Deps, buildId: number): Promise<number> {
  const touched = await deps.db.updateTable('ci_builds').set({ updated_at: deps.clock.now() }).where('id', '=', buildId).where('status', '=', 'running').returning('trace_watched_until').executeTakeFirst();
  return traceUpdateInterval(deps, touched?.trace_watched_until ?? null);
}

/** GitLab's trace update frequencies: how often a runner should send its log (X-GitLab-Trace-Update-Interval, seconds). */
const UPDATE_INTERVAL_S = 60;
const UPDATE_INTERVAL_WATCHED_S = 3;
/** A viewer's request counts as watching the log for this long (GitLab's watch flag TTL). */
const WATCHED_FOR_MS = 10_000;

/** The interval a runner is told: 3 s while someone watches the job's log, 60 s otherwise. */
export function traceUpdateInterval(deps: Deps, watchedUntil: number | null): number {
  return watchedUntil !== null && Number(watchedUntil) > deps.clock.now() ? UPDATE_INTERVAL_WATCHED_S : UPDATE_INTERVAL_S;
}

/**
 * Marks a running job's log as watched for the next 10 s (the job page and its polls). The row is
 * written only when less than half of that is left, so a page polling every 2 s writes every ~6 s.
 */
export async function markTraceWatched(deps: Deps, buildId: number): Promise<void> {
  const now = deps.clock.now();
  await deps.db
    .updateTable('ci_builds')
    .set({ trace_watched_until: now + WATCHED_FOR_MS })
    .where('id', '=', buildId)
    .where('status', '=', 'running')
    .where((eb) => eb.or([eb('trace_watched_until', 'is', null), eb('trace_watched_until', '<', now + WATCHED_FOR_MS / 2)]))
    .execute();
}

export type TraceAppend = { ok: true; size: number; updateInterval: number } | { ok: false; reason: 'range'; size: number } | { ok: false; reason: 'not_running' | 'too_large' };

/** Appends `data` at byte `start` of the job's log: the log must be exactly `start` bytes long (else 416). */
export async function appendTrace(deps: Deps, buildId: number, start: number, data: Buffer): Promise<TraceAppend> {
  return inTransaction(deps.db, async (trx) => {
    const end = start + data.length;
    if (end > TRACE_LIMIT) return { ok: false, reason: 'too_large' };
    // The guarded update takes the row: two appends at once are applied one after the other, and
    // the one that finds the length moved answers 416. Only then are the log's last chunks touched.
    const moved = await trx
      .updateTable('ci_builds')
      .set({ trace_size: end, updated_at: deps.clock.now() })
      .where('id', '=', buildId)
      .where('status', '=', 'running')
      .where('trace_size', '=', start)
      .returning(['id', 'trace_watched_until'])
      .executeTakeFirst();
    if (!moved) {
      const row = await trx.selectFrom('ci_builds').select(['status', 'trace_size']).where('id', '=', buildId).executeTakeFirstOrThrow();
      return row.status !== 'running' ? { ok: false, reason: 'not_running' } : { ok: false, reason: 'range', size: Number(row.trace_size) };
    }
    await appendTraceChunks(trx, buildId, data, await maskedValuesOf(trx, deps.box, buildId));
    return { ok: true, size: end, updateInterval: traceUpdateInterval(deps, moved.trace_watched_until) };
  });
}
