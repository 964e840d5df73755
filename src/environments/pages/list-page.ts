// A project's environments (GitLab's Operate › Environments): Available and Stopped tabs with counts,
// each environment's last deployment, its external URL, and stop or delete by the abilities.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { isoTime } from '../../platform/clock.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { environmentsQuery, lastSuccessfulDeployment } from '../finder.js';
import { environmentActions, externalLink } from './shared.js';

export const ENVIRONMENTS_PATTERN = /^(?<path>.+?)\/-\/environments$/;

export async function renderEnvironments(context: PageContext, access: ProjectAccess) {
  const { deps } = context;
  const scope = context.query.scope === 'stopped' ? 'stopped' : 'available';
  const projectId = Number(access.project.id);
  const [available, stopped] = await Promise.all(['available', 'stopped'].map((state) => environmentsQuery(deps.db, projectId, { states: state as 'available' }).limit(500).execute()));
  const shown = scope === 'stopped' ? stopped : available;
  const lasts = await Promise.all(shown.map((env) => lastSuccessfulDeployment(deps.db, Number(env.id))));
  const base = `/${access.project.full_path}/-/environments`;
  const body = html`
<nav class="tabs" aria-label="Environments by state">
  <a href="${base}?scope=available" class="${scope === 'available' ? 'active' : ''}" data-tab="available"${scope === 'available' ? html` aria-current="page"` : ''}>Available <span class="badge">${available.length}</span></a>
  <a href="${base}?scope=stopped" class="${scope === 'stopped' ? 'active' : ''}" data-tab="stopped"${scope === 'stopped' ? html` aria-current="page"` : ''}>Stopped <span class="badge">${stopped.length}</span></a>
</nav>
${
  shown.length
    ? html`<table id="environments"><thead><tr><th>Environment</th><th>Tier</th><th>Last deployment</th><th>External URL</th><th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${shown.map((env, index) => {
        const last = lasts[index];
        return html`<tr data-environment="${env.name}"><td><a href="${base}/${Number(env.id)}">${env.name}</a></td><td>${env.tier}</td><td>${
          last ? html`#${last.deployment.iid} <code>${last.deployment.ref}</code> ${last.user ? html`by <a href="/${last.user.username}">${last.user.name}</a>` : ''} <span class="muted">${isoTime(last.deployment.created_at)?.slice(0, 16).replace('T', ' ')}</span>` : html`<span class="muted">Never deployed</span>`
        }</td><td>${externalLink(env)}</td><td>${environmentActions(context, access, env)}</td></tr>`;
      })}</tbody></table>`
    : html`<p class="empty">${scope === 'stopped' ? 'No stopped environments.' : 'No environments yet. Deployments create them (POST /api/v4/projects/:id/deployments), or POST /api/v4/projects/:id/environments.'}</p>`
}`;
  return page({ title: `Environments · ${access.project.name}`, heading: html`<h1>Environments</h1>`, body, sidebar: projectSidebar(access, 'environments') });
}
