// The state, milestone and label history of issues and merge requests (doc/api/resource_state_events.md,
// resource_milestone_events.md, resource_label_events.md; lib/api/resource_state_events.rb,
// resource_milestone_events.rb, resource_label_events.rb): list and get, for whoever reads the issue
// or merge request (signed in). A label event names a label deleted since as null, as GitLab does.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { ProjectAbility } from '../../platform/auth/policies/index.js';
import { apiRoute } from '../../platform/http/route.js';
import { p } from '../../platform/http/params.js';
import { isoTime } from '../../platform/clock.js';
import { userBasic } from '../../accounts/api.js';
import { usersById, type Users } from '../entities.js';
import type { Eventable } from './resource-events-queries.js';
import { labelBasicEntity, labelsByIds } from '../../labels/api.js';
import { findLabelEvent, findMilestoneEvent, findStateEvent, labelEventsQuery, milestoneEventsQuery, milestonesByIds, stateEventsQuery } from './resource-events-finder.js';

/** Which records have a history: issues or merge requests, found as the caller may read them. */
export interface EventableKind {
  type: Eventable['type'];
  /** The URL segment (`issues`, `merge_requests`). */
  segment: string;
  ability: ProjectAbility;
  /** The record by its iid, 404 when the caller cannot read it. */
  find(deps: Deps, access: ProjectAccess, iid: number): Promise<{ id: number }>;
}

interface EventRow {
  id: number;
  user_id: number | null;
  created_at: number;
  issue_id: number | null;
  merge_request_id: number | null;
}

function common(baseUrl: string, kind: EventableKind, event: EventRow, users: Users) {
  const user = event.user_id === null ? undefined : users.get(Number(event.user_id));
  return {
    id: Number(event.id),
    user: user ? userBasic(baseUrl, user) : null,
    created_at: isoTime(event.created_at),
    resource_type: kind.type,
    resource_id: Number(kind.type === 'Issue' ? event.issue_id : event.merge_request_id),
  };
}

export function resourceEventRoutes(app: FastifyInstance, deps: Deps, kind: EventableKind): void {
  const baseUrl = deps.config.baseUrl;
  const eventable = async (access: ProjectAccess, iid: number): Promise<Eventable> => ({ type: kind.type, id: Number((await kind.find(deps, access, iid)).id) });
  const presentStates = async (events: Array<EventRow & { state: string }>) => {
    const users = await usersById(deps.db, events.map((event) => event.user_id));
    return events.map((event) => ({ ...common(baseUrl, kind, event, users), state: event.state }));
  };
  const presentMilestones = async (events: Array<EventRow & { milestone_id: number | null; action: string; state: string }>) => {
    const [users, milestones] = await Promise.all([usersById(deps.db, events.map((event) => event.user_id)), milestonesByIds(deps, events.map((event) => event.milestone_id))]);
    return events.map((event) => ({
      ...common(baseUrl, kind, event, users),
      milestone: event.milestone_id === null ? null : (milestones.get(Number(event.milestone_id)) ?? null),
      action: event.action,
      state: event.state,
    }));
  };
  const presentLabels = async (events: Array<EventRow & { label_id: number | null; action: string }>) => {
    const labelIds = [...new Set(events.map((event) => event.label_id).filter((id): id is number => id !== null).map(Number))];
    const [users, labels] = await Promise.all([usersById(deps.db, events.map((event) => event.user_id)), labelsByIds(deps, labelIds)]);
    return events.map((event) => {
      const label = event.label_id === null ? undefined : labels.find((row) => Number(row.id) === Number(event.label_id));
      return { ...common(baseUrl, kind, event, users), label: label ? labelBasicEntity(label) : null, action: event.action };
    });
  };
  const ability = { project: kind.ability };
  const params = { id: p.string.required(), eventable_id: p.integer.required() };
  const one = { ...params, event_id: p.integer.required() };
  const name = kind.type === 'Issue' ? 'an issue' : 'a merge request';

  const states = `/projects/:id/${kind.segment}/:eventable_id/resource_state_events`;
  apiRoute(app, deps, {
    method: 'GET', url: states, summary: `The state history of ${name}`, tags: ['resource_state_events'], paginated: true, ability, params,
    handler: async ({ params, project, paginate }) => presentStates(await paginate(stateEventsQuery(deps, await eventable(await project(), params.eventable_id)))),
  });
  apiRoute(app, deps, {
    method: 'GET', url: `${states}/:event_id`, summary: `One state event of ${name}`, tags: ['resource_state_events'], ability, params: one,
    handler: async ({ params, project }) => (await presentStates([await findStateEvent(deps, await eventable(await project(), params.eventable_id), params.event_id)]))[0],
  });

  const milestones = `/projects/:id/${kind.segment}/:eventable_id/resource_milestone_events`;
  apiRoute(app, deps, {
    method: 'GET', url: milestones, summary: `The milestone history of ${name}`, tags: ['resource_milestone_events'], paginated: true, ability, params,
    handler: async ({ params, project, paginate }) => presentMilestones(await paginate(milestoneEventsQuery(deps, await eventable(await project(), params.eventable_id)))),
  });
  apiRoute(app, deps, {
    method: 'GET', url: `${milestones}/:event_id`, summary: `One milestone event of ${name}`, tags: ['resource_milestone_events'], ability, params: one,
    handler: async ({ params, project }) => (await presentMilestones([await findMilestoneEvent(deps, await eventable(await project(), params.eventable_id), params.event_id)]))[0],
  });

  const labels = `/projects/:id/${kind.segment}/:eventable_id/resource_label_events`;
  apiRoute(app, deps, {
    method: 'GET', url: labels, summary: `The label history of ${name}`, tags: ['resource_label_events'], paginated: true, ability, params,
    handler: async ({ params, project, paginate }) => presentLabels(await paginate(labelEventsQuery(deps, await eventable(await project(), params.eventable_id)))),
  });
  apiRoute(app, deps, {
    method: 'GET', url: `${labels}/:event_id`, summary: `One label event of ${name}`, tags: ['resource_label_events'], ability, params: one,
    handler: async ({ params, project }) => (await presentLabels([await findLabelEvent(deps, await eventable(await project(), params.eventable_id), params.event_id)]))[0],
  });
}
