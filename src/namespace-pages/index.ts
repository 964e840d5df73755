// The pages at a namespace's own path: a project's overview, a group's page, a user's profile.
// A feature of its own because it composes several (accounts, events, repositories, Markdown) that
// must not depend on each other; registered last (features.ts), as it takes what no other route took.
import type { Feature } from '../platform/feature.js';
import { namespacedPage } from '../platform/web/page-route.js';
import { GROUP_PATTERN, renderGroup } from './group-page.js';
import { PATH_PATTERN, renderPath } from './path-page.js';

export const namespacePagesFeature: Feature = {
  name: 'namespace-pages',
  routes(app, deps) {
    namespacedPage(app, deps, { method: 'GET', pattern: GROUP_PATTERN, ability: { group: 'read_group' }, auth: 'optional', handler: async (context) => renderGroup(context, await context.group()) });
    // A project, a group or a user: which one is known only by looking, so the page asks each one's
    // finder with its own ability (a project's read_project, a group's read_group) in turn.
    namespacedPage(app, deps, { method: 'GET', pattern: PATH_PATTERN, ability: { instance: 'read_instance' }, auth: 'optional', handler: (context) => renderPath(deps, context) });
  },
};
