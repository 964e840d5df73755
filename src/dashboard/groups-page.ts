// Your groups (GitLab's Dashboard › Groups, /dashboard/groups, Shift+G): the groups the signed-in user
// is a member of and the subgroups under them, by full path so a subgroup follows its parent, each
// with the user's role there, pages of 20.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { memberGroupsWithLevels } from '../accounts/api.js';
import { ROLE_NAMES } from '../platform/auth/access-levels.js';
import { html } from '../platform/web/html.js';
import { pageRoute } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';
import { PER_PAGE, pageNumberOf, pagination } from './pagination.js';

export function groupsPageRoutes(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/dashboard/groups', ability: { instance: 'log_in' },
    handler: async ({ user, query }) => {
      const number = pageNumberOf(query);
      const rows = await memberGroupsWithLevels(deps.db, user, deps.clock.now(), PER_PAGE + 1, (number - 1) * PER_PAGE);
      const shown = rows.slice(0, PER_PAGE);
      const body = html`<div class="actions"><a class="button" href="/groups/new">New group</a> <a href="/explore/groups">Explore groups</a></div>${
        shown.length
          ? html`<table id="your-groups"><thead><tr><th>Group</th><th class="wide-only">Visibility</th><th>Your role</th></tr></thead><tbody>${shown.map(
              ({ group, level }) => html`<tr data-group="${group.full_path}"><td><a href="/groups/${group.full_path}">${group.name}</a> <span class="muted">${group.full_path}</span></td><td class="wide-only">${group.visibility}</td><td>${ROLE_NAMES[level] ?? ''}</td></tr>`,
            )}</tbody></table>`
          : number > 1
            ? html`<p class="empty">No more groups. <a href="/dashboard/groups">Back to the first page</a>.</p>`
            : html`<div class="empty"><p>You are not a member of any group yet.</p><p>A group gathers projects and the people who work on them, with one set of members for all of them.</p><p><a class="button" href="/groups/new">Create a group</a></p><p>Or <a href="/explore/groups">explore the groups</a> shared on this server and ask to join one.</p></div>`
      }${pagination(number, rows.length > PER_PAGE, (n) => (n > 1 ? `/dashboard/groups?page=${n}` : '/dashboard/groups'))}`;
      return page({ title: 'Your groups', body });
    },
  });
}
