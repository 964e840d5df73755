// Pipeline schedules (GitLab's Build › Pipeline schedules, /-/pipeline_schedules): the list, a new
// schedule, editing one (description, cron and time zone, target ref, active, its variables), Play
// (a pipeline now, as the player), Take ownership and Delete, each through the store and policy the
// schedules API uses, and offered only to whom that policy allows it.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { inTransaction } from '../../platform/db/database.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { ForbiddenError, ValidationError } from '../../platform/errors.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { createSchedule, deleteSchedule, findSchedule, projectSchedules, takeOwnership, updateSchedule, type PipelineScheduleRow } from '../schedules/schedule-store.js';
import { scheduleVariables, type ScheduleVariableRow } from '../schedules/schedule-variables.js';
import { canAdminSchedule, canTakeOwnership, canUpdateSchedule } from '../schedules/schedule-policy.js';
import { playSchedule } from '../schedules/play-schedule.js';
import { DEFAULT_TIMEZONE } from '../schedules/cron.js';
import { moment } from './status.js';
import { actionButton, projectBase, userLink, usersOf } from './shared.js';
import { checked, errorLines, errorList, fieldOf } from './variable-form.js';
import { applyVariableRows, ScheduleVariablesRefused, variableRows } from './schedule-variable-rows.js';
import { maySetPipelineVariables } from '../pipelines/pipeline-variables-allowed.js';

export const SCHEDULES_PATTERN = /^(?<path>.+?)\/-\/pipeline_schedules$/;
export const SCHEDULE_NEW_PATTERN = /^(?<path>.+?)\/-\/pipeline_schedules\/new$/;
export const SCHEDULE_EDIT_PATTERN = /^(?<path>.+?)\/-\/pipeline_schedules\/(?<id>\d{1,12})\/edit$/;
export const SCHEDULE_ACTION_PATTERN = /^(?<path>.+?)\/-\/pipeline_schedules\/(?<id>\d{1,12})\/(?<action>play|take_ownership|delete)$/;

const schedulesUrl = (access: ProjectAccess) => `${projectBase(access)}/-/pipeline_schedules`;

/** The schedules table with the actions the caller may take: this page's and Settings › CI/CD's. */
export async function schedulesTable(context: PageContext, access: ProjectAccess): Promise<Html> {
  const rows = await projectSchedules(context.deps.db, Number(access.project.id)).orderBy('id').limit(200).execute();
  const owners = await usersOf(context.deps, rows.map((row) => row.owner_id));
  const base = schedulesUrl(access);
  const mayPlay = canOnProject(access, 'create_pipeline');
  const actions = (row: PipelineScheduleRow) => [
    mayPlay ? actionButton(context, `${base}/${Number(row.id)}/play`, 'Play') : null,
    canUpdateSchedule(access, row) ? html`<a class="button secondary" href="${base}/${Number(row.id)}/edit">Edit</a>` : null,
    canTakeOwnership(access) && Number(row.owner_id) !== context.user?.id ? actionButton(context, `${base}/${Number(row.id)}/take_ownership`, 'Take ownership') : null,
    canAdminSchedule(access, row) ? actionButton(context, `${base}/${Number(row.id)}/delete`, 'Delete', 'danger') : null,
  ].filter((action): action is Html => action !== null);
  if (rows.length === 0) return html`<p class="empty">There are no pipeline schedules.</p>`;
  return html`<div class="table-scroll"><table id="ci-schedules"><thead><tr><th>Description</th><th>Target</th><th>Interval</th><th>Next run</th><th>Owner</th><th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${rows.map(
    (row) => html`<tr data-schedule="${Number(row.id)}"><td class="wrap-anywhere">${row.description}${Number(row.active) === 1 ? '' : html` <span class="badge">inactive</span>`}</td><td class="wrap-anywhere"><code>${row.ref}</code></td><td><code>${row.cron}</code> <span class="muted">${row.cron_timezone}</span></td><td>${row.next_run_at === null ? '' : moment(Number(row.next_run_at))}</td><td>${userLink(row.owner_id === null ? undefined : owners.get(Number(row.owner_id)))}</td><td><div class="actions">${actions(row)}</div></td></tr>`,
  )}</tbody></table></div>`;
}

export async function renderSchedules(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const body = html`${canOnProject(access, 'create_pipeline_schedule') ? html`<p class="actions"><a class="button" href="${schedulesUrl(access)}/new" id="new-schedule">New schedule</a></p>` : ''}
${await schedulesTable(context, access)}`;
  return page({ title: `Pipeline schedules · ${access.project.name}`, heading: html`<h1>Pipeline schedules</h1>`, body, sidebar: projectSidebar(access, 'pipelines') });
}

interface ScheduleForm {
  description: string;
  cron: string;
  cron_timezone: string;
  ref: string;
  active: boolean;
}

function readForm(context: PageContext): ScheduleForm {
  return { description: fieldOf(context, 'description').trim(), cron: fieldOf(context, 'cron').trim(), cron_timezone: fieldOf(context, 'cron_timezone').trim() || DEFAULT_TIMEZONE, ref: fieldOf(context, 'ref').trim(), active: checked(context, 'active') };
}

function formPage(context: PageContext, access: ProjectAccess, input: { form: ScheduleForm; row?: PipelineScheduleRow; variables: ScheduleVariableRow[]; errors?: string[] }): PageOutcome {
  const { form, row } = input;
  const action = row ? `${schedulesUrl(access)}/${Number(row.id)}/edit` : schedulesUrl(access);
  const title = row ? `Edit pipeline schedule` : 'New pipeline schedule';
  const body = html`${errorList('schedule-errors', input.errors)}
<form method="post" action="${action}" class="stacked" id="schedule-form">${csrfField(context)}
<label for="schedule-description">Description</label><input type="text" id="schedule-description" name="description" required maxlength="255" value="${form.description}">
<label for="schedule-cron">Interval pattern (cron)</label><input type="text" id="schedule-cron" name="cron" required maxlength="255" value="${form.cron}" aria-describedby="schedule-cron-help">
<p class="muted" id="schedule-cron-help">Five fields (minute hour day-of-month month day-of-week), such as <code>0 4 * * 1</code>, or <code>@daily</code>.</p>
<label for="schedule-timezone">Cron time zone</label><input type="text" id="schedule-timezone" name="cron_timezone" maxlength="100" value="${form.cron_timezone}" aria-describedby="schedule-timezone-help">
<p class="muted" id="schedule-timezone-help">An IANA name such as <code>Europe/Berlin</code>.</p>
<label for="schedule-ref">Target branch or tag</label><input type="text" id="schedule-ref" name="ref" required maxlength="255" value="${form.ref}">
<p><input type="checkbox" id="schedule-active" name="active" value="true"${form.active ? html` checked` : ''}> <label for="schedule-active">Activated</label></p>
${variableRows(context, input.variables)}
<p class="actions"><button type="submit">${row ? 'Save changes' : 'Create pipeline schedule'}</button> <a class="button secondary" href="${schedulesUrl(access)}">Cancel</a></p>
</form>`;
  return page({ status: input.errors ? 422 : 200, title: `${title} · ${access.project.name}`, heading: html`<h1>${title}</h1>`, body, sidebar: projectSidebar(access, 'pipelines') });
}

export function renderNewSchedule(context: PageContext, access: ProjectAccess): PageOutcome {
  return formPage(context, access, { form: { description: '', cron: '', cron_timezone: DEFAULT_TIMEZONE, ref: access.project.default_branch ?? '', active: true }, variables: [] });
}

async function editable(context: PageContext, access: ProjectAccess): Promise<PipelineScheduleRow> {
  const row = await findSchedule(context.deps.db, Number(access.project.id), Number(context.match.id));
  if (!canUpdateSchedule(access, row)) throw new ForbiddenError();
  return row;
}

export async function renderEditSchedule(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const row = await editable(context, access);
  const variables = await scheduleVariables(context.deps.db, [Number(row.id)]).execute();
  return formPage(context, access, { form: { description: row.description, cron: row.cron, cron_timezone: row.cron_timezone, ref: row.ref, active: Number(row.active) === 1 }, row, variables });
}

/** Create (POST /-/pipeline_schedules) or edit (POST …/:id/edit): the schedule and its variables in one transaction. */
export async function saveSchedule(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps } = context;
  const row = context.match.id === undefined ? undefined : await editable(context, access);
  const form = readForm(context);
  const variables = row ? await scheduleVariables(deps.db, [Number(row.id)]).execute() : [];
  const maySetVariables = await maySetPipelineVariables(deps, context.user.id, access.project);
  try {
    await inTransaction(deps.db, async (trx) => {
      const inTrx = { ...deps, db: trx };
      const saved = row ? await updateSchedule(inTrx, row, form) : await createSchedule(inTrx, Number(access.project.id), context.user.id, form);
      await applyVariableRows(inTrx, context, Number(saved.id), variables, maySetVariables);
    });
  } catch (error) {
    if (error instanceof ScheduleVariablesRefused) return formPage(context, access, { form, row, variables, errors: [error.message] });
    if (!(error instanceof ValidationError)) throw error;
    return formPage(context, access, { form, row, variables, errors: errorLines(error) });
  }
  return redirect(schedulesUrl(access), row ? 'The pipeline schedule was updated.' : 'The pipeline schedule was created.');
}

/** Play, Take ownership, Delete: the API's policy for each, its services. */
export async function scheduleAction(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps } = context;
  const row = await findSchedule(deps.db, Number(access.project.id), Number(context.match.id));
  const back = schedulesUrl(access);
  switch (context.match.action) {
    case 'play':
      if (!canOnProject(access, 'create_pipeline')) throw new ForbiddenError();
      await playSchedule(deps, access.project, context.user, row);
      return redirect(back, `The pipeline schedule "${row.description}" is running: its pipeline is being made.`);
    case 'take_ownership':
      if (!canTakeOwnership(access)) throw new ForbiddenError();
      await takeOwnership(deps, row, context.user.id);
      return redirect(back, 'You now own the pipeline schedule.');
    default:
      if (!canAdminSchedule(access, row)) throw new ForbiddenError();
      await deleteSchedule(deps.db, row);
      return redirect(back, 'The pipeline schedule was deleted.');
  }
}
