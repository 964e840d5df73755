// Review of merge requests (issue 34): comments and threads through the notes machinery of issues
// (a merge request is a kind of noteable), diff notes with GitLab's positions traced across pushes,
// resolvable threads, suggestions applied as commits, draft notes published at once, award emoji.
// Plugged into merge requests by their hooks (../hooks.ts) and registered by the feature's index.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { awardEmojiRoutes, discussionRoutes, noteRoutes } from '../../issues/api.js';
import { mergeRequestHooks } from '../hooks.js';
import { mergeRequestNoteableKind } from './merge-request-noteable.js';
import { unresolvedThreads } from './unresolved-threads.js';
import { enqueue } from '../../platform/jobs/queue.js';
import { TRACE_JOB, traceDiffThreadsJob } from './trace-diff-threads.js';
import { draftNoteRoutes } from './draft-notes/draft-note-routes.js';
import { suggestionRoutes } from './suggestions/suggestion-routes.js';

export function reviewSetup(deps: Deps): void {
  const hooks = mergeRequestHooks(deps);
  hooks.unresolvedThreads = (db, ids) => unresolvedThreads(db, ids);
  hooks.versionRecorded = (trx, event) => enqueue(trx, deps.clock, TRACE_JOB, { ...event });
}

export const reviewJobs = {
  [TRACE_JOB]: traceDiffThreadsJob,
};

export function reviewRoutes(app: FastifyInstance, deps: Deps): void {
  noteRoutes(app, deps, mergeRequestNoteableKind);
  discussionRoutes(app, deps, mergeRequestNoteableKind);
  awardEmojiRoutes(app, deps, mergeRequestNoteableKind);
  draftNoteRoutes(app, deps);
  suggestionRoutes(app, deps);
}
