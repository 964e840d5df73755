// A group's page at /groups/<path> (GitLab's group overview): its subgroups and projects that the
// visitor may see, and a new project or subgroup for those who may create them.
import { html, raw } from '../platform/web/html.js';
import type { PageContext } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';
import { groupSidebar } from '../platform/web/project-nav.js';
import { canOnGroup } from '../platform/auth/policies/policy.js';
import type { GroupAccess } from '../platform/auth/subjects.js';
import { groupProjectsQuery, groupRequestAccessHtml, subgroupsQuery } from '../accounts/api.js';
import { renderGitlabMarkdown } from '../markdown/api.js';

export const GROUP_PATTERN = /^groups\/(?<path>(?:(?!\/-\/).)+?)\/?$/;

export async function renderGroup(context: PageContext, access: GroupAccess) {
  const { deps } = context;
  const { group } = access;
  const viewer = context.user ?? null;
  const [subgroups, projects, description, requestAccess] = await Promise.all([
    (await subgroupsQuery(deps, viewer, group, false, {})).limit(100).execute(),
    (await groupProjectsQuery(deps, viewer, group, { orderBy: 'name', sort: 'asc' })).limit(100).execute(),
    group.description ? renderGitlabMarkdown(deps, group.description) : Promise.resolve(''),
    groupRequestAccessHtml(context, access),
  ]);
  const body = html`
<p><span class="badge visibility">${group.visibility[0].toUpperCase() + group.visibility.slice(1)}</span> <span class="muted">Group ID: ${Number(group.id)}</span> ${requestAccess}</p>
${description ? html`<div class="markdown description">${raw(description)}</div>` : ''}
<div class="actions">
${canOnGroup(access, 'create_projects') ? html`<a class="button" href="/projects/new?namespace_id=${Number(group.id)}">New project</a>` : ''}
${canOnGroup(access, 'create_subgroup') ? html`<a class="button secondary" href="/groups/new?parent_id=${Number(group.id)}">New subgroup</a>` : ''}
</div>
<h2>Subgroups and projects</h2>
${
  subgroups.length + projects.length
    ? html`<table id="children"><thead><tr><th>Name</th><th>Kind</th><th>Visibility</th></tr></thead><tbody>
${subgroups.map((sub) => html`<tr><td><a href="/groups/${sub.full_path}">${sub.name}</a></td><td>Subgroup</td><td>${sub.visibility}</td></tr>`)}
${projects.map((project) => html`<tr><td><a href="/${project.full_path}">${project.name}</a>${project.description ? html` <span class="muted">${project.description}</span>` : ''}</td><td>Project</td><td>${project.visibility}</td></tr>`)}
</tbody></table>`
    : html`<p class="empty">This group has no subgroups or projects you can see.</p>`
}`;
  return page({ title: group.name, heading: html`<h1>${group.name}</h1>`, body, sidebar: groupSidebar(access, 'overview') });
}
