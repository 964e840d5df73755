// The stylesheet every page loads (layout.ts links it). Part of the page framework, so it is
// registered as a feature of the platform, as housekeeping is.
import type { Feature } from '../feature.js';
import { STYLESHEET } from './layout.js';
import { SCRIPT } from './scripts.js';

export const webAssetsFeature: Feature = {
  name: 'web-assets',
  routes(app) {
    app.get('/-/assets/kiln.css', { config: { ability: { credential: 'none' } } }, async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLESHEET));
    app.get('/-/assets/kiln.js', { config: { ability: { credential: 'none' } } }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(SCRIPT));
  },
};
