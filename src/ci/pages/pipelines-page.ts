// A project's pipelines (GitLab's Build › Pipelines): the All, Finished, Branches and Tags tabs, a
// status and ref filter, pages of 20 with each pipeline's status, id, ref, commit, source, stages
// as icons, duration and creation; and the "Run pipeline" form (ref and variables) for those who
// may create pipelines, through the service POST /projects/:id/pipeline uses.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import { listRefs, readableRepository } from '../../repositories/api.js';
import { pipelinesQuery } from '../finder.js';
import { runPipelineForRef } from '../pipelines/run-pipeline.js';
import { PipelineCreationError } from '../pipelines/create-pipeline.js';
import { ciBadge, ciIcon, durationBetween, formatDuration, moment, stagesOf } from './status.js';
import { commitLink, commitsOf, latestJobs, pipelineUrl, projectBase, refLink, userLink, usersOf } from './shared.js';

export const PIPELINES_PATTERN = /^(?<path>.+?)\/-\/pipelines$/;
export const NEW_PIPELINE_PATTERN = /^(?<path>.+?)\/-\/pipelines\/new$/;

const PER_PAGE = 20;
const TABS = [['all', 'All'], ['finished', 'Finished'], ['branches', 'Branches'], ['tags', 'Tags']] as const;
const STATUSES: CiStatus[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled'];
/** GitLab's words for a pipeline's source. */
const SOURCES: Record<string, string> = { push: 'push', web: 'web', api: 'api', trigger: 'trigger', schedule: 'schedule', merge_request_event: 'merge request', external: 'external', pipeline: 'pipeline' };
const VARIABLE_ROWS = 5;

export async function renderPipelines(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, query } = context;
  const scope = TABS.some(([name]) => name === query.scope) ? query.scope : 'all';
  const status = STATUSES.includes(query.status as CiStatus) ? (query.status as CiStatus) : undefined;
  const ref = typeof query.ref === 'string' && query.ref.trim() !== '' ? query.ref.trim().slice(0, 255) : undefined;
  const pageNumber = Math.max(1, Math.min(1000, Number.parseInt(query.page ?? '1', 10) || 1));
  const rows = await pipelinesQuery(deps, Number(access.project.id), { scope: scope === 'all' ? undefined : scope, status, ref })
    .limit(PER_PAGE + 1)
    .offset((pageNumber - 1) * PER_PAGE)
    .execute();
  const shown = rows.slice(0, PER_PAGE);
  const [commits, users, jobs] = await Promise.all([
    commitsOf(deps, access.project, shown.map((row) => row.sha)),
    usersOf(deps, shown.map((row) => row.user_id)),
    latestJobs(deps, shown.map((row) => Number(row.id))),
  ]);
  const root = `${projectBase(access)}/-/pipelines`;
  const link = (overrides: { scope?: string; page?: number }) => {
    const params = new URLSearchParams();
    const tab = overrides.scope ?? scope;
    if (tab !== 'all') params.set('scope', tab);
    if (status) params.set('status', status);
    if (ref) params.set('ref', ref);
    const number = overrides.page ?? pageNumber;
    if (number > 1) params.set('page', String(number));
    const text = params.toString();
    return text ? `${root}?${text}` : root;
  };
  const body = html`
<div class="actions">${canOnProject(access, 'create_pipeline') ? html`<a class="button" href="${root}/new" id="run-pipeline">Run pipeline</a>` : ''}${canOnProject(access, 'download_code') ? html`<a class="button secondary" href="${projectBase(access)}/-/ci/lint">CI lint</a>` : ''}${canOnProject(access, 'read_pipeline_schedule') ? html`<a class="button secondary" href="${projectBase(access)}/-/pipeline_schedules">Schedules</a>` : ''}</div>
<nav class="tabs" aria-label="Pipelines by scope">${TABS.map(([tab, label]) => html`<a href="${link({ scope: tab, page: 1 })}" class="${tab === scope ? 'active' : ''}" data-tab="${tab}"${tab === scope ? html` aria-current="page"` : ''}>${label}</a>`)}</nav>
<form method="get" action="${root}" class="filters" role="search" aria-label="Filter pipelines">
${scope === 'all' ? '' : html`<input type="hidden" name="scope" value="${scope}">`}
<label for="pipeline-status">Status</label> <select id="pipeline-status" name="status"><option value="">Any</option>${STATUSES.map((name) => html`<option value="${name}"${name === status ? html` selected` : ''}>${name}</option>`)}</select>
<label for="pipeline-ref">Branch or tag</label> <input type="text" id="pipeline-ref" name="ref" value="${ref ?? ''}">
<button type="submit" class="secondary">Filter</button>
</form>
${
  shown.length
    ? html`<div class="table-scroll"><table id="pipelines"><thead><tr><th>Status</th><th>Pipeline</th><th>Triggerer</th><th>Commit</th><th>Stages</th><th>Duration</th><th>Created</th></tr></thead><tbody>${shown.map((pipeline) => {
        const id = Number(pipeline.id);
        const stages = stagesOf(jobs.filter((job) => Number(job.commit_id) === id));
        return html`<tr data-pipeline="${id}"><td>${ciBadge(pipeline.status)}</td><td><a href="${pipelineUrl(access, id)}">#${id}</a> <span class="badge" data-source="${pipeline.source}">${SOURCES[pipeline.source] ?? pipeline.source}</span>${pipeline.yaml_errors ? html` <span class="badge status-failed">yaml invalid</span>` : ''}<br>${refLink(access, pipeline.ref, Number(pipeline.tag) === 1)}</td><td>${userLink(pipeline.user_id === null ? undefined : users.get(Number(pipeline.user_id)))}</td><td class="wrap-anywhere">${commitLink(access, pipeline, commits.get(pipeline.sha))}</td><td class="stages">${stages.map((stage) => ciIcon(stage.status, stage.name, `${pipelineUrl(access, id)}#stage-${stage.index}`))}</td><td>${formatDuration(durationBetween(pipeline.started_at, pipeline.finished_at))}</td><td>${moment(Number(pipeline.created_at))}</td></tr>`;
      })}</tbody></table></div>`
    : html`<p class="empty">${status || ref || scope !== 'all' ? 'No pipelines match these filters.' : 'There are no pipelines yet. A push of a branch or tag with a .gitlab-ci.yml runs one.'}</p>`
}
<nav class="pagination" aria-label="Pages">${pageNumber > 1 ? html`<a href="${link({ page: pageNumber - 1 })}" rel="prev">Previous</a>` : ''}${rows.length > PER_PAGE ? html`<a href="${link({ page: pageNumber + 1 })}" rel="next">Next</a>` : ''}</nav>`;
  return page({ title: `Pipelines · ${access.project.name}`, heading: html`<h1>Pipelines</h1>`, body, sidebar: projectSidebar(access, 'pipelines') });
}

interface RunForm {
  ref: string;
  variables: Array<{ key: string; value: string; variable_type: string }>;
}

function runFormOf(context: PageContext, access: ProjectAccess): RunForm {
  const list = (name: string) => {
    const value = context.form[name];
    return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  };
  const keys = list('variable_key');
  const values = list('variable_value');
  const types = list('variable_type');
  const variables = keys
    .map((key, index) => ({ key: key.trim(), value: values[index] ?? '', variable_type: types[index] === 'file' ? 'file' : 'env_var' }))
    .filter((variable) => variable.key !== '');
  const ref = typeof context.form.ref === 'string' && context.form.ref.trim() !== '' ? context.form.ref.trim() : access.project.default_branch;
  return { ref, variables };
}

async function refChoices(context: PageContext, access: ProjectAccess): Promise<{ branches: string[]; tags: string[] }> {
  const path = await readableRepository(context.deps, access.project);
  const refs = path ? [...(await listRefs(path)).keys()] : [];
  const named = (prefix: string) => refs.filter((ref) => ref.startsWith(prefix)).map((ref) => ref.slice(prefix.length)).sort().slice(0, 500);
  return { branches: named('refs/heads/'), tags: named('refs/tags/') };
}

function runForm(context: PageContext, access: ProjectAccess, refs: { branches: string[]; tags: string[] }, form: RunForm, errors: string[]): Html {
  const rows = [...form.variables, ...Array.from({ length: Math.max(1, VARIABLE_ROWS - form.variables.length) }, () => ({ key: '', value: '', variable_type: 'env_var' }))];
  return html`${errors.length ? html`<div class="error" role="alert" id="pipeline-errors"><p>The pipeline could not be created:</p><ul>${errors.map((error) => html`<li>${error}</li>`)}</ul></div>` : ''}
<form method="post" action="${projectBase(access)}/-/pipelines" class="stacked" id="new-pipeline">${csrfField(context)}
<label for="pipeline-run-ref">Run for branch name or tag</label>
<select id="pipeline-run-ref" name="ref">${refs.branches.length ? html`<optgroup label="Branches">${refs.branches.map((ref) => html`<option value="${ref}"${ref === form.ref ? html` selected` : ''}>${ref}</option>`)}</optgroup>` : ''}${refs.tags.length ? html`<optgroup label="Tags">${refs.tags.map((ref) => html`<option value="${ref}"${ref === form.ref ? html` selected` : ''}>${ref}</option>`)}</optgroup>` : ''}${
    refs.branches.includes(form.ref) || refs.tags.includes(form.ref) ? '' : html`<option value="${form.ref}" selected>${form.ref}</option>`
  }</select>
<fieldset><legend>Variables</legend><p class="muted">Specify variable values to be used in this run. Rows left without a key are ignored.</p>
${rows.map(
  (variable, index) => html`<div class="variable-row"><label for="variable-type-${index}" class="visually-hidden">Type ${index + 1}</label><select id="variable-type-${index}" name="variable_type"><option value="env_var"${variable.variable_type === 'file' ? '' : html` selected`}>Variable</option><option value="file"${variable.variable_type === 'file' ? html` selected` : ''}>File</option></select>
<label for="variable-key-${index}" class="visually-hidden">Key ${index + 1}</label><input type="text" id="variable-key-${index}" name="variable_key" placeholder="Input variable key" value="${variable.key}" maxlength="255">
<label for="variable-value-${index}" class="visually-hidden">Value ${index + 1}</label><input type="text" id="variable-value-${index}" name="variable_value" placeholder="Input variable value" value="${variable.value}"></div>`,
)}</fieldset>
<p class="actions"><button type="submit">Run pipeline</button> <a href="${projectBase(access)}/-/pipelines">Cancel</a></p>
</form>`;
}

export async function renderNewPipeline(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const refs = await refChoices(context, access);
  const ref = typeof context.query.ref === 'string' && context.query.ref !== '' ? context.query.ref : access.project.default_branch;
  return page({ title: `Run pipeline · ${access.project.name}`, heading: html`<h1>Run pipeline</h1>`, body: runForm(context, access, refs, { ref, variables: [] }, []), sidebar: projectSidebar(access, 'pipelines') });
}

/** "Run pipeline": GitLab's `web` source, the API's service; its errors shown on the form again (422). */
export async function createPipelineFromForm(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const form = runFormOf(context, access);
  try {
    const pipeline = await runPipelineForRef(context.deps, { project: access.project, ref: form.ref, source: 'web', userId: context.user.id, variables: form.variables });
    return redirect(pipelineUrl(access, Number(pipeline.id)), `Pipeline #${Number(pipeline.id)} was created.`);
  } catch (error) {
    if (!(error instanceof PipelineCreationError)) throw error;
    const refs = await refChoices(context, access);
    return page({ status: 422, title: `Run pipeline · ${access.project.name}`, heading: html`<h1>Run pipeline</h1>`, body: runForm(context, access, refs, form, error.errors), sidebar: projectSidebar(access, 'pipelines') });
  }
}
