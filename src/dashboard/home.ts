// The landing page: the signed-in user's projects.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { visibleProjectsQuery } from '../accounts/api.js';
import { html } from '../platform/web/html.js';
import { pageRoute } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';

export function homeRoutes(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/', ability: { instance: 'log_in' },
    handler: async ({ user }) => {
      const projects = await visibleProjectsQuery(deps, user, { membership: true, orderBy: 'last_activity_at' }).limit(50).execute();
      return page({
        title: 'Your projects',
        body: projects.length
          ? html`<table><thead><tr><th>Project</th><th>Visibility</th></tr></thead><tbody>${projects.map(
              (project) => html`<tr><td><a href="/${project.full_path}/-/alert_management">${project.full_path}</a></td><td>${project.visibility}</td></tr>`,
            )}</tbody></table>`
          : html`<p class="muted">You are not a member of any project yet. Create one with <code>POST /api/v4/projects</code>.</p>`,
      });
    },
  });
}
