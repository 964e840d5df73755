// Project topics (issue 38): the /topics API, topic avatars, and the links projects' `topics` make
// (registered on accounts' hooks, which call them in the project's writing transaction).
import type { Feature } from '../platform/feature.js';
import { accountHooks } from '../accounts/api.js';
import { topicRoutes } from './routes.js';
import { topicAvatarRoute } from './avatar-route.js';
import { linkTopics } from './link-topics.js';

export const topicsFeature: Feature = {
  name: 'topics',
  setup(deps) {
    accountHooks(deps).linkTopics = (executor, projectId, names) => linkTopics(executor, projectId, names, deps.clock.now());
  },
  routes(app, deps) {
    topicRoutes(app, deps);
    topicAvatarRoute(app, deps);
  },
};
