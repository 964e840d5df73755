// Pipeline e-mail (GitLab's NotificationService#pipeline_finished): when a pipeline ends as `success`
// or `failed`, its user — who pushed, triggered, played or owns the schedule — is mailed, and nobody
// else. Which message: a failed pipeline is `failed_pipeline`; a successful one is `fixed_pipeline`
// when the ref's previous finished pipeline failed (GitLab's Ci::Ref state moving from failed to
// fixed), else `success_pipeline`. The user gets it when the project sends e-mail, they are active,
// may read the project's pipelines, and the notification setting that applies allows it
// (recipient-rules.ts pipelineMailAllowed). Unlike issue mail, their own pipeline counts: GitLab
// names no acting user for it.
import type { Deps } from '../platform/deps.js';
import type { ClaimedJob } from '../platform/jobs/queue.js';
import { inTransaction } from '../platform/db/database.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { html } from '../platform/web/html.js';
import { composedBy, queueEmails } from '../email/api.js';
import { parseStored, projectAccess, toAuthUser } from '../accounts/api.js';
import { addressesOf, deliverable, settingsFor } from './recipients.js';
import { groupChain } from './issue-context.js';
import { pipelineMailAllowed, type PipelineAction } from './recipient-rules.js';
import { fromHeader, listId, mailHost } from './issue-email.js';

export const JOB_NOTIFY_PIPELINE = 'notifications.pipeline';

const WORDING: Record<PipelineAction, { subject: string; header: string; headline: (id: number) => string }> = {
  failed_pipeline: { subject: 'Failed', header: 'failed', headline: (id) => `Pipeline #${id} has failed!` },
  fixed_pipeline: { subject: 'Fixed', header: 'fixed', headline: (id) => `Pipeline has been fixed and #${id} has passed!` },
  success_pipeline: { subject: 'Successful', header: 'success', headline: (id) => `Pipeline #${id} has passed!` },
};

/** Which e-mail a pipeline that ended `status` makes, by the ref's previous finished pipeline. */
async function pipelineAction(deps: Deps, pipeline: { id: number; project_id: number; ref: string | null; tag: number }, status: string): Promise<PipelineAction> {
  if (status === 'failed') return 'failed_pipeline';
  const previous = await deps.db
    .selectFrom('ci_pipelines')
    .select('status')
    .where('project_id', '=', pipeline.project_id)
    .where('ref', pipeline.ref === null ? 'is' : '=', pipeline.ref)
    .where('tag', '=', pipeline.tag)
    .where('id', '<', pipeline.id)
    .where('status', 'in', ['success', 'failed'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return previous?.status === 'failed' ? 'fixed_pipeline' : 'success_pipeline';
}

export async function notifyPipeline(deps: Deps, payload: { pipelineId: number; status: string }, job: ClaimedJob): Promise<void> {
  if (payload.status !== 'success' && payload.status !== 'failed') return;
  if (await composedBy(deps, job.id)) return;
  const pipeline = await deps.db.selectFrom('ci_pipelines').selectAll().where('id', '=', payload.pipelineId).executeTakeFirst();
  if (!pipeline || pipeline.user_id === null) return;
  const project = await deps.db.selectFrom('projects').selectAll().where('id', '=', pipeline.project_id).executeTakeFirst();
  if (!project || parseStored(project.settings).emails_enabled === false) return;
  const user = await deps.db.selectFrom('users').selectAll().where('id', '=', pipeline.user_id).executeTakeFirst();
  if (!user || user.state !== 'active' || user.user_type !== 'human') return;
  const authUser = toAuthUser(user);
  const { level, namespace } = await projectAccess(deps.reads, authUser, project, deps.clock.now());
  if (!canOnProject({ user: authUser, level, visibility: project.visibility, features: project }, 'read_pipeline')) return;
  const action = await pipelineAction(deps, { id: Number(pipeline.id), project_id: Number(pipeline.project_id), ref: pipeline.ref, tag: Number(pipeline.tag) }, payload.status);
  const groupIds = await groupChain(deps, namespace);
  const setting = (await settingsFor(deps, [Number(user.id)], { project, groupIds })).get(Number(user.id))!;
  if (!pipelineMailAllowed(setting, action)) return;
  const address = (await addressesOf(deps, [user])).get(Number(user.id))!;
  if (!deliverable(address)) return;

  const failedJobs = action === 'failed_pipeline'
    ? await deps.db.selectFrom('ci_builds').select(['id', 'name', 'stage']).where('commit_id', '=', pipeline.id).where('retried', '=', 0).where('status', '=', 'failed').where('allow_failure', '=', 0).orderBy('stage_idx').orderBy('id').limit(10).execute()
    : [];
  const base = `${deps.config.baseUrl}/${project.full_path}`;
  const shortSha = pipeline.sha.slice(0, 8);
  const refKind = Number(pipeline.tag) === 1 ? 'Tag' : 'Branch';
  const refUrl = `${base}/-/${Number(pipeline.tag) === 1 ? 'tags' : 'commits'}/${encodeURIComponent(pipeline.ref ?? '')}`;
  const pipelineUrl = `${base}/-/pipelines/${pipeline.id}`;
  const wording = WORDING[action];
  const facts: Array<[string, string, string]> = [
    ['Project', project.full_path, base],
    [refKind, pipeline.ref ?? '', refUrl],
    ['Commit', shortSha, `${base}/-/commit/${pipeline.sha}`],
    ['Pipeline', `#${pipeline.id} triggered by ${user.name}`, pipelineUrl],
  ];
  const jobLines = failedJobs.map((build) => [`${build.name} (${build.stage})`, `${base}/-/jobs/${build.id}`] as const);
  const failedHeading = `Pipeline #${pipeline.id} had ${failedJobs.length} failed job${failedJobs.length === 1 ? '' : 's'}.`;
  const text = [
    wording.headline(Number(pipeline.id)), '',
    ...facts.map(([name, value, url]) => `${name}: ${value} ( ${url} )`),
    ...(failedJobs.length ? ['', failedHeading, ...jobLines.map(([name, url]) => `  ${name}: ${url}`)] : []),
    '',
  ].join('\n');
  const body = html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${wording.headline(Number(pipeline.id))}</title></head>
<body style="font-family: sans-serif; color: #333"><h1 style="font-size: 1.2em">${wording.headline(Number(pipeline.id))}</h1>
<table>${facts.map(([name, value, url]) => html`<tr><th style="text-align: left; padding-right: 1em">${name}</th><td><a href="${url}">${value}</a></td></tr>`)}</table>
${failedJobs.length ? html`<p>${failedHeading}</p><ul>${jobLines.map(([name, url]) => html`<li><a href="${url}">${name}</a></li>`)}</ul>` : ''}
<p><a href="${pipelineUrl}">View the pipeline</a></p></body></html>`.value;
  const message = {
    from: fromHeader(deps, null),
    to: address,
    userId: Number(user.id),
    subject: `${project.name} | ${wording.subject} pipeline for ${pipeline.ref ?? ''} | ${shortSha}`,
    messageId: `pipeline_${pipeline.id}_${job.id}@${mailHost(deps)}`,
    headers: {
      'X-GitLab-Project': project.name,
      'X-GitLab-Project-Id': String(project.id),
      'X-GitLab-Project-Path': project.full_path,
      'X-GitLab-Pipeline-Id': String(pipeline.id),
      'X-GitLab-Pipeline-Ref': pipeline.ref ?? '',
      'X-GitLab-Pipeline-Status': wording.header,
      'List-Id': listId(deps, { id: Number(project.id), full_path: project.full_path }),
      'Auto-Submitted': 'auto-generated',
      'X-Auto-Response-Suppress': 'All',
    },
    text,
    html: body,
  };
  await inTransaction(deps.db, (trx) => queueEmails(deps, trx, [message], job.id));
  deps.pokeWorker();
}
