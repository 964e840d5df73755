// Broadcast messages (issue 36): GitLab's /broadcast_messages API, the admin page that manages them,
// and the banners and notifications every page shows while a message is active.
import type { Feature } from '../platform/feature.js';
import { broadcastMessagesRoutes } from './routes.js';
import { broadcastMessagesPages } from './pages.js';
import { broadcastsFor } from './banner.js';

export const broadcastMessagesFeature: Feature = {
  name: 'broadcast-messages',
  setup(deps) {
    deps.auth.broadcastMessages = (view) => broadcastsFor(deps, view);
  },
  routes(app, deps) {
    broadcastMessagesRoutes(app, deps);
    broadcastMessagesPages(app, deps);
  },
};
