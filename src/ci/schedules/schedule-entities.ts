// GitLab's Entities::Ci::PipelineSchedule (lists) and PipelineScheduleDetails (one schedule: its last
// pipeline, and its variables for those who manage it).
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { isoTime } from '../../platform/clock.js';
import { userBasic } from '../../accounts/api.js';
import { usersById } from '../../issues/api.js';
import { pipelineBasicEntity } from '../../commit-statuses/api.js';
import type { PipelineScheduleRow } from './schedule-store.js';
import { scheduleVariableEntity, scheduleVariables } from './schedule-variables.js';
import { canAdminSchedule } from './schedule-policy.js';

export async function presentSchedules(deps: Deps, rows: PipelineScheduleRow[]) {
  const users = await usersById(deps.db, rows.map((row) => row.owner_id));
  return rows.map((row) => {
    const owner = row.owner_id === null ? undefined : users.get(Number(row.owner_id));
    return {
      id: Number(row.id),
      description: row.description,
      ref: row.ref,
      cron: row.cron,
      cron_timezone: row.cron_timezone,
      next_run_at: isoTime(row.next_run_at),
      active: Number(row.active) === 1,
      created_at: isoTime(row.created_at),
      updated_at: isoTime(row.updated_at),
      owner: owner ? userBasic(deps.config.baseUrl, owner) : null,
    };
  });
}

export async function presentSchedule(deps: Deps, access: ProjectAccess, row: PipelineScheduleRow) {
  const [entity] = await presentSchedules(deps, [row]);
  const last = await deps.db.selectFrom('ci_pipelines').selectAll().where('pipeline_schedule_id', '=', row.id).orderBy('id', 'desc').limit(1).executeTakeFirst();
  const variables = canAdminSchedule(access, row) ? (await scheduleVariables(deps.db, [Number(row.id)]).execute()).map((variable) => scheduleVariableEntity(deps, variable)) : undefined;
  return {
    ...entity,
    last_pipeline: last ? pipelineBasicEntity(deps.config.baseUrl, last, access.project.full_path) : null,
    ...(variables ? { variables } : {}),
  };
}
