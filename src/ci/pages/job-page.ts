// One job (GitLab's job page): its status, pipeline, stage, ref, commit, runner and timings, retry,
// cancel and play through the services the API's routes use, its artifacts (download and browse),
// and its log with colours and sections, grown while the job runs by htmx polling a fragment of the
// panel that carries the log's state: only the new lines are rendered and appended (job-log.ts). A
// page without scripts shows the log as it was, and a reload shows more.
// `…/raw` is the log as text. Also the project's jobs list (GitLab's Build › Jobs).
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { ANSWERED, fragment, page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { setPageSecurityHeaders } from '../../platform/web/page-route.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import type { CiBuildRow } from '../../commit-statuses/api.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import { jobsQuery, JOB_SCOPES } from '../finder.js';
import { readTraceFrom, readTraceTail, traceStream } from '../jobs/trace.js';
import { cancelJob, playJob, retryJob } from '../jobs/job-actions.js';
import { markTraceWatched } from '../jobs/runner-updates.js';
import { assertMayUpdateRef } from '../jobs/protected-ref-access.js';
import { queueSignal } from '../queue-signal.js';
import { completeLinesEnd, decodeLogState, encodeLogState, jobLogBlock, jobLogIncrement, MAX_SHOWN, renderJobLog, type LogState } from './job-log.js';
import { renderLogOffLoop } from './log-render-pool.js';
import { artifactsBlock } from './artifacts-page.js';
import { ciBadge, durationBetween, formatDuration, moment } from './status.js';
import { actionButton, jobOf, mayActOnJobsOf, commitLink, commitsOf, jobUrl, pipelineUrl, projectBase, refLink, userLink, usersOf } from './shared.js';
import { archiveAvailable } from '../jobs/kept-artifacts.js';

export const JOBS_PATTERN = /^(?<path>.+?)\/-\/jobs$/;
export const JOB_PATTERN = /^(?<path>.+?)\/-\/jobs\/(?<id>\d{1,12})$/;
export const JOB_LOG_PATTERN = /^(?<path>.+?)\/-\/jobs\/(?<id>\d{1,12})\/log$/;
export const JOB_RAW_PATTERN = /^(?<path>.+?)\/-\/jobs\/(?<id>\d{1,12})\/raw$/;
export const JOB_ACTION_PATTERN = /^(?<path>.+?)\/-\/jobs\/(?<id>\d{1,12})\/(?<action>retry|cancel|play)$/;

const ACTIVE_STATUSES: CiStatus[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running'];
const CANCELABLE: CiStatus[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'manual', 'scheduled'];
const RETRYABLE: CiStatus[] = ['success', 'failed', 'canceled'];
const PER_PAGE = 30;
/** GitLab's words for the failure reasons a job page shows. */
const FAILURES: Record<string, string> = {
  script_failure: 'script failure', runner_system_failure: 'runner system failure', stuck_or_timeout_failure: 'stuck or timeout failure', job_execution_timeout: 'job execution timeout',
  missing_dependency_failure: 'missing dependency failure', unknown_failure: 'unknown failure', api_failure: 'API failure',
  user_blocked: 'the user who created this job is blocked',
};

export async function artifactsOf(context: PageContext, build: CiBuildRow) {
  const archive = await context.deps.db
    .selectFrom('ci_job_artifacts')
    .select(['size', 'expire_at', 'filename'])
    .where('build_id', '=', build.id)
    .where('file_type', '=', 'archive')
    .executeTakeFirst();
  return archive && (await archiveAvailable(context.deps, Number(build.id), archive.expire_at)) ? archive : null;
}

/** The job's log rendered whole (its last MAX_SHOWN bytes), with the state its next poll continues from. */
async function wholeLog(context: PageContext, access: ProjectAccess, build: CiBuildRow, running: boolean, outOfBand = false): Promise<{ block: Html; state: LogState | null }> {
  const tail = await readTraceTail(context.deps.db, Number(build.id), MAX_SHOWN);
  const rendered = tail.size === 0 ? null : await renderJobLog(tail.data, { offset: tail.start, running, render: renderLogOffLoop });
  return { block: jobLogBlock(rendered, tail.size, `${jobUrl(access, build.id)}/raw`, outOfBand), state: rendered?.state ?? null };
}

/**
 * What a poll adds to the log on the page: only the bytes after the state's offset, rendered from
 * its colours and open sections, as out-of-band appends; the whole block again when there is no
 * state, it does not fit the log (erased, or a forged offset) or too much came since.
 */
async function logSince(context: PageContext, access: ProjectAccess, build: CiBuildRow, running: boolean, token: string | undefined): Promise<{ swaps: Html; state: LogState | null }> {
  const from = decodeLogState(token);
  const slice = from && from.offset > 0 ? await readTraceFrom(context.deps.db, Number(build.id), from.offset, MAX_SHOWN) : null;
  // The state's offset must end a line of this log (every render of a running job stops after one).
  if (!from || !slice || slice.data[from.offset - slice.start - 1] !== 0x0a) {
    const whole = await wholeLog(context, access, build, running, true);
    return { swaps: whole.block, state: whole.state };
  }
  const fresh = slice.data.subarray(from.offset - slice.start);
  const end = running ? completeLinesEnd(fresh, 0) : fresh.length;
  if (end === 0) return { swaps: html``, state: from };
  const increment = await renderLogOffLoop(fresh.subarray(0, end).toString('utf8'), from.offset, from);
  return { swaps: jobLogIncrement(increment), state: increment.state };
}

/** The live part of the page: status, actions and artifacts; polled as a fragment while the job is active, with the log's state. */
async function jobPanel(context: PageContext, access: ProjectAccess, build: CiBuildRow, log: LogState | null): Promise<Html> {
  const self = jobUrl(access, build.id);
  const archive = await artifactsOf(context, build);
  const mayUpdate = await mayActOnJobsOf(context, access, build);
  const latest = Number(build.retried) === 0;
  const active = ACTIVE_STATUSES.includes(build.status);
  const buttons = [
    mayUpdate && build.status === 'manual' ? actionButton(context, `${self}/play`, 'Run job', '') : null,
    mayUpdate && latest && RETRYABLE.includes(build.status) ? actionButton(context, `${self}/retry`, 'Retry') : null,
    mayUpdate && CANCELABLE.includes(build.status) ? actionButton(context, `${self}/cancel`, 'Cancel', 'danger') : null,
  ].filter((button): button is Html => button !== null);
  const waitingFor = await waitedResourceGroup(context, build);
  const pollUrl = log ? `${self}/log?state=${encodeLogState(log)}` : `${self}/log`;
  const poll = active ? html` hx-get="${pollUrl}" hx-trigger="every 2s" hx-swap="outerHTML"` : '';
  return html`<div id="job-panel" data-status="${build.status}"${poll}>
<p>${ciBadge(build.status)}${build.status === 'failed' && build.failure_reason ? html` <span class="muted" id="failure-reason">${FAILURES[build.failure_reason] ?? build.failure_reason}</span>` : ''}${
    latest ? '' : html` <span class="badge">retried</span>`
  }${active ? html` <span class="live-status" aria-live="polite">The log refreshes while the job runs.</span>` : ''}</p>
${waitingFor !== null ? html`<p id="waiting-for-resource">This job is waiting for resource: <code>${waitingFor}</code></p>` : ''}
${buttons.length ? html`<div class="actions">${buttons}</div>` : ''}
${archive ? artifactsBlock(context, access, build, archive, mayUpdate) : ''}
<p class="muted"><a href="${self}/raw">Show complete raw</a></p>
</div>`;
}

/** The key of the resource group a `waiting_for_resource` job waits for (GitLab's job page says it), else null. */
async function waitedResourceGroup(context: PageContext, build: CiBuildRow): Promise<string | null> {
  if (build.status !== 'waiting_for_resource' || build.resource_group_id === null) return null;
  const group = await context.deps.db.selectFrom('ci_resource_groups').select('key').where('id', '=', build.resource_group_id).executeTakeFirst();
  return group?.key ?? null;
}

/** A viewer of a running job's log asks its runner, through the trace update interval, to send it every 3 s. */
async function watchedWhileRunning(context: PageContext, build: CiBuildRow): Promise<void> {
  if (build.status === 'running') await markTraceWatched(context.deps, Number(build.id));
}

export async function renderJob(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps } = context;
  const build = await jobOf(context, access);
  await watchedWhileRunning(context, build);
  const log = await wholeLog(context, access, build, ACTIVE_STATUSES.includes(build.status));
  const pipeline = await deps.db.selectFrom('ci_pipelines').selectAll().where('id', '=', build.commit_id).executeTakeFirstOrThrow();
  const [commits, users, runner] = await Promise.all([
    commitsOf(deps, access.project, [pipeline.sha]),
    usersOf(deps, [build.user_id]),
    build.runner_id === null ? undefined : deps.db.selectFrom('ci_runners').select(['id', 'description']).where('id', '=', build.runner_id).executeTakeFirst(),
  ]);
  const body = html`
<dl class="facts" id="job-facts">
<dt>Pipeline</dt><dd><a href="${pipelineUrl(access, pipeline.id)}">#${Number(pipeline.id)}</a> for ${refLink(access, build.ref, Number(build.tag) === 1)}</dd>
<dt>Commit</dt><dd>${commitLink(access, pipeline, commits.get(pipeline.sha))}</dd>
<dt>Stage</dt><dd>${build.stage}</dd>
<dt>Triggered by</dt><dd>${userLink(build.user_id === null ? undefined : users.get(Number(build.user_id)))} ${moment(Number(build.created_at))}</dd>
${build.started_at !== null ? html`<dt>Duration</dt><dd>${formatDuration(durationBetween(build.started_at, build.finished_at ?? deps.clock.now()))}${build.queued_at !== null ? html` <span class="muted">(queued for ${formatDuration(durationBetween(build.queued_at, build.started_at))})</span>` : ''}</dd>` : ''}
${runner ? html`<dt>Runner</dt><dd>#${Number(runner.id)} ${runner.description}</dd>` : ''}
${build.coverage !== null ? html`<dt>Coverage</dt><dd>${Number(build.coverage)}%</dd>` : ''}
</dl>
${await jobPanel(context, access, build, log.state)}
${log.block}`;
  return page({ title: `${build.name} (#${Number(build.id)}) · Jobs · ${access.project.name}`, heading: html`<h1 class="wrap-anywhere">${build.name} <span class="muted">#${Number(build.id)}</span></h1>`, body, sidebar: projectSidebar(access, 'jobs') });
}

/** The poll: the panel again, and the log's new lines as out-of-band swaps. */
export async function renderJobLogFragment(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const build = await jobOf(context, access);
  await watchedWhileRunning(context, build);
  const log = await logSince(context, access, build, ACTIVE_STATUSES.includes(build.status), context.query.state);
  return fragment(html`${await jobPanel(context, access, build, log.state)}${log.swaps}`);
}

export async function sendRawLog(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const build = await jobOf(context, access);
  setPageSecurityHeaders(context.reply);
  context.reply.code(200).type('text/plain; charset=utf-8').header('content-disposition', `inline; filename="job-${Number(build.id)}.log"`).send(traceStream(context.deps.db, Number(build.id)));
  return ANSWERED;
}

/** Retry, cancel or play: the API's services, their refusals (a job that may not be retried) answered as the API's are. */
export async function jobAction(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const build = await jobOf(context, access);
  await assertMayUpdateRef(context.deps, access.project, context.user, build);
  const userId = context.user.id;
  const action = context.match.action;
  const changed = action === 'retry' ? await retryJob(context.deps, build, userId) : action === 'play' ? await playJob(context.deps, build, userId) : await cancelJob(context.deps, build);
  queueSignal(context.deps).tick();
  const words: Record<string, string> = { retry: 'is being retried', play: 'was started', cancel: 'was canceled' };
  return redirect(jobUrl(access, changed.id), `Job ${build.name} ${words[action]}.`);
}

export async function renderJobs(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, query } = context;
  const scope = (JOB_SCOPES as readonly string[]).includes(query.scope) ? query.scope : undefined;
  const pageNumber = Math.max(1, Math.min(1000, Number.parseInt(query.page ?? '1', 10) || 1));
  const rows = await jobsQuery(deps, Number(access.project.id), { scope: scope ? [scope] : undefined }).limit(PER_PAGE + 1).offset((pageNumber - 1) * PER_PAGE).execute();
  const shown = rows.slice(0, PER_PAGE);
  const root = `${projectBase(access)}/-/jobs`;
  const link = (overrides: { scope?: string | null; page?: number }) => {
    const params = new URLSearchParams();
    const chosen = overrides.scope === undefined ? scope : overrides.scope;
    if (chosen) params.set('scope', chosen);
    const number = overrides.page ?? pageNumber;
    if (number > 1) params.set('page', String(number));
    const text = params.toString();
    return text ? `${root}?${text}` : root;
  };
  const tabs = [[null, 'All'], ['pending', 'Pending'], ['running', 'Running'], ['success', 'Passed'], ['failed', 'Failed']] as const;
  const body = html`<nav class="tabs" aria-label="Jobs by status">${tabs.map(([tab, label]) => {
    const current = (tab ?? undefined) === scope;
    return html`<a href="${link({ scope: tab, page: 1 })}" class="${current ? 'active' : ''}" data-tab="${tab ?? 'all'}"${current ? html` aria-current="page"` : ''}>${label}</a>`;
  })}</nav>
${
  shown.length
    ? html`<div class="table-scroll"><table id="jobs"><thead><tr><th>Status</th><th>Job</th><th>Pipeline</th><th>Stage</th><th>Duration</th><th>Created</th></tr></thead><tbody>${shown.map(
        (job) => html`<tr data-job="${job.name}"><td>${ciBadge(job.status)}</td><td class="wrap-anywhere"><a href="${jobUrl(access, job.id)}">${job.name}</a> <span class="muted">#${Number(job.id)}</span><br>${refLink(access, job.ref, Number(job.tag) === 1)}</td><td><a href="${pipelineUrl(access, job.commit_id)}">#${Number(job.commit_id)}</a></td><td>${job.stage}</td><td>${formatDuration(durationBetween(job.started_at, job.finished_at))}</td><td>${moment(Number(job.created_at))}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="empty">${scope ? 'No jobs with this status.' : 'There are no jobs yet.'}</p>`
}
<nav class="pagination" aria-label="Pages">${pageNumber > 1 ? html`<a href="${link({ page: pageNumber - 1 })}" rel="prev">Previous</a>` : ''}${rows.length > PER_PAGE ? html`<a href="${link({ page: pageNumber + 1 })}" rel="next">Next</a>` : ''}</nav>`;
  return page({ title: `Jobs · ${access.project.name}`, heading: html`<h1>Jobs</h1>`, body, sidebar: projectSidebar(access, 'jobs') });
}
