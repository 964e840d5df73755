// Wikis (issue 38): each project's wiki, kept in its `<project>.wiki.git` repository (repositories/
// wiki-repository.ts): the API and the pages.
import type { Feature } from '../platform/feature.js';
import { wikiRoutes } from './routes.js';
import { wikiPages } from './pages.js';

export const wikisFeature: Feature = {
  name: 'wikis',
  routes(app, deps) {
    wikiRoutes(app, deps);
    wikiPages(app, deps);
  },
};
