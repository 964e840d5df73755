// Snippets (issue 38): personal snippets and project snippets, their API and pages, each kept in a
// git repository of its own that clones over HTTP and SSH.
import type { Feature } from '../platform/feature.js';
import { personalSnippetRoutes } from './personal-routes.js';
import { projectSnippetRoutes } from './project-routes.js';
import { snippetPages } from './pages.js';
import { snippetGitRoutes, snippetSshRepository } from './git-routes.js';
import { repositoryHooks } from '../repositories/api.js';
import { discussionRoutes, noteRoutes } from '../issues/api.js';
import { snippetNoteableKind } from './snippet-noteable.js';
import { snippetStorageMoveRoutes } from './storage-move-routes.js';

export const snippetsFeature: Feature = {
  name: 'snippets',
  setup(deps) {
    // git over SSH reaches (and pushes to) a snippet's repository at the paths HTTP serves.
    repositoryHooks(deps).ownedRepository = (path) => snippetSshRepository(deps, path);
  },
  routes(app, deps) {
    personalSnippetRoutes(app, deps);
    projectSnippetRoutes(app, deps);
    snippetPages(app, deps);
    snippetGitRoutes(app, deps);
    snippetStorageMoveRoutes(app, deps);
    noteRoutes(app, deps, snippetNoteableKind);
    discussionRoutes(app, deps, snippetNoteableKind);
  },
};
