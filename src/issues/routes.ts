// The issues feature's HTTP surface, one file per resource.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { issueRoutes } from './issue-routes.js';
import { issueListRoutes } from './list-routes.js';
import { noteRoutes } from './note-routes.js';
import { discussionRoutes } from './discussion-routes.js';
import { issueNoteableKind } from './issue-noteable.js';
import { issueLinkRoutes } from './links/issue-link-routes.js';
import { resourceEventRoutes } from './resource-events/resource-event-routes.js';
import { findReadableIssue } from './finder.js';
import { awardEmojiRoutes } from './award-emoji/award-emoji-routes.js';
import { issueTimeTrackingRoutes } from './time-tracking.js';

export function issuesRoutes(app: FastifyInstance, deps: Deps): void {
  issueListRoutes(app, deps);
  issueRoutes(app, deps);
  noteRoutes(app, deps, issueNoteableKind);
  discussionRoutes(app, deps, issueNoteableKind);
  awardEmojiRoutes(app, deps, issueNoteableKind);
  issueLinkRoutes(app, deps);
  issueTimeTrackingRoutes(app, deps);
  resourceEventRoutes(app, deps, { type: 'Issue', segment: 'issues', ability: 'read_issue', find: findReadableIssue });
}
