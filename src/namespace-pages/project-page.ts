// A project's overview at its own path (GitLab's project page): description as Markdown, visibility,
// the HTTP clone URL with a copy button, the default branch's README, and recent activity.
import { html, raw } from '../platform/web/html.js';
import type { PageContext } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';
import { projectSidebar } from '../platform/web/project-nav.js';
import { canOnProject } from '../platform/auth/policies/policy.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { renderGitlabMarkdown, renderMarkup } from '../markdown/api.js';
import { findReadme } from '../repositories/api.js';
import { eventAccess, renderActivity } from '../events/api.js';
import { projectBadgesHtml } from '../badges/api.js';
import { forkedFromLine } from './forked-from.js';
import { projectRequestAccessHtml } from '../accounts/api.js';

export async function renderProjectOverview(context: PageContext, access: ProjectAccess) {
  const { deps } = context;
  const { project } = access;
  const base = `/${project.full_path}`;
  const cloneUrl = `${deps.config.baseUrl}/${project.full_path}.git`;
  const mayReadCode = canOnProject(access, 'download_code');
  const [description, readme, activity, forkedFrom, badges, requestAccess] = await Promise.all([
    project.description ? renderGitlabMarkdown(deps, project.description, { project: access }) : Promise.resolve(''),
    mayReadCode ? findReadme(deps, access) : Promise.resolve(null),
    canOnProject(access, 'read_events') ? renderActivity(deps, context.user ?? null, { project: Number(project.id), access: eventAccess(access) }, { limit: 10 }) : Promise.resolve(null),
    forkedFromLine(deps, context.user ?? null, project),
    projectBadgesHtml(deps, project),
    projectRequestAccessHtml(context, access),
  ]);
  const readmeHtml = readme ? (readme.format ? raw(await renderMarkup(deps, readme.format, readme.text, { project: access, relativeLinks: readme.relativeLinks })) : html`<pre>${readme.text}</pre>`) : null;
  const body = html`${forkedFrom}
<p class="project-meta"><span class="badge visibility">${project.visibility[0].toUpperCase() + project.visibility.slice(1)}</span> <span class="muted">Project ID: ${Number(project.id)}</span>${context.user && canOnProject(access, 'fork_project') ? html` <a class="button secondary" id="fork-project" href="${base}/-/forks/new">Fork</a> <span class="muted">Forks: ${Number(project.forks_count ?? 0)}</span>` : ''} ${requestAccess}</p>
${description ? html`<div class="markdown description">${raw(description)}</div>` : ''}
${badges ?? ''}
${mayReadCode ? html`<div class="clone"><label for="clone-url">Clone with HTTP</label><input type="text" id="clone-url" value="${cloneUrl}" readonly><button type="button" class="secondary" data-copy="clone-url">Copy</button></div>` : ''}
${
  readme && readmeHtml
    ? html`<section class="readme" aria-labelledby="readme-title"><h2 id="readme-title">${readme.path}</h2><div class="markdown">${readmeHtml}</div></section>`
    : mayReadCode
      ? html`<p class="empty">The repository has no README yet. Push one: <code>git clone ${cloneUrl}</code></p>`
      : ''
}
${activity ? html`<section aria-labelledby="activity-title"><h2 id="activity-title">Recent activity</h2>${activity.list}<p><a href="${base}/activity">All activity</a></p></section>` : ''}`;
  return page({ title: project.name, heading: html`<h1>${project.name}</h1>`, body, sidebar: projectSidebar(access, 'overview') });
}
