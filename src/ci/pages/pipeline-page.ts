// One pipeline (GitLab's pipeline page): its status, who triggered it, the ref and commit; the
// Pipeline tab with its jobs grouped by stage (each a list of its jobs and what they `need`) or by job
// dependencies (`?group_by=dependencies`: the drawn `needs` graph), its exposed artifacts, and the Jobs
// tab (GitLab's `…/pipelines/:id/builds`); retry and cancel through the services the API's routes use.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { NotFoundError } from '../../platform/errors.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { ACTIVE } from '../../commit-statuses/api.js';
import type { CiBuildRow, CiPipelineRow } from '../../commit-statuses/api.js';
import { findPipeline, jobsQuery } from '../finder.js';
import { readOptions } from '../pipelines/build-options.js';
import { cancelPipeline, retryPipeline } from '../jobs/job-actions.js';
import { assertMayUpdateRef } from '../jobs/protected-ref-access.js';
import { queueSignal } from '../queue-signal.js';
import { deletePipeline } from '../pipelines/delete-pipeline.js';
import { ciBadge, ciIcon, durationBetween, formatDuration, moment, stagesOf } from './status.js';
import { needsGraph } from './needs-graph.js';
import { exposedArtifacts, exposedArtifactsBlock } from './exposed-artifacts.js';
import { actionButton, mayActOnJobsOf, commitLink, projectBase, commitsOf, jobUrl, pipelineUrl, refLink, userLink, usersOf } from './shared.js';

export const PIPELINE_PATTERN = /^(?<path>.+?)\/-\/pipelines\/(?<id>\d{1,12})$/;
export const PIPELINE_JOBS_PATTERN = /^(?<path>.+?)\/-\/pipelines\/(?<id>\d{1,12})\/builds$/;
export const PIPELINE_ACTION_PATTERN = /^(?<path>.+?)\/-\/pipelines\/(?<id>\d{1,12})\/(?<action>retry|cancel)$/;
export const PIPELINE_DELETE_PATTERN = /^(?<path>.+?)\/-\/pipelines\/(?<id>\d{1,12})\/delete$/;

async function pipelineOf(context: PageContext, access: ProjectAccess): Promise<CiPipelineRow> {
  const pipeline = await findPipeline(context.deps.db, Number(access.project.id), Number(context.match.id));
  if (!pipeline) throw new NotFoundError('Pipeline');
  return pipeline;
}

const RETRYABLE = ['failed', 'canceled'];

function jobLine(context: PageContext, access: ProjectAccess, job: CiBuildRow, byName: Map<string, CiBuildRow>, mayUpdate: boolean): Html {
  const needs = readOptions(job.options)?.needs ?? null;
  const playable = job.status === 'manual' && mayUpdate;
  return html`<li class="pipeline-job" data-job="${job.name}">${ciIcon(job.status, job.name)} <a href="${jobUrl(access, job.id)}">${job.name}</a>${
    Number(job.allow_failure) === 1 && job.status === 'failed' ? html` <span class="badge">allowed to fail</span>` : ''
  }${playable ? html` ${actionButton(context, `${jobUrl(access, job.id)}/play`, `Run ${job.name}`)}` : ''}${
    needs && needs.length
      ? html`<br><span class="muted needs">Needs: ${needs.map((need, index) => {
          const needed = byName.get(need.job);
          return html`${index ? ', ' : ''}${needed ? html`<a href="${jobUrl(access, needed.id)}">${need.job}</a>` : need.job}`;
        })}</span>`
      : ''
  }</li>`;
}

async function frame(context: PageContext, access: ProjectAccess, tab: 'pipeline' | 'jobs', content: (pipeline: CiPipelineRow, jobs: CiBuildRow[], mayUpdate: boolean) => Html | Promise<Html>): Promise<PageOutcome> {
  const { deps } = context;
  const pipeline = await pipelineOf(context, access);
  const id = Number(pipeline.id);
  const jobs = await jobsQuery(deps, Number(access.project.id), { pipelineId: id }).execute();
  const [commits, users] = await Promise.all([commitsOf(deps, access.project, [pipeline.sha]), usersOf(deps, [pipeline.user_id])]);
  const mayUpdate = await mayActOnJobsOf(context, access, pipeline);
  const retry = mayUpdate && jobs.some((job) => RETRYABLE.includes(job.status));
  const cancel = mayUpdate && jobs.some((job) => (ACTIVE as readonly string[]).includes(job.status) || job.status === 'manual' || job.status === 'scheduled' || job.status === 'created');
  const remove = canOnProject(access, 'destroy_pipeline');
  const self = pipelineUrl(access, id);
  const body = html`
<div class="pipeline-header" id="pipeline-header">
<p>${ciBadge(pipeline.status)} Pipeline <strong>#${id}</strong> triggered ${moment(Number(pipeline.created_at))} by ${userLink(pipeline.user_id === null ? undefined : users.get(Number(pipeline.user_id)))}</p>
<p class="wrap-anywhere">For ${refLink(access, pipeline.ref, Number(pipeline.tag) === 1)} · ${commitLink(access, pipeline, commits.get(pipeline.sha))}</p>
<p class="muted">${jobs.length} ${jobs.length === 1 ? 'job' : 'jobs'}${pipeline.finished_at !== null && pipeline.started_at !== null ? html` · took ${formatDuration(durationBetween(pipeline.started_at, pipeline.finished_at))}` : ''} · source: ${pipeline.source}</p>
${pipeline.yaml_errors ? html`<div class="error" role="alert" id="yaml-errors">${pipeline.yaml_errors}</div>` : ''}
${pipeline.auto_canceled_by_id !== null ? html`<p class="muted" id="auto-canceled">Auto-canceled by <a href="${pipelineUrl(access, pipeline.auto_canceled_by_id)}">#${Number(pipeline.auto_canceled_by_id)}</a>, a newer pipeline of the ref</p>` : ''}
${retry || cancel || remove ? html`<div class="actions">${retry ? actionButton(context, `${self}/retry`, 'Retry') : ''}${cancel ? actionButton(context, `${self}/cancel`, 'Cancel pipeline', 'danger') : ''}${
  remove ? html`<form method="post" action="${self}/delete" class="inline" data-confirm="Delete pipeline #${id}? Its jobs, logs and artifacts are deleted too.">${csrfField(context)}<button type="submit" class="danger">Delete</button></form>` : ''
}</div>` : ''}
</div>
<nav class="tabs" aria-label="Pipeline">
<a href="${self}" class="${tab === 'pipeline' ? 'active' : ''}" data-tab="pipeline"${tab === 'pipeline' ? html` aria-current="page"` : ''}>Pipeline</a>
<a href="${self}/builds" class="${tab === 'jobs' ? 'active' : ''}" data-tab="jobs"${tab === 'jobs' ? html` aria-current="page"` : ''}>Jobs <span class="badge">${jobs.length}</span></a>
</nav>
${await content(pipeline, jobs, mayUpdate)}`;
  return page({ title: `Pipeline #${id} · ${access.project.name}`, heading: html`<h1>Pipeline #${id}</h1>`, body, sidebar: projectSidebar(access, 'pipelines') });
}

/** GitLab's "Group jobs by: Stage | Job dependencies", as links (the chosen one is the current page). */
function groupByToggle(self: string, byNeeds: boolean): Html {
  const choice = (href: string, label: string, current: boolean) => html`<a href="${href}" class="${current ? 'active' : ''}"${current ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<p class="group-by" id="group-by">Group jobs by: ${choice(self, 'Stage', !byNeeds)} | ${choice(`${self}?group_by=dependencies`, 'Job dependencies', byNeeds)}</p>`;
}

export function renderPipeline(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const byNeeds = context.query.group_by === 'dependencies';
  return frame(context, access, 'pipeline', async (pipeline, jobs, mayUpdate) => {
    const byName = new Map(jobs.map((job) => [job.name, job]));
    const stages = stagesOf(jobs);
    if (stages.length === 0) return html`<p class="empty">This pipeline has no jobs.</p>`;
    const exposed = exposedArtifactsBlock(await exposedArtifacts(context.deps, access, jobs));
    const toggle = groupByToggle(pipelineUrl(access, Number(pipeline.id)), byNeeds);
    if (byNeeds) {
      const graphJobs = jobs.map((job) => ({ id: job.id, name: job.name, stage_idx: job.stage_idx, status: job.status, needs: readOptions(job.options)?.needs?.map((need) => need.job) ?? null }));
      return html`${exposed}${toggle}${needsGraph(access, graphJobs)}`;
    }
    return html`${exposed}${toggle}<div class="pipeline-graph" id="pipeline-graph">${stages.map(
      (stage) => html`<section class="pipeline-stage" id="stage-${stage.index}" aria-labelledby="stage-${stage.index}-name"><h2 id="stage-${stage.index}-name">${ciIcon(stage.status, stage.name)} ${stage.name}</h2><ul class="plain">${jobs
        .filter((job) => job.stage_idx === stage.index)
        .map((job) => jobLine(context, access, job, byName, mayUpdate))}</ul></section>`,
    )}</div>`;
  });
}

export function renderPipelineJobs(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  return frame(context, access, 'jobs', (_pipeline, jobs) =>
    jobs.length
      ? html`<div class="table-scroll"><table id="pipeline-jobs"><thead><tr><th>Status</th><th>Job</th><th>Stage</th><th>Duration</th><th>Coverage</th></tr></thead><tbody>${jobs.map(
          (job) => html`<tr data-job="${job.name}"><td>${ciBadge(job.status)}</td><td class="wrap-anywhere"><a href="${jobUrl(access, job.id)}">${job.name}</a> <span class="muted">#${Number(job.id)}</span></td><td>${job.stage}</td><td>${formatDuration(durationBetween(job.started_at, job.finished_at))}</td><td>${job.coverage === null ? '' : `${Number(job.coverage)}%`}</td></tr>`,
        )}</tbody></table></div>`
      : html`<p class="empty">This pipeline has no jobs.</p>`,
  );
}

/** Retry or cancel: the API's services (Ci::RetryPipelineService, cancel), the runners woken. */
export async function pipelineAction(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const pipeline = await pipelineOf(context, access);
  await assertMayUpdateRef(context.deps, access.project, context.user, pipeline);
  const id = Number(pipeline.id);
  if (context.match.action === 'retry') {
    await retryPipeline(context.deps, id, context.user.id);
    queueSignal(context.deps).tick();
    return redirect(pipelineUrl(access, id), `Pipeline #${id} is being retried.`);
  }
  await cancelPipeline(context.deps, id);
  return redirect(pipelineUrl(access, id), `Pipeline #${id} was canceled.`);
}

/** Delete (Owners): the API's service; back to the list. */
export async function pipelineDelete(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const pipeline = await pipelineOf(context, access);
  await deletePipeline(context.deps, Number(pipeline.id));
  return redirect(`${projectBase(access)}/-/pipelines`, `Pipeline #${Number(pipeline.id)} was deleted.`);
}
