// The admin area's projects and groups (GitLab's Admin::ProjectsController and GroupsController
// index): every one on the instance whatever its visibility, searched by name or path, newest first,
// 50 a page, each linked to its own page (where an administrator may change or delete it).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { html } from '../platform/web/html.js';
import { pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, type PageOutcome } from '../platform/web/page.js';
import { containsPattern } from '../platform/db/like.js';
import { localTime } from '../platform/web/local-time.js';
import { nameOrPathLike } from './finders-queries.js';

const PER_PAGE = 50;

interface Listed {
  id: number;
  name: string;
  full_path: string;
  visibility: string;
  created_at: number;
}

function pageNumberOf(context: PageContext): number {
  return Math.min(Math.max(Number.parseInt(context.query.page ?? '1', 10) || 1, 1), 10_000);
}

async function listing(context: PageContext, what: 'projects' | 'groups', rows: Listed[], search: string, pageNumber: number): Promise<PageOutcome> {
  const shown = rows.slice(0, PER_PAGE);
  const href = (n: number) => `/admin/${what}?${new URLSearchParams({ ...(search ? { search } : {}), page: String(n) }).toString()}`;
  const linkOf = (row: Listed) => (what === 'groups' ? `/groups/${row.full_path}` : `/${row.full_path}`);
  const viewer = await context.deps.db.selectFrom('users').select('time_zone').where('id', '=', context.user.id).executeTakeFirst();
  const zone = viewer?.time_zone || 'UTC';
  return page({
    title: what === 'groups' ? 'Groups' : 'Projects',
    body: html`
      <form method="get" action="/admin/${what}" role="search" class="inline">
        <label for="search">Search by name or path</label>
        <input type="search" id="search" name="search" value="${search}">
        <button type="submit">Search</button>
      </form>
      <p><a class="button" href="${what === 'groups' ? '/groups/new' : '/projects/new'}">New ${what === 'groups' ? 'group' : 'project'}</a></p>
      ${shown.length === 0
        ? html`<p class="muted">No ${what} match. Clear the search, or create one.</p>`
        : html`<table id="${what}"><thead><tr><th>Name</th><th>Path</th><th>Visibility</th><th>Created</th></tr></thead><tbody>${shown.map((row) => html`
          <tr><td><a href="${linkOf(row)}">${row.name}</a></td><td>${row.full_path}</td><td>${row.visibility}</td><td>${localTime(Number(row.created_at), zone)}</td></tr>`)}</tbody></table>`}
      <nav aria-label="Pages" class="pagination">
        ${pageNumber > 1 ? html`<a href="${href(pageNumber - 1)}" rel="prev">Previous</a>` : ''}
        ${rows.length > PER_PAGE ? html`<a href="${href(pageNumber + 1)}" rel="next">Next</a>` : ''}
      </nav>`,
  });
}

export function adminNamespacesPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/admin/projects', ability: { instance: 'admin_all_resources' },
    handler: async (context) => {
      const search = (context.query.search ?? '').slice(0, 200);
      const pageNumber = pageNumberOf(context);
      let query = deps.db.selectFrom('projects').select(['id', 'name', 'full_path', 'visibility', 'created_at']);
      if (search) query = query.where(nameOrPathLike(containsPattern(search)));
      const rows = await query.orderBy('id', 'desc').limit(PER_PAGE + 1).offset((pageNumber - 1) * PER_PAGE).execute();
      return listing(context, 'projects', rows, search, pageNumber);
    },
  });

  pageRoute(app, deps, {
    method: 'GET', url: '/admin/groups', ability: { instance: 'admin_all_resources' },
    handler: async (context) => {
      const search = (context.query.search ?? '').slice(0, 200);
      const pageNumber = pageNumberOf(context);
      let query = deps.db.selectFrom('namespaces').select(['id', 'name', 'full_path', 'visibility', 'created_at']).where('kind', '=', 'group');
      if (search) query = query.where(nameOrPathLike(containsPattern(search)));
      const rows = await query.orderBy('id', 'desc').limit(PER_PAGE + 1).offset((pageNumber - 1) * PER_PAGE).execute();
      return listing(context, 'groups', rows, search, pageNumber);
    },
  });
}
