// The merge requests feature's HTTP surface, one file per resource.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { mergeRequestRoutes } from './mr-routes.js';
import { mergeRequestListRoutes } from './list-routes.js';
import { mergeRequestDiffRoutes } from './diff-routes.js';
import { mergeRequestMergeRoutes } from './merge-routes.js';
import { mergeRequestClosingRoutes } from './closing-routes.js';
import { mergeRequestTimeTrackingRoutes } from './time-tracking.js';
import { reviewRoutes } from './review/index.js';
import { resourceEventRoutes } from '../issues/api.js';
import { findMergeRequest } from './finder.js';

export function mergeRequestsRoutes(app: FastifyInstance, deps: Deps): void {
  mergeRequestListRoutes(app, deps);
  mergeRequestRoutes(app, deps);
  mergeRequestDiffRoutes(app, deps);
  mergeRequestMergeRoutes(app, deps);
  mergeRequestClosingRoutes(app, deps);
  mergeRequestTimeTrackingRoutes(app, deps);
  reviewRoutes(app, deps);
  // Issue 38: state and milestone history (GitLab's resource_state_events, resource_milestone_events).
  resourceEventRoutes(app, deps, { type: 'MergeRequest', segment: 'merge_requests', ability: 'read_merge_request', find: (deps, access, iid) => findMergeRequest(deps.db, Number(access.project.id), iid) });
}
