// Running jobs whose runner went away (GitLab's Ci::StuckBuilds::DropRunningService): a runner sends
// the log or a `PUT state=running` keep-alive at least every half minute while a job runs, each of
// which moves the job's `updated_at`. A running job silent for longer than its timeout (its `timeout:`
// or its project's `build_timeout`, capped by the runner's `maximum_timeout`, as the runner was told;
// at least SILENCE_FLOOR_MS, so a short timeout is not mistaken for a dead runner between two
// keep-alives) fails with `runner_system_failure`, and
// its pipeline goes on (later `when: on_failure`/`always` jobs, then its final status). A pending job
// fails with `stuck_or_timeout_failure` (GitLab's Ci::StuckBuilds::DropPendingService) when no runner
// took it for a day, or already after an hour when it is stuck: no runner that could take it is
// online (GitLab's Ci::Build#stuck?: not paused, asked for a job within the last 2 hours, and would be
// handed it by a claim: its scope, `ref_protected` and tags, claim-job.ts). So a pipeline whose
// runners are gone ends instead of waiting for ever. Checked by a background job every few minutes.
import type { Deps } from '../../platform/deps.js';
import { scheduleOnce } from '../../platform/jobs/daily.js';
import { readOptions } from '../pipelines/build-options.js';
import { jobTimeout } from '../runners/job-payload.js';
import { finishJob } from './runner-updates.js';
import { queueSignal } from '../queue-signal.js';
import { settleStaleResources } from '../pipelines/settle-stale-resources.js';
import { jobsRunnerMayTake } from '../runners/claim-job.js';
import { RUNNER_ONLINE_MS } from '../entities.js';

export const DROP_STUCK_JOBS_JOB = 'ci.drop_stuck_jobs';
export const STUCK_CHECK_EVERY_MS = 5 * 60_000;
const SILENCE_FLOOR_MS = 5 * 60_000;
/** GitLab's BUILD_PENDING_OUTDATED_TIMEOUT. */
export const PENDING_OUTDATED_MS = 24 * 60 * 60_000;
/** GitLab's BUILD_PENDING_STUCK_TIMEOUT. */
export const PENDING_STUCK_MS = 60 * 60_000;
/** Looked at per run; the rest wait for the next run. */
const BATCH = 500;

export async function dropStuckJobs(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const silent = await deps.db
    .selectFrom('ci_builds')
    .leftJoin('ci_runners', 'ci_runners.id', 'ci_builds.runner_id')
    .innerJoin('projects', 'projects.id', 'ci_builds.project_id')
    .selectAll('ci_builds')
    .select(['ci_runners.maximum_timeout as runner_maximum_timeout', 'projects.settings as project_settings'])
    .where('ci_builds.status', '=', 'running')
    .where('ci_builds.type', '=', 'Ci::Build')
    .where('ci_builds.updated_at', '<', now - SILENCE_FLOOR_MS)
    .orderBy('ci_builds.id')
    .limit(BATCH)
    .execute();
  let dropped = 0;
  for (const { runner_maximum_timeout: maximumTimeout, project_settings: settings, ...build } of silent) {
    const limitMs = Math.max(SILENCE_FLOOR_MS, jobTimeout(readOptions(build.options)?.timeout, { settings }, maximumTimeout) * 1000);
    if (Number(build.updated_at) >= now - limitMs) continue;
    // finishJob's guarded update loses to a runner that reported in the meantime.
    if (await finishJob(deps, build, 'failed', 'runner_system_failure')) dropped += 1;
  }
  const outdated = await dropPending(deps, await pendingSince(deps, now - PENDING_OUTDATED_MS));
  const stuck = await dropPending(deps, await withoutOnlineRunner(deps, await pendingSince(deps, now - PENDING_STUCK_MS), now));
  // After the drops: a job failed above frees its resource in its own transaction already.
  const settled = await settleStaleResources(deps);
  if (dropped + outdated + stuck + settled > 0) queueSignal(deps).tick();
  if (dropped + outdated + stuck > 0) {
    deps.log.info({ dropped, outdated, stuck }, 'failed CI jobs whose runner stopped sending updates, that no runner took for a day, or that no online runner could take for an hour');
  }
  return dropped + outdated + stuck;
}

/** Pending jobs created and last changed before `before`, oldest first. */
function pendingSince(deps: Deps, before: number) {
  return deps.db
    .selectFrom('ci_builds')
    .selectAll()
    .where('status', '=', 'pending')
    .where('type', '=', 'Ci::Build')
    .where('created_at', '<', before)
    .where('updated_at', '<', before)
    .orderBy('id')
    .limit(BATCH)
    .execute();
}

type PendingJob = Awaited<ReturnType<typeof pendingSince>>[number];

/**
 * The jobs no online runner could take. Every runner not paused that asked within the online window
 * is asked which of them it may take (one query each, and only while jobs are left unanswered; a job
 * one of them may take is not stuck, it waits for that runner).
 */
async function withoutOnlineRunner(deps: Deps, jobs: PendingJob[], now: number): Promise<PendingJob[]> {
  if (jobs.length === 0) return jobs;
  const runners = await deps.db.selectFrom('ci_runners').selectAll().where('active', '=', 1).where('contacted_at', '>', now - RUNNER_ONLINE_MS).orderBy('id').execute();
  let waiting = jobs;
  for (const runner of runners) {
    if (waiting.length === 0) break;
    const takeable = new Set(await jobsRunnerMayTake(deps, runner, waiting.map((job) => Number(job.id))));
    waiting = waiting.filter((job) => !takeable.has(Number(job.id)));
  }
  return waiting;
}

/** Fails the pending jobs; the guarded update loses to a runner claiming one now. */
async function dropPending(deps: Deps, jobs: PendingJob[]): Promise<number> {
  let dropped = 0;
  for (const build of jobs) if (await finishJob(deps, build, 'failed', 'stuck_or_timeout_failure', undefined, 'pending')) dropped += 1;
  return dropped;
}

export async function dropStuckJobsJob(deps: Deps): Promise<void> {
  // The next run first, so a failing run does not end the chain (as the daily jobs do).
  await scheduleOnce(deps, DROP_STUCK_JOBS_JOB, deps.clock.now() + STUCK_CHECK_EVERY_MS, { orRunning: false });
  await dropStuckJobs(deps);
}

export async function scheduleStuckJobsCheck(deps: Deps): Promise<void> {
  await scheduleOnce(deps, DROP_STUCK_JOBS_JOB, deps.clock.now() + STUCK_CHECK_EVERY_MS, { orRunning: true });
}
