// Time tracking of merge requests (GitLab's TimeTrackingEndpoints, doc/api/merge_requests.md "Time
// tracking"): the shared routes of src/time-tracking with what is a merge request's own — how one
// is found, its system notes and its update event (the Merge Request Hook).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { timeTrackingRoutes, type TimeTrackable } from '../time-tracking/api.js';
import { findMergeRequest } from './finder.js';
import { addSystemNote } from './system-notes.js';
import { publishMergeRequestUpdate } from './publish-events.js';
import type { MergeRequestRow } from './rows.js';

type TrackedMergeRequest = TimeTrackable & { row: MergeRequestRow };

export function mergeRequestTimeTrackingRoutes(app: FastifyInstance, deps: Deps): void {
  timeTrackingRoutes<TrackedMergeRequest>(app, deps, {
    segment: 'merge_requests', iidKey: 'merge_request_iid', noun: 'a merge request', tags: ['merge_requests'],
    read: 'read_merge_request', admin: 'update_merge_request',
    table: 'merge_requests', column: 'merge_request_id',
    load: async (_deps, access, iid) => {
      const row = await findMergeRequest(deps.db, Number(access.project.id), iid);
      return { id: Number(row.id), timeEstimate: Number(row.time_estimate), updatedAt: Number(row.updated_at), row };
    },
    systemNote: async (trx, _deps, item, authorId, body, now) => {
      await addSystemNote(trx, item.row, authorId, body, now);
    },
    publish: (trx, _deps, item, actorId, change) => publishMergeRequestUpdate(deps, trx, item.row, actorId, change),
  });
}
