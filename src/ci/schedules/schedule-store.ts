// Pipeline schedules (GitLab's Ci::PipelineSchedule): a description, a ref, a cron pattern in a time
// zone and an owner, as whom the schedule's pipelines run. GitLab's validations in its words:
// `{"message": {"cron": [" is invalid syntax"]}}` and likewise for `cron_timezone`. `next_run_at` is
// the pattern's next occurrence after now, kept for active schedules (null for inactive ones) so the
// worker finds due schedules through an index.
import type { Selectable } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/database.js';
import type { CiPipelineSchedulesTable } from '../../platform/db/tables/ci-settings.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { cronValid, DEFAULT_TIMEZONE, nextOccurrence, timezoneValid } from './cron.js';

export type PipelineScheduleRow = Selectable<CiPipelineSchedulesTable>;

export interface ScheduleInput {
  description?: string;
  ref?: string;
  cron?: string;
  cron_timezone?: string;
  active?: boolean;
}

export function projectSchedules(db: Executor, projectId: number) {
  return db.selectFrom('ci_pipeline_schedules').selectAll().where('project_id', '=', projectId);
}

export async function findSchedule(db: Executor, projectId: number, scheduleId: number): Promise<PipelineScheduleRow> {
  const row = await projectSchedules(db, projectId).where('id', '=', scheduleId).executeTakeFirst();
  if (!row) throw new NotFoundError('Pipeline Schedule');
  return row;
}

/** GitLab keeps `ref` as given; a full `refs/heads/x` or `refs/tags/x` names the same branch or tag. */
export function scheduleRef(ref: string): { ref: string; tag?: boolean } {
  if (ref.startsWith('refs/heads/')) return { ref: ref.slice('refs/heads/'.length), tag: false };
  if (ref.startsWith('refs/tags/')) return { ref: ref.slice('refs/tags/'.length), tag: true };
  return { ref };
}

function check(fields: Required<Omit<ScheduleInput, 'active'>>): void {
  const errors: Record<string, string[]> = {};
  if (fields.description.trim() === '') errors.description = ["can't be blank"];
  if (fields.ref.trim() === '') errors.ref = ["can't be blank"];
  if (!cronValid(fields.cron)) errors.cron = [' is invalid syntax'];
  if (!timezoneValid(fields.cron_timezone)) errors.cron_timezone = [' is invalid syntax'];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** The next run of an active schedule from `now`; null when inactive. */
export function nextRunAt(fields: { cron: string; cron_timezone: string; active: boolean }, now: number): number | null {
  return fields.active ? nextOccurrence(fields.cron, fields.cron_timezone, now) : null;
}

export async function createSchedule(deps: Deps, projectId: number, ownerId: number, input: ScheduleInput & { description: string; ref: string; cron: string }): Promise<PipelineScheduleRow> {
  const fields = { description: input.description, ref: input.ref, cron: input.cron, cron_timezone: input.cron_timezone ?? DEFAULT_TIMEZONE };
  check(fields);
  const active = input.active ?? true;
  const now = deps.clock.now();
  return deps.db
    .insertInto('ci_pipeline_schedules')
    .values({ project_id: projectId, owner_id: ownerId, ...fields, active: active ? 1 : 0, next_run_at: nextRunAt({ ...fields, active }, now), created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateSchedule(deps: Deps, row: PipelineScheduleRow, input: ScheduleInput): Promise<PipelineScheduleRow> {
  const fields = {
    description: input.description ?? row.description,
    ref: input.ref ?? row.ref,
    cron: input.cron ?? row.cron,
    cron_timezone: input.cron_timezone ?? row.cron_timezone,
  };
  check(fields);
  const active = input.active ?? Number(row.active) === 1;
  const now = deps.clock.now();
  const timing = fields.cron !== row.cron || fields.cron_timezone !== row.cron_timezone || active !== (Number(row.active) === 1);
  return deps.db
    .updateTable('ci_pipeline_schedules')
    .set({ ...fields, active: active ? 1 : 0, ...(timing ? { next_run_at: nextRunAt({ ...fields, active }, now) } : {}), updated_at: now })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function takeOwnership(deps: Deps, row: PipelineScheduleRow, userId: number): Promise<PipelineScheduleRow> {
  return deps.db.updateTable('ci_pipeline_schedules').set({ owner_id: userId, updated_at: deps.clock.now() }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteSchedule(db: Executor, row: PipelineScheduleRow): Promise<void> {
  await db.deleteFrom('ci_pipeline_schedules').where('id', '=', row.id).execute();
}
