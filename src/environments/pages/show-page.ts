// One environment (GitLab's environment page): its deployments, newest first, and the open alerts
// whose `gitlab_environment_name` names it; stop for Developers, delete once stopped.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { isoTime } from '../../platform/clock.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { ForbiddenError, NotFoundError } from '../../platform/errors.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { openAlertsOfEnvironment, severityName, statusName, titleCase } from '../../alerts/api.js';
import { findEnvironment } from '../finder.js';
import { deploymentsQuery, deploymentRelations } from '../deployments-finder.js';
import { stopEnvironment } from '../stop-environment.js';
import { deleteEnvironment } from '../delete-environment.js';
import { environmentActions, externalLink } from './shared.js';

export const ENVIRONMENT_PATTERN = /^(?<path>.+?)\/-\/environments\/(?<id>\d{1,12})$/;

async function environmentOf(context: PageContext, access: ProjectAccess) {
  try {
    return await findEnvironment(context.deps.db, Number(access.project.id), Number(context.match.id));
  } catch {
    throw new NotFoundError('Environment');
  }
}

export async function renderEnvironment(context: PageContext, access: ProjectAccess) {
  const { deps } = context;
  const env = await environmentOf(context, access);
  const projectId = Number(access.project.id);
  const [deployments, alerts] = await Promise.all([
    deploymentsQuery(deps.db, projectId, { environment: env.name, orderBy: 'id', sort: 'desc' }).limit(50).execute(),
    openAlertsOfEnvironment(deps, projectId, env.name),
  ]);
  const relations = await deploymentRelations(deps.db, deployments);
  const base = `/${access.project.full_path}`;
  const body = html`
<p><span class="badge">${env.state === 'available' ? 'Available' : 'Stopped'}</span> <span class="muted">Tier: ${env.tier}</span> ${externalLink(env)}</p>
<div class="actions">${environmentActions(context, access, env)}</div>
<h2>Open alerts <span class="badge">${alerts.length}</span></h2>
${
  alerts.length
    ? html`<table id="environment-alerts"><thead><tr><th>Severity</th><th>Alert</th><th>Status</th><th>Started</th></tr></thead><tbody>${alerts.map(
        (alert) => html`<tr><td>${titleCase(severityName(alert.severity))}</td><td><a href="${base}/-/alert_management/${alert.iid}/details">${alert.title}</a></td><td>${titleCase(statusName(alert.status))}</td><td>${isoTime(alert.started_at)}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No open alerts name this environment (<code>gitlab_environment_name</code>).</p>`
}
<h2>Deployments</h2>
${
  deployments.length
    ? html`<table id="deployments"><thead><tr><th>ID</th><th>Status</th><th>Ref</th><th>Commit</th><th>Triggerer</th><th>Created</th></tr></thead><tbody>${deployments.map((deployment) => {
        const user = deployment.user_id === null ? undefined : relations.users.get(Number(deployment.user_id));
        return html`<tr><td>#${deployment.iid}</td><td>${deployment.status}</td><td><code>${deployment.ref}</code></td><td><code>${deployment.sha.slice(0, 8)}</code></td><td>${user ? html`<a href="/${user.username}">${user.name}</a>` : ''}</td><td>${isoTime(deployment.created_at)}</td></tr>`;
      })}</tbody></table>`
    : html`<p class="muted">No deployments yet.</p>`
}`;
  return page({ title: `${env.name} · Environments · ${access.project.name}`, heading: html`<h1>${env.name}</h1>`, body, sidebar: projectSidebar(access, 'environments') });
}

/** Stop or delete: the actions decide by stop_environment and destroy_environment, as the API's do. */
export async function handleEnvironmentPost(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const env = await environmentOf(context, access);
  const principal = { user: context.user, scopes: ['api'], via: 'session' as const, tokenId: null };
  const list = `/${access.project.full_path}/-/environments`;
  if (context.form.action === 'delete') {
    await deleteEnvironment(context.deps, principal, { access, environmentId: Number(env.id) });
    return redirect(`${list}?scope=stopped`, `Environment ${env.name} was deleted.`);
  }
  if (!canOnProject(access, 'stop_environment')) throw new ForbiddenError();
  const stopped = await stopEnvironment(context.deps, principal, { access, environmentId: Number(env.id) });
  return redirect(`${list}/${Number(env.id)}`, stopped.state === 'stopped' ? `Environment ${env.name} was stopped.` : `Environment ${env.name} was not stopped.`);
}
