// The landing page: the signed-in user's projects, searchable from the top bar's box.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { visibleProjectsQuery } from '../accounts/api.js';
import { html } from '../platform/web/html.js';
import { pageRoute } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';

export function homeRoutes(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/', ability: { instance: 'log_in' },
    handler: async ({ user, query }) => {
      const search = typeof query.search === 'string' ? query.search.trim().slice(0, 255) : '';
      // With a search, every project the user may see (the top bar's box); without, their own.
      const projects = await visibleProjectsQuery(deps, user, search ? { search, orderBy: 'last_activity_at' } : { membership: true, orderBy: 'last_activity_at' }).limit(50).execute();
      const empty = search
        ? html`<p class="empty">No projects match “${search}”.</p>`
        : html`<div class="empty"><p>You are not a member of any project yet.</p><p><a class="button" href="/projects/new">Create a project</a> <a class="button secondary" href="/groups/new">Create a group</a></p><p>Or <a href="/explore/projects">explore the projects</a> shared on this server.</p></div>`;
      return page({
        title: search ? `Projects matching “${search}”` : 'Your projects',
        body: html`<div class="actions"><a class="button" href="/projects/new">New project</a></div>${
          projects.length
            ? html`<table id="projects"><thead><tr><th>Project</th><th>Visibility</th></tr></thead><tbody>${projects.map(
                (project) => html`<tr><td><a href="/${project.full_path}">${project.full_path}</a>${project.description ? html` <span class="muted">${project.description}</span>` : ''}</td><td>${project.visibility}</td></tr>`,
              )}</tbody></table>`
            : empty
        }`,
      });
    },
  });
}
