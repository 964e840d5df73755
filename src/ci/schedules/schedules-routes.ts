// GitLab's pipeline schedules API (lib/api/ci/pipeline_schedules.rb): list, read, create, edit,
// take over, delete and play a project's schedules, manage their variables and list their pipelines.
// The route declares the project ability; what one schedule allows is checked in the handler against
// its owner (schedule-policy.ts), with GitLab's `403 Forbidden`.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { apiRoute } from '../../platform/http/route.js';
import { p } from '../../platform/http/params.js';
import { ForbiddenError } from '../../platform/errors.js';
import { pipelineBasicEntity } from '../../commit-statuses/api.js';
import { createSchedule, deleteSchedule, findSchedule, projectSchedules, takeOwnership, updateSchedule, type PipelineScheduleRow } from './schedule-store.js';
import { createScheduleVariable, deleteScheduleVariable, findScheduleVariable, scheduleVariableEntity, updateScheduleVariable } from './schedule-variables.js';
import { canAdminSchedule, canTakeOwnership, canUpdateSchedule } from './schedule-policy.js';
import { presentSchedule, presentSchedules } from './schedule-entities.js';
import { playSchedule } from './play-schedule.js';
import { maySetPipelineVariables } from '../pipelines/pipeline-variables-allowed.js';

const TAGS = ['pipeline_schedules'];
const VARIABLE_TYPES = ['env_var', 'file'] as const;

export function pipelineSchedulesRoutes(app: FastifyInstance, deps: Deps): void {
  const read = { project: 'read_pipeline_schedule' } as const;
  const one = { id: p.string.required(), pipeline_schedule_id: p.integer.required() };
  const base = '/projects/:id/pipeline_schedules';
  const schedule = async (access: ProjectAccess, scheduleId: number, allowed?: (row: PipelineScheduleRow) => boolean) => {
    const row = await findSchedule(deps.db, Number(access.project.id), scheduleId);
    if (allowed && !allowed(row)) throw new ForbiddenError();
    return row;
  };

  apiRoute(app, deps, {
    method: 'GET', url: base, summary: "List a project's pipeline schedules", tags: TAGS, paginated: true, ability: read,
    params: { id: p.string.required(), scope: p.string.optional({ values: ['active', 'inactive'] }) },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      let query = projectSchedules(deps.db, Number(access.project.id));
      if (params.scope) query = query.where('active', '=', params.scope === 'active' ? 1 : 0);
      return presentSchedules(deps, await paginate(query.orderBy('id')));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:pipeline_schedule_id`, summary: 'A pipeline schedule', tags: TAGS, ability: read, params: one,
    handler: async ({ params, project }) => {
      const access = await project();
      return presentSchedule(deps, access, await schedule(access, params.pipeline_schedule_id));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:pipeline_schedule_id/pipelines`, summary: "A pipeline schedule's pipelines", tags: TAGS, paginated: true, ability: read,
    params: { ...one, sort: p.string.optional({ values: ['asc', 'desc'] }) },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const row = await schedule(access, params.pipeline_schedule_id);
      const pipelines = await paginate(deps.db.selectFrom('ci_pipelines').selectAll().where('pipeline_schedule_id', '=', row.id).orderBy('id', params.sort === 'desc' ? 'desc' : 'asc'));
      return pipelines.map((pipeline) => pipelineBasicEntity(deps.config.baseUrl, pipeline, access.project.full_path));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: base, summary: 'Create a pipeline schedule', tags: TAGS, status: 201, ability: { project: 'create_pipeline_schedule' },
    params: { id: p.string.required(), description: p.string.required(), ref: p.string.required(), cron: p.string.required(), cron_timezone: p.string.optional(), active: p.boolean.optional() },
    handler: async ({ params, project, actor }) => {
      const access = await project();
      return presentSchedule(deps, access, await createSchedule(deps, Number(access.project.id), actor.user.id, params));
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${base}/:pipeline_schedule_id`, summary: 'Edit a pipeline schedule', tags: TAGS, ability: read,
    params: { ...one, description: p.string.optional(), ref: p.string.optional(), cron: p.string.optional(), cron_timezone: p.string.optional(), active: p.boolean.optional() },
    handler: async ({ params, project }) => {
      const access = await project();
      const row = await schedule(access, params.pipeline_schedule_id, (found) => canUpdateSchedule(access, found));
      return presentSchedule(deps, access, await updateSchedule(deps, row, params));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: `${base}/:pipeline_schedule_id/take_ownership`, summary: 'Take ownership of a pipeline schedule', tags: TAGS, status: 201, ability: read, params: one,
    handler: async ({ params, project, actor }) => {
      const access = await project();
      const row = await schedule(access, params.pipeline_schedule_id, () => canTakeOwnership(access));
      return presentSchedule(deps, access, await takeOwnership(deps, row, actor.user.id));
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `${base}/:pipeline_schedule_id`, summary: 'Delete a pipeline schedule', tags: TAGS, ability: read, params: one,
    handler: async ({ params, project }) => {
      const access = await project();
      await deleteSchedule(deps.db, await schedule(access, params.pipeline_schedule_id, (found) => canAdminSchedule(access, found)));
      return undefined;
    },
  });

  // GitLab runs it in the background, as the caller, and answers at once (403 on a protected ref the caller may not update).
  apiRoute(app, deps, {
    method: 'POST', url: `${base}/:pipeline_schedule_id/play`, summary: 'Run a pipeline schedule now', tags: TAGS, status: 201, ability: { project: 'create_pipeline' }, params: one,
    handler: async ({ params, project, actor }) => {
      const access = await project();
      await playSchedule(deps, access.project, actor.user, await schedule(access, params.pipeline_schedule_id));
      return { message: '201 Created' };
    },
  });

  const variable = { ...one, key: p.string.required() };
  // A schedule's variables become its pipelines' variables: adding, editing or removing one needs
  // the right to set pipeline variables (restrict_user_defined_variables), asked before the schedule.
  const mayChangeVariables = async (access: ProjectAccess, userId: number) => {
    if (!(await maySetPipelineVariables(deps, userId, access.project))) throw new ForbiddenError();
  };
  apiRoute(app, deps, {
    method: 'POST', url: `${base}/:pipeline_schedule_id/variables`, summary: 'Create a pipeline schedule variable', tags: TAGS, status: 201, ability: read,
    params: { ...variable, value: p.string.required(), variable_type: p.string.optional({ values: VARIABLE_TYPES }) },
    handler: async ({ params, project, actor }) => {
      const access = await project();
      await mayChangeVariables(access, actor.user.id);
      const row = await schedule(access, params.pipeline_schedule_id, (found) => canUpdateSchedule(access, found));
      return scheduleVariableEntity(deps, await createScheduleVariable(deps, Number(row.id), params));
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${base}/:pipeline_schedule_id/variables/:key`, summary: 'Edit a pipeline schedule variable', tags: TAGS, ability: read,
    params: { ...variable, value: p.string.optional(), variable_type: p.string.optional({ values: VARIABLE_TYPES }) },
    handler: async ({ params, project, actor }) => {
      const access = await project();
      await mayChangeVariables(access, actor.user.id);
      const row = await schedule(access, params.pipeline_schedule_id, (found) => canUpdateSchedule(access, found));
      const existing = await findScheduleVariable(deps.db, Number(row.id), params.key);
      return scheduleVariableEntity(deps, await updateScheduleVariable(deps, existing, params));
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `${base}/:pipeline_schedule_id/variables/:key`, summary: 'Delete a pipeline schedule variable', tags: TAGS, status: 202, ability: read, params: variable,
    handler: async ({ params, project, actor }) => {
      const access = await project();
      await mayChangeVariables(access, actor.user.id);
      const row = await schedule(access, params.pipeline_schedule_id, (found) => canAdminSchedule(access, found));
      const existing = await findScheduleVariable(deps.db, Number(row.id), params.key);
      await deleteScheduleVariable(deps.db, existing);
      return scheduleVariableEntity(deps, existing);
    },
  });
}
