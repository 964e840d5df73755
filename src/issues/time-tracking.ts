// Time tracking of issues (GitLab's TimeTrackingEndpoints, doc/api/issues.md "Time tracking"): the
// shared routes of src/time-tracking with what is an issue's own — found as the caller may read it
// (a confidential one stays 404), its system notes and its update event (the Issue Hook).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { timeTrackingRoutes, type TimeTrackable } from '../time-tracking/api.js';
import { findReadableIssue, type PolicyIssue } from './finder.js';
import { writeSystemNote } from './system-notes.js';

type TrackedIssue = TimeTrackable & { row: PolicyIssue };

export function issueTimeTrackingRoutes(app: FastifyInstance, deps: Deps): void {
  timeTrackingRoutes<TrackedIssue>(app, deps, {
    segment: 'issues', iidKey: 'issue_iid', noun: 'an issue', tags: ['issues'],
    read: 'read_issue', admin: 'admin_issue',
    table: 'issues', column: 'issue_id',
    load: async (_deps, access, iid) => {
      const row = await findReadableIssue(deps, access, iid);
      return { id: Number(row.id), timeEstimate: Number(row.time_estimate ?? 0), updatedAt: Number(row.updated_at), row };
    },
    systemNote: (trx, _deps, item, authorId, body) => writeSystemNote(trx, deps, Number(item.row.project_id), item.id, authorId, body),
    publish: (trx, _deps, item, actorId, change) =>
      deps.domainEvents.publish(trx, { kind: 'issue.updated', projectId: Number(item.row.project_id), actorId, issueId: item.id, ...change }),
  });
}
