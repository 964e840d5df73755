// Snippets (issue 38): personal snippets and project snippets, their API and pages.
import type { Feature } from '../platform/feature.js';
import { personalSnippetRoutes } from './personal-routes.js';
import { projectSnippetRoutes } from './project-routes.js';
import { snippetPages } from './pages.js';

export const snippetsFeature: Feature = {
  name: 'snippets',
  routes(app, deps) {
    personalSnippetRoutes(app, deps);
    projectSnippetRoutes(app, deps);
    snippetPages(app, deps);
  },
};
