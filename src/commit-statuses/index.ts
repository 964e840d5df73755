// Commit statuses (issue 34): external CI reports on commits through GitLab's statuses API, kept as
// GitLab keeps them (generic builds in `external` pipelines), and merge requests follow their head
// pipeline (`head_pipeline`, only_allow_merge_if_pipeline_succeeds).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { Feature } from '../platform/feature.js';
import { commitStatusRoutes } from './routes.js';
import { commitBadges } from './commit-badges.js';
import { repositoryHooks } from '../repositories/api.js';

export const commitStatusesFeature: Feature = {
  name: 'commit-statuses',
  setup(deps) {
    // The commit list and the commit page show each commit's latest pipeline.
    repositoryHooks(deps).commitStatuses = (projectId, shas) => commitBadges(deps, projectId, shas);
  },
  routes(app: FastifyInstance, deps: Deps) {
    commitStatusRoutes(app, deps);
  },
};
