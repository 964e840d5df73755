// An issue's label history (resource_label_events), oldest first.
import type { Deps } from '../platform/deps.js';
import { NotFoundError } from '../platform/errors.js';

export function labelEventsQuery(deps: Deps, issueId: number) {
  return deps.db.selectFrom('resource_label_events').selectAll().where('issue_id', '=', issueId).orderBy('id');
}

export async function findLabelEvent(deps: Deps, issueId: number, eventId: number) {
  const event = await deps.db.selectFrom('resource_label_events').selectAll().where('issue_id', '=', issueId).where('id', '=', eventId).executeTakeFirst();
  if (!event) throw new NotFoundError('ResourceLabelEvent');
  return event;
}
