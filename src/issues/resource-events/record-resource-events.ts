// The state and milestone history of issues and merge requests (GitLab's ResourceEvents::
// ChangeStateService and ChangeMilestoneService), recorded by domain event listeners in the
// transaction of the change, so a close by a commit or a merge request is recorded as one through the
// API or a page. A milestone replaced by another records `add` of the new one; one taken off records
// `remove` of the old one; each with the issuable's state then. One created with a milestone records
// its `add` too (GitLab's Issuable::CommonSystemNotesService at creation).
import type { Deps } from '../../platform/deps.js';
import type { Tx } from '../../platform/db/statements.js';
import { insertMilestoneEvent, insertStateEvent, milestoneAndStateOf, stateOf, type Eventable } from './resource-events-queries.js';

const idOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

async function milestoneChanged(tx: Tx, deps: Deps, eventable: Eventable, actorId: number | null, event: { changes: string[]; previous: Record<string, unknown>; current: Record<string, unknown> }): Promise<void> {
  if (!event.changes.includes('milestone_id')) return;
  const before = idOrNull(event.previous.milestone_id);
  const after = idOrNull(event.current.milestone_id);
  const milestoneId = after ?? before;
  if (milestoneId === null || before === after) return;
  const [row] = await tx.all<{ state: string }>(stateOf(eventable));
  await tx.all(insertMilestoneEvent(eventable, actorId, milestoneId, after === null ? 'remove' : 'add', row?.state ?? 'opened', deps.clock.now()));
}

async function createdWithMilestone(tx: Tx, deps: Deps, eventable: Eventable, actorId: number | null): Promise<void> {
  const [row] = await tx.all<{ milestone_id: number | null; state: string }>(milestoneAndStateOf(eventable));
  if (row?.milestone_id === null || row?.milestone_id === undefined) return;
  await tx.all(insertMilestoneEvent(eventable, actorId, Number(row.milestone_id), 'add', row.state, deps.clock.now()));
}

export function listenForResourceEvents(deps: Deps): void {
  const { domainEvents } = deps;
  const record = async (tx: Tx, eventable: Eventable, actorId: number | null, state: string) => {
    await tx.all(insertStateEvent(eventable, actorId, state, deps.clock.now()));
  };
  const issue = (id: number): Eventable => ({ type: 'Issue', id });
  const mergeRequest = (id: number): Eventable => ({ type: 'MergeRequest', id });
  domainEvents.on('issue.opened', (tx, event) => createdWithMilestone(tx, deps, issue(event.issueId), event.actorId));
  domainEvents.on('merge_request.opened', (tx, event) => createdWithMilestone(tx, deps, mergeRequest(event.mergeRequestId), event.actorId));
  domainEvents.on('issue.closed', (tx, event) => record(tx, issue(event.issueId), event.actorId, 'closed'));
  domainEvents.on('issue.reopened', (tx, event) => record(tx, issue(event.issueId), event.actorId, 'reopened'));
  domainEvents.on('issue.updated', (tx, event) => milestoneChanged(tx, deps, issue(event.issueId), event.actorId, event));
  domainEvents.on('merge_request.closed', (tx, event) => record(tx, mergeRequest(event.mergeRequestId), event.actorId, 'closed'));
  domainEvents.on('merge_request.reopened', (tx, event) => record(tx, mergeRequest(event.mergeRequestId), event.actorId, 'reopened'));
  domainEvents.on('merge_request.merged', (tx, event) => record(tx, mergeRequest(event.mergeRequestId), event.actorId, 'merged'));
  domainEvents.on('merge_request.updated', (tx, event) => milestoneChanged(tx, deps, mergeRequest(event.mergeRequestId), event.actorId, event));
}
