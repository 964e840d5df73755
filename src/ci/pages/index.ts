// The CI pages under a project's path (GitLab's Build menu): pipelines, a pipeline and its jobs, a
// job with its log, the project's jobs, the CI lint, and Settings › CI/CD. Each declares the ability
// the API's route for the same thing declares (read_pipeline, read_build for jobs, their logs and
// artifacts, create_pipeline, update_build,
// destroy_pipeline, download_code for the lint, admin_cicd_variables for the settings, whose
// sections ask for more, read_pipeline_schedule and create_pipeline_schedule for the schedules, whose
// edits and actions ask the schedule's policy). All but the lint belong to the builds feature: hidden
// from the visitor, they answer 404.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { namespacedPage, type PageSpec } from '../../platform/web/page-route.js';
import { createPipelineFromForm, NEW_PIPELINE_PATTERN, PIPELINES_PATTERN, renderNewPipeline, renderPipelines } from './pipelines-page.js';
import { PIPELINE_ACTION_PATTERN, PIPELINE_DELETE_PATTERN, PIPELINE_JOBS_PATTERN, PIPELINE_PATTERN, pipelineAction, pipelineDelete, renderPipeline, renderPipelineJobs } from './pipeline-page.js';
import {
  JOB_ACTION_PATTERN, JOB_LOG_PATTERN, JOB_PATTERN, JOB_RAW_PATTERN, JOBS_PATTERN,
  jobAction, renderJob, renderJobLogFragment, renderJobs, sendRawLog,
} from './job-page.js';
import { JOB_ARTIFACTS_ACTION_PATTERN, JOB_ARTIFACTS_PATTERN, jobArtifacts, jobArtifactsAction } from './artifacts-page.js';
import { CI_SETTINGS_PATTERN, handleCiSettings, renderCiSettings } from './settings-page.js';
import { renderVariableEdit, updateVariableFromForm, VARIABLE_EDIT_PATTERN } from './variable-edit-page.js';
import { renderEditSchedule, renderNewSchedule, renderSchedules, saveSchedule, scheduleAction, SCHEDULE_ACTION_PATTERN, SCHEDULE_EDIT_PATTERN, SCHEDULE_NEW_PATTERN, SCHEDULES_PATTERN } from './schedules-page.js';
import { CI_LINT_PATTERN, renderCiLint } from './lint-page.js';

export function ciPages(app: FastifyInstance, deps: Deps): void {
  // GitLab's check_builds_available!: while CI/CD is not there for the visitor (builds_access_level
  // disabled, or private and they are no member) its pages answer 404, not the 403 page.
  const ciPage = (spec: Omit<PageSpec, 'feature'> & { pattern: RegExp }) => namespacedPage(app, deps, { ...spec, feature: 'builds' });
  const read = { project: 'read_pipeline' } as const;
  const readJobs = { project: 'read_build' } as const;
  const update = { project: 'update_build' } as const;
  const create = { project: 'create_pipeline' } as const;
  const reads = [
    [read, PIPELINES_PATTERN, renderPipelines], [read, PIPELINE_PATTERN, renderPipeline], [readJobs, PIPELINE_JOBS_PATTERN, renderPipelineJobs],
    [readJobs, JOBS_PATTERN, renderJobs], [readJobs, JOB_PATTERN, renderJob], [readJobs, JOB_LOG_PATTERN, renderJobLogFragment], [readJobs, JOB_RAW_PATTERN, sendRawLog], [readJobs, JOB_ARTIFACTS_PATTERN, jobArtifacts],
  ] as const;
  for (const [ability, pattern, render] of reads) {
    ciPage({ method: 'GET', pattern, ability, auth: 'optional', handler: async (context) => render(context, await context.project()) });
  }
  ciPage({ method: 'GET', pattern: NEW_PIPELINE_PATTERN, ability: create, handler: async (context) => renderNewPipeline(context, await context.project()) });
  ciPage({ method: 'POST', pattern: PIPELINES_PATTERN, ability: create, handler: async (context) => createPipelineFromForm(context, await context.project()) });
  ciPage({ method: 'POST', pattern: PIPELINE_ACTION_PATTERN, ability: update, handler: async (context) => pipelineAction(context, await context.project()) });
  ciPage({ method: 'POST', pattern: PIPELINE_DELETE_PATTERN, ability: { project: 'destroy_pipeline' }, handler: async (context) => pipelineDelete(context, await context.project()) });
  const settings = { project: 'admin_cicd_variables' } as const;
  ciPage({ method: 'GET', pattern: CI_SETTINGS_PATTERN, ability: settings, handler: async (context) => renderCiSettings(context, await context.project()) });
  ciPage({ method: 'POST', pattern: CI_SETTINGS_PATTERN, ability: settings, handler: async (context) => handleCiSettings(context, await context.project()) });
  ciPage({ method: 'GET', pattern: VARIABLE_EDIT_PATTERN, ability: settings, handler: async (context) => renderVariableEdit(context, await context.project()) });
  ciPage({ method: 'POST', pattern: VARIABLE_EDIT_PATTERN, ability: settings, handler: async (context) => updateVariableFromForm(context, await context.project()) });
  const schedules = { project: 'read_pipeline_schedule' } as const;
  ciPage({ method: 'GET', pattern: SCHEDULES_PATTERN, ability: schedules, handler: async (context) => renderSchedules(context, await context.project()) });
  ciPage({ method: 'GET', pattern: SCHEDULE_NEW_PATTERN, ability: { project: 'create_pipeline_schedule' }, handler: async (context) => renderNewSchedule(context, await context.project()) });
  ciPage({ method: 'POST', pattern: SCHEDULES_PATTERN, ability: { project: 'create_pipeline_schedule' }, handler: async (context) => saveSchedule(context, await context.project()) });
  ciPage({ method: 'GET', pattern: SCHEDULE_EDIT_PATTERN, ability: schedules, handler: async (context) => renderEditSchedule(context, await context.project()) });
  ciPage({ method: 'POST', pattern: SCHEDULE_EDIT_PATTERN, ability: schedules, handler: async (context) => saveSchedule(context, await context.project()) });
  ciPage({ method: 'POST', pattern: SCHEDULE_ACTION_PATTERN, ability: schedules, handler: async (context) => scheduleAction(context, await context.project()) });
  const lint = { project: 'download_code' } as const;
  for (const method of ['GET', 'POST'] as const) {
    namespacedPage(app, deps, { method, pattern: CI_LINT_PATTERN, ability: lint, auth: 'optional', handler: async (context) => renderCiLint(context, await context.project()) });
  }
  ciPage({ method: 'POST', pattern: JOB_ARTIFACTS_ACTION_PATTERN, ability: readJobs, handler: async (context) => jobArtifactsAction(context, await context.project()) });
  ciPage({ method: 'POST', pattern: JOB_ACTION_PATTERN, ability: update, handler: async (context) => jobAction(context, await context.project()) });
}
