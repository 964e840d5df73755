// Releases (issue 38): the API of releases and their asset links, their pages, and the Release Hook
// (webhooks build it).
import type { Feature } from '../platform/feature.js';
import { releaseRoutes } from './routes.js';
import { linkRoutes } from './link-routes.js';
import { releasePages } from './pages.js';

export const releasesFeature: Feature = {
  name: 'releases',
  routes(app, deps) {
    releaseRoutes(app, deps);
    linkRoutes(app, deps);
    releasePages(app, deps);
  },
};
