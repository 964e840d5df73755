// A pipeline schedule's variables (GitLab's Ci::PipelineScheduleVariable): key, value and type, handed
// to the schedule's pipelines with the precedence of pipeline variables. Values are sealed with the
// instance key. A key is unique per schedule (the unique index decides a race).
import type { Selectable } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import { isUniqueViolation, type Executor } from '../../platform/db/database.js';
import type { CiPipelineScheduleVariablesTable } from '../../platform/db/tables/ci-settings.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { variableErrors } from '../cicd-variables/variable-rules.js';

export type ScheduleVariableRow = Selectable<CiPipelineScheduleVariablesTable>;

export function scheduleVariables(db: Executor, scheduleIds: number[]) {
  return db.selectFrom('ci_pipeline_schedule_variables').selectAll().where('pipeline_schedule_id', 'in', scheduleIds.length ? scheduleIds : [0]).orderBy('id');
}

export async function findScheduleVariable(db: Executor, scheduleId: number, key: string): Promise<ScheduleVariableRow> {
  const row = await db.selectFrom('ci_pipeline_schedule_variables').selectAll().where('pipeline_schedule_id', '=', scheduleId).where('key', '=', key).executeTakeFirst();
  if (!row) throw new NotFoundError('Pipeline Schedule Variable');
  return row;
}

function check(key: string, value: string): void {
  const errors = variableErrors({ key, value, masked: false, environmentScope: '*' });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

const taken = (key: string) => new ValidationError({ key: [`(${key}) has already been taken`] });

export async function createScheduleVariable(deps: Deps, scheduleId: number, input: { key: string; value: string; variable_type?: string }): Promise<ScheduleVariableRow> {
  check(input.key, input.value);
  const existing = await deps.db.selectFrom('ci_pipeline_schedule_variables').select('id').where('pipeline_schedule_id', '=', scheduleId).where('key', '=', input.key).executeTakeFirst();
  if (existing) throw taken(input.key);
  const now = deps.clock.now();
  try {
    return await deps.db
      .insertInto('ci_pipeline_schedule_variables')
      .values({ pipeline_schedule_id: scheduleId, key: input.key, value_sealed: deps.box.seal(input.value), variable_type: input.variable_type ?? 'env_var', created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(input.key);
    throw error;
  }
}

export async function updateScheduleVariable(deps: Deps, row: ScheduleVariableRow, input: { value?: string; variable_type?: string }): Promise<ScheduleVariableRow> {
  if (input.value !== undefined) check(row.key, input.value);
  return deps.db
    .updateTable('ci_pipeline_schedule_variables')
    .set({
      ...(input.value !== undefined ? { value_sealed: deps.box.seal(input.value) } : {}),
      ...(input.variable_type !== undefined ? { variable_type: input.variable_type } : {}),
      updated_at: deps.clock.now(),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteScheduleVariable(db: Executor, row: ScheduleVariableRow): Promise<void> {
  await db.deleteFrom('ci_pipeline_schedule_variables').where('id', '=', row.id).execute();
}

/** GitLab's Entities::Ci::Variable for a schedule's variable. */
export function scheduleVariableEntity(deps: Deps, row: ScheduleVariableRow) {
  return { variable_type: row.variable_type, key: row.key, value: deps.box.open(row.value_sealed) };
}

/** What the schedule's pipeline is given, as pipeline variables. */
export async function pipelineInputVariables(deps: Deps, scheduleId: number) {
  return (await scheduleVariables(deps.db, [scheduleId]).execute()).map((row) => ({ key: row.key, value: deps.box.open(row.value_sealed), variable_type: row.variable_type }));
}
