// Explore (GitLab's /explore): the projects and groups a visitor may see, for anonymous visitors and
// signed-in users alike (and the topics projects list); linked from the top bar and the sign-in page.
import type { Feature } from '../platform/feature.js';
import { pageRoute } from '../platform/web/page-route.js';
import { redirect } from '../platform/web/page.js';
import { renderExploreProjects, type ProjectsTab } from './projects-page.js';
import { renderExploreGroups } from './groups-page.js';
import { renderExploreTopics, renderTopic } from './topics-page.js';

const ANYONE = { instance: 'read_instance' } as const;

export const exploreFeature: Feature = {
  name: 'explore',
  routes(app, deps) {
    pageRoute(app, deps, { method: 'GET', url: '/explore', ability: ANYONE, auth: 'optional', handler: async () => redirect('/explore/projects', null, 302) });
    const tabs: Array<[string, ProjectsTab]> = [['/explore/projects', 'all'], ['/explore/projects/starred', 'starred'], ['/explore/projects/trending', 'trending']];
    for (const [url, tab] of tabs) pageRoute(app, deps, { method: 'GET', url, ability: ANYONE, auth: 'optional', handler: (context) => renderExploreProjects(context, tab) });
    pageRoute(app, deps, { method: 'GET', url: '/explore/projects/topics', ability: ANYONE, auth: 'optional', handler: renderExploreTopics });
    pageRoute(app, deps, { method: 'GET', url: '/explore/projects/topics/:topic_name', ability: ANYONE, auth: 'optional', handler: renderTopic });
    pageRoute(app, deps, { method: 'GET', url: '/explore/groups', ability: ANYONE, auth: 'optional', handler: renderExploreGroups });
  },
};
