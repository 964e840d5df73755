// The activity pages: a project's (`/<project>/activity`, GitLab's Project › Activity) and the
// signed-in user's projects' (`/dashboard/activity`), with GitLab's event filter tabs.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { html } from '../../platform/web/html.js';
import { namespacedPage, pageRoute, type PageContext } from '../../platform/web/page-route.js';
import { page } from '../../platform/web/page.js';
import { groupSidebar, projectSidebar } from '../../platform/web/project-nav.js';
import { groupAndDescendantIds } from '../../labels/api.js';
import { eventAccess } from '../visibility.js';
import type { EventSubject } from '../finder.js';
import { ACTIVITY_FILTERS, activityTabs, renderActivity } from './activity-list.js';

export const PROJECT_ACTIVITY_PATTERN = /^(?<path>(?:(?!\/-\/).)+?)\/activity$/;
export const GROUP_ACTIVITY_PATTERN = /^groups\/(?<path>.+?)\/-\/activity$/;
const PER_PAGE = 20;

async function activityBody(context: PageContext, base: string, subject: EventSubject, showProject: boolean) {
  const filter = context.query.event_filter in ACTIVITY_FILTERS ? context.query.event_filter : 'all';
  const pageNumber = Math.max(1, Math.min(500, Number.parseInt(context.query.page ?? '1', 10) || 1));
  const { list, more } = await renderActivity(context.deps, context.user ?? null, subject, { filter, limit: PER_PAGE, offset: (pageNumber - 1) * PER_PAGE, showProject });
  const link = (n: number) => `${base}?event_filter=${filter}&page=${n}`;
  return html`${activityTabs(base, filter)}${list}<nav class="pagination" aria-label="Pages">${pageNumber > 1 ? html`<a href="${link(pageNumber - 1)}" rel="prev">Newer</a>` : ''}${more ? html`<a href="${link(pageNumber + 1)}" rel="next">Older</a>` : ''}</nav>`;
}

export function activityPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/dashboard/activity', ability: { instance: 'log_in' },
    handler: async (context) => page({ title: 'Activity', body: await activityBody(context, '/dashboard/activity', { memberOf: true }, true) }),
  });
  namespacedPage(app, deps, {
    method: 'GET', pattern: PROJECT_ACTIVITY_PATTERN, ability: { project: 'read_events' }, auth: 'optional',
    handler: async (context) => {
      const access = await context.project();
      const base = `/${access.project.full_path}/activity`;
      return page({ title: `Activity · ${access.project.name}`, heading: html`<h1>Activity</h1>`, body: await activityBody(context, base, { project: Number(access.project.id), access: eventAccess(access) }, false), sidebar: projectSidebar(access, 'activity') });
    },
  });
  // A group's activity (GitLab's Group › Activity): the events of its and its subgroups' projects,
  // each only if the viewer could see it anywhere else (the same rules as a user's profile activity).
  namespacedPage(app, deps, {
    method: 'GET', pattern: GROUP_ACTIVITY_PATTERN, ability: { group: 'read_group' }, auth: 'optional',
    handler: async (context) => {
      const access = await context.group();
      const base = `/groups/${access.group.full_path}/-/activity`;
      const namespaces = await groupAndDescendantIds(deps.db, Number(access.group.id));
      return page({ title: `Activity · ${access.group.name}`, heading: html`<h1>Activity</h1>`, body: await activityBody(context, base, { namespaces }, true), sidebar: groupSidebar(access, 'activity') });
    },
  });
}
