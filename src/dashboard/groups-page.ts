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
      // GitLab's `filter`: a name or path the groups' own contains.
      const filter = (query.filter ?? '').trim();
      const rows = await memberGroupsWithLevels(deps.db, user, deps.clock.now(), PER_PAGE + 1, (number - 1) * PER_PAGE, filter || undefined);
      const shown = rows.slice(0, PER_PAGE);
      const link = (n: number) => {
        const params = new URLSearchParams({ ...(filter ? { filter } : {}), ...(n > 1 ? { page: String(n) } : {}) }).toString();
        return params ? `/dashboard/groups?${params}` : '/dashboard/groups';
      };
      const form = html`<form method="get" action="/dashboard/groups" role="search"><label class="visually-hidden" for="group-filter">Filter by name</label><input type="search" id="group-filter" name="filter" value="${filter}" placeholder="Filter by name"> <button type="submit" class="secondary">Filter</button></form>`;
      const body = html`<div class="actions"><a class="button" href="/groups/new">New group</a> <a href="/explore/groups">Explore groups</a></div>${form}${
        filter && !shown.length && number === 1
          ? html`<p class="empty">None of your groups matches "${filter}". <a href="/dashboard/groups">Show all your groups</a>.</p>`
          : shown.length
          ? html`<table id="your-groups"><thead><tr><th>Group</th><th class="wide-only">Visibility</th><th>Your role</th></tr></thead><tbody>${shown.map(
              // The membership's role, not the access an administrator has everywhere (GitLab shows an admin's real role).
              ({ group, memberLevel }) => html`<tr data-group="${group.full_path}"><td><a href="/groups/${group.full_path}">${group.name}</a> <span class="muted">${group.full_path}</span></td><td class="wide-only">${group.visibility}</td><td>${ROLE_NAMES[memberLevel] ?? ''}</td></tr>`,
            )}</tbody></table>`
          : number > 1
            ? html`<p class="empty">No more groups. <a href="/dashboard/groups">Back to the first page</a>.</p>`
            : html`<div class="empty"><p>You are not a member of any group yet.</p><p>A group gathers projects and the people who work on them, with one set of members for all of them.</p><p><a class="button" href="/groups/new">Create a group</a></p><p>Or <a href="/explore/groups">explore the groups</a> shared on this server and ask to join one.</p></div>`
      }${pagination(number, rows.length > PER_PAGE, link)}`;
      return page({ title: 'Your groups', body });
    },
  });
}
