// An issue's label history (doc/api/resource_label_events.md; lib/api/resource_label_events.rb):
// every label added or removed, oldest first, for whoever reads the issue (signed in).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { labelsByIds } from '../labels/api.js';
import { labelEventEntity, usersById } from './entities.js';
import { findReadableIssue } from './finder.js';
import { findLabelEvent, labelEventsQuery } from './label-events-finder.js';

const TAGS = ['resource_label_events'];
const base = '/projects/:id/issues/:eventable_id/resource_label_events';

export function labelEventRoutes(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.baseUrl;
  const present = async (events: Array<{ id: number; issue_id: number; label_id: number | null; user_id: number | null; action: string; created_at: number }>) => {
    const labelIds = [...new Set(events.map((event) => event.label_id).filter((id) => id !== null).map(Number))];
    const labels = await labelsByIds(deps, labelIds);
    const users = await usersById(deps.db, events.map((event) => event.user_id));
    return events.map((event) => labelEventEntity(baseUrl, event, labels.find((label) => Number(label.id) === Number(event.label_id)), users));
  };

  apiRoute(app, deps, {
    method: 'GET', url: base, summary: "An issue's label history", tags: TAGS, paginated: true,
    ability: { project: 'read_issue' },
    params: { id: p.string.required(), eventable_id: p.integer.required() },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.eventable_id);
      return present(await paginate(labelEventsQuery(deps, Number(issue.id))));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:event_id`, summary: 'One label event of an issue', tags: TAGS,
    ability: { project: 'read_issue' },
    params: { id: p.string.required(), eventable_id: p.integer.required(), event_id: p.integer.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.eventable_id);
      return (await present([await findLabelEvent(deps, Number(issue.id), params.event_id)]))[0];
    },
  });
}
