// The raw statements that record state and milestone events: raw because a domain event's listener
// gets the producer's transaction as a `Tx`, which may be a group-commit work.
import { q, type Statement } from '../../platform/db/statements.js';

export type Eventable = { type: 'Issue'; id: number } | { type: 'MergeRequest'; id: number };

function columns(eventable: Eventable): [number | null, number | null] {
  return eventable.type === 'Issue' ? [eventable.id, null] : [null, eventable.id];
}

export function insertStateEvent(eventable: Eventable, userId: number | null, state: string, now: number): Statement {
  const [issueId, mergeRequestId] = columns(eventable);
  return q`insert into resource_state_events (issue_id, merge_request_id, user_id, state, created_at) values (${issueId}, ${mergeRequestId}, ${userId}, ${state}, ${now})`;
}

export function insertMilestoneEvent(eventable: Eventable, userId: number | null, milestoneId: number, action: 'add' | 'remove', state: string, now: number): Statement {
  const [issueId, mergeRequestId] = columns(eventable);
  return q`insert into resource_milestone_events (issue_id, merge_request_id, milestone_id, user_id, action, state, created_at) values (${issueId}, ${mergeRequestId}, ${milestoneId}, ${userId}, ${action}, ${state}, ${now})`;
}

export function stateOf(eventable: Eventable): Statement {
  return eventable.type === 'Issue' ? q`select state from issues where id = ${eventable.id}` : q`select state from merge_requests where id = ${eventable.id}`;
}

/** The issuable's milestone and state, for the `add` event of one created with a milestone. */
export function milestoneAndStateOf(eventable: Eventable): Statement {
  return eventable.type === 'Issue'
    ? q`select milestone_id, state from issues where id = ${eventable.id}`
    : q`select milestone_id, state from merge_requests where id = ${eventable.id}`;
}
