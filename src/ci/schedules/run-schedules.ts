// The scheduler (GitLab's PipelineScheduleWorker and RunPipelineScheduleWorker). Every minute a
// background job looks for active schedules whose `next_run_at` has passed. Each due schedule is
// claimed by moving `next_run_at` to the pattern's next occurrence after now, a conditional UPDATE on
// the value that was read: of two nodes looking at once, one moves it and runs the schedule, the other
// sees nothing changed and moves on. Moving it from *now* (not from the missed time) is what makes a
// node that was down for hours run each schedule once, not once per missed occurrence. The claim and
// the job that creates the pipeline are one transaction, so a crash in between loses nothing.
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import { enqueue } from '../../platform/jobs/queue.js';
import { scheduleOnce } from '../../platform/jobs/daily.js';
import { findProjectRow } from '../../accounts/api.js';
import { runPipelineForRef } from '../pipelines/run-pipeline.js';
import { mayRunPipelines } from '../pipelines/may-run-pipelines.js';
import { PipelineCreationError } from '../pipelines/create-pipeline.js';
import { nextOccurrence } from './cron.js';
import { scheduleRef } from './schedule-store.js';
import { pipelineInputVariables } from './schedule-variables.js';

export const SCHEDULER_JOB = 'ci.pipeline_schedules';
export const RUN_SCHEDULE_JOB = 'ci.run_pipeline_schedule';
export const SCHEDULER_EVERY_MS = 60_000;
/** Schedules claimed per run; the rest are due at the next run. */
const BATCH = 200;

/** Claims every due schedule and queues its pipeline; the number claimed by this call. */
export async function claimDueSchedules(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db
    .selectFrom('ci_pipeline_schedules')
    .select(['id', 'cron', 'cron_timezone', 'next_run_at', 'owner_id'])
    .where('active', '=', 1)
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .limit(BATCH)
    .execute();
  let claimed = 0;
  for (const schedule of due) {
    const next = nextOccurrence(schedule.cron, schedule.cron_timezone, now);
    const won = await inTransaction(deps.db, async (trx) => {
      const moved = await trx
        .updateTable('ci_pipeline_schedules')
        .set({ next_run_at: next })
        .where('id', '=', schedule.id)
        .where('active', '=', 1)
        .where('next_run_at', '=', schedule.next_run_at)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return false;
      await enqueue(trx, deps.clock, RUN_SCHEDULE_JOB, { scheduleId: Number(schedule.id), userId: schedule.owner_id === null ? null : Number(schedule.owner_id), claimedAt: now });
      return true;
    });
    if (won) claimed += 1;
  }
  if (claimed > 0) deps.pokeWorker();
  return claimed;
}

export async function schedulerJob(deps: Deps): Promise<void> {
  // The next run first, so a failing run does not end the chain.
  await scheduleOnce(deps, SCHEDULER_JOB, deps.clock.now() + SCHEDULER_EVERY_MS, { orRunning: false });
  await claimDueSchedules(deps);
}

export async function startScheduler(deps: Deps): Promise<void> {
  await scheduleOnce(deps, SCHEDULER_JOB, deps.clock.now(), { orRunning: true });
}

/**
 * Runs one schedule's pipeline, as `userId` (the owner when it came due; whoever pressed "play"
 * otherwise). A repeated job of a due run (`claimedAt`) finds the pipeline it made and makes no
 * second one. What cannot run (the ref is gone, the owner may no longer run pipelines, the file has
 * errors) is logged and dropped, as GitLab's worker drops it: retrying would not help.
 */
export async function runScheduleJob(deps: Deps, payload: { scheduleId: number; userId: number | null; claimedAt?: number }): Promise<void> {
  const schedule = await deps.db.selectFrom('ci_pipeline_schedules').selectAll().where('id', '=', payload.scheduleId).executeTakeFirst();
  if (!schedule) return;
  if (payload.claimedAt !== undefined) {
    const made = await deps.db.selectFrom('ci_pipelines').select('id').where('pipeline_schedule_id', '=', schedule.id).where('created_at', '>=', payload.claimedAt).executeTakeFirst();
    if (made) return;
  }
  const project = await findProjectRow(deps, Number(schedule.project_id));
  if (!project) return;
  const log = deps.log.child({ pipelineScheduleId: Number(schedule.id), projectId: Number(project.id) });
  if (!(await mayRunPipelines(deps, payload.userId, project))) {
    log.warn('pipeline schedule not run: its user may not run pipelines in the project');
    return;
  }
  try {
    await runPipelineForRef(deps, {
      project, ...scheduleRef(schedule.ref), source: 'schedule', userId: payload.userId,
      variables: await pipelineInputVariables(deps, Number(schedule.id)), pipelineScheduleId: Number(schedule.id),
    });
  } catch (error) {
    if (!(error instanceof PipelineCreationError)) throw error;
    log.warn({ errors: error.errors }, 'pipeline schedule not run');
  }
}
