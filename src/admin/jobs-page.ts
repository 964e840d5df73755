// /admin/background_jobs (GitLab's Admin › Monitoring › Background jobs): the durable jobs table by
// state — queued (with the error of the last failed attempt, if any), running, dead (out of attempts,
// with its error) — newest 100 each, with Retry for dead jobs and Discard for dead and queued ones.
// On a phone the time and attempt columns are left out (the table would not fit 390 px).
import type { Deps } from '../platform/deps.js';
import { isoTime } from '../platform/clock.js';
import { html } from '../platform/web/html.js';
import { csrfField, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import { discardJob, retryJob } from './job-actions.js';

const TABS = [['queued', 'Queued'], ['running', 'Running'], ['dead', 'Dead']] as const;
type Tab = (typeof TABS)[number][0];
const SHOWN = 100;
const COUNTED = 10_000;
export const JOBS_URL = '/admin/background_jobs';

async function countOf(deps: Deps, state: Tab): Promise<number> {
  const capped = deps.db.selectFrom('jobs').select('id').where('state', '=', state).limit(COUNTED + 1).as('capped');
  return Number((await deps.db.selectFrom(capped).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
}

function time(ms: number | null): string {
  const iso = isoTime(ms);
  return iso ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : '';
}

export async function renderJobs(context: PageContext): Promise<PageOutcome> {
  const { deps } = context;
  const state: Tab = TABS.some(([tab]) => tab === context.query.state) ? (context.query.state as Tab) : 'queued';
  const [counts, rows] = await Promise.all([
    Promise.all(TABS.map(([tab]) => countOf(deps, tab))),
    deps.db.selectFrom('jobs').select(['id', 'kind', 'state', 'run_at', 'attempts', 'max_attempts', 'last_error', 'created_at']).where('state', '=', state).orderBy('run_at', state === 'queued' ? 'asc' : 'desc').orderBy('id', state === 'queued' ? 'asc' : 'desc').limit(SHOWN).execute(),
  ]);
  const action = (id: number, verb: 'retry' | 'discard', label: string, secondary: boolean) =>
    html`<form method="post" action="${JOBS_URL}/${id}/${verb}" class="inline">${csrfField(context)}<input type="hidden" name="state" value="${state}"><button type="submit" class="small${secondary ? ' secondary' : ''}">${label}</button></form>`;
  const body = html`
<p class="muted">Work the server does in the background (mail, webhooks, pipelines, storage moves, clean-ups). A job that fails is tried again later; one out of attempts is dead until retried or discarded.</p>
<nav class="tabs" aria-label="Jobs by state">${TABS.map(([tab, label], index) => html`<a href="${JOBS_URL}?state=${tab}" class="${tab === state ? 'active' : ''}" data-tab="${tab}"${tab === state ? html` aria-current="page"` : ''}>${label} <span class="badge">${counts[index]! > COUNTED ? `${COUNTED}+` : String(counts[index])}</span></a>`)}</nav>
${
  rows.length
    ? html`<table id="jobs"><thead><tr><th>Job</th><th class="wide-only">${state === 'queued' ? 'Runs at' : state === 'running' ? 'Started' : 'Died'}</th><th class="wide-only">Attempts</th><th>Last error</th>${state === 'running' ? '' : html`<th><span class="visually-hidden">Actions</span></th>`}</tr></thead><tbody>${rows.map(
        (job) => html`<tr data-job="${job.id}"><td class="wrap-anywhere">${job.kind} <span class="muted">#${job.id}</span></td><td class="wide-only">${time(job.run_at)}</td><td class="wide-only">${job.attempts} of ${job.max_attempts}</td><td class="wrap-anywhere">${job.last_error ? html`<code>${job.last_error.slice(0, 2000)}</code>` : html`<span class="muted">none</span>`}</td>${
          state === 'running' ? '' : html`<td>${state === 'dead' ? action(Number(job.id), 'retry', 'Retry', false) : ''} ${action(Number(job.id), 'discard', 'Discard', true)}</td>`
        }</tr>`,
      )}</tbody></table>`
    : html`<p class="empty">${state === 'dead' ? 'No dead jobs: every failed job is still being retried, or none failed.' : state === 'running' ? 'No job is running right now.' : 'Nothing is waiting to run.'}</p>`
}`;
  return page({ title: 'Background jobs', body });
}

export async function handleJobAction(context: PageContext): Promise<PageOutcome> {
  const id = Number(context.params.id);
  const verb = context.params.action;
  const back = `${JOBS_URL}?state=${TABS.some(([tab]) => tab === context.form.state) ? String(context.form.state) : 'queued'}`;
  if (!Number.isSafeInteger(id) || (verb !== 'retry' && verb !== 'discard')) return redirect(back);
  const done = verb === 'retry' ? await retryJob(context.deps, id) : await discardJob(context.deps, id);
  const message = done ? (verb === 'retry' ? `Job #${id} queued again.` : `Job #${id} discarded.`) : `Job #${id} was not changed: it is running, done or gone.`;
  return redirect(back, message);
}
