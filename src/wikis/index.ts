// Wikis (issue 38): each project's wiki, kept in its `<project>.wiki.git` repository (repositories/
// wiki-repository.ts): the API and the pages.
import type { Feature } from '../platform/feature.js';
import { wikiRoutes } from './routes.js';
import { wikiPages } from './pages.js';
import { repositoryHooks } from '../repositories/api.js';
import { publishPushedPages } from './pushed-pages.js';

export const wikisFeature: Feature = {
  name: 'wikis',
  setup(deps) {
    // A push to a wiki tells of the pages it changed as the API's writes do.
    repositoryHooks(deps).wikiPushed = (owner, actorId, before, after) => publishPushedPages(deps, owner, actorId, before, after);
  },
  routes(app, deps) {
    wikiRoutes(app, deps);
    wikiPages(app, deps);
  },
};
