// The state, milestone and label history of one issue or merge request, oldest first, and the
// milestones those events name as GitLab presents them.
import type { Deps } from '../../platform/deps.js';
import { NotFoundError } from '../../platform/errors.js';
import { milestoneEntity, type MilestoneParentPath } from '../../milestones/api.js';
import type { Eventable } from './resource-events-queries.js';

const column = (eventable: Eventable) => (eventable.type === 'Issue' ? 'issue_id' : 'merge_request_id');

export function stateEventsQuery(deps: Deps, eventable: Eventable) {
  return deps.db.selectFrom('resource_state_events').selectAll().where(column(eventable), '=', eventable.id).orderBy('id');
}

export function milestoneEventsQuery(deps: Deps, eventable: Eventable) {
  return deps.db.selectFrom('resource_milestone_events').selectAll().where(column(eventable), '=', eventable.id).orderBy('id');
}

export function labelEventsQuery(deps: Deps, eventable: Eventable) {
  return deps.db.selectFrom('resource_label_events').selectAll().where(column(eventable), '=', eventable.id).orderBy('id');
}

export async function findStateEvent(deps: Deps, eventable: Eventable, eventId: number) {
  const event = await stateEventsQuery(deps, eventable).where('id', '=', eventId).executeTakeFirst();
  if (!event) throw new NotFoundError('ResourceStateEvent');
  return event;
}

export async function findMilestoneEvent(deps: Deps, eventable: Eventable, eventId: number) {
  const event = await milestoneEventsQuery(deps, eventable).where('id', '=', eventId).executeTakeFirst();
  if (!event) throw new NotFoundError('ResourceMilestoneEvent');
  return event;
}

export async function findLabelEvent(deps: Deps, eventable: Eventable, eventId: number) {
  const event = await labelEventsQuery(deps, eventable).where('id', '=', eventId).executeTakeFirst();
  if (!event) throw new NotFoundError('ResourceLabelEvent');
  return event;
}

/** GitLab's milestone entity of each milestone id (a deleted one is left out). */
export async function milestonesByIds(deps: Deps, ids: Array<number | null>): Promise<Map<number, unknown>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null).map(Number))];
  const presented = new Map<number, unknown>();
  if (wanted.length === 0) return presented;
  const milestones = await deps.db.selectFrom('milestones').selectAll().where('id', 'in', wanted).execute();
  const projectIds = milestones.filter((m) => m.project_id !== null).map((m) => Number(m.project_id));
  const groupIds = milestones.filter((m) => m.group_id !== null).map((m) => Number(m.group_id));
  const projects = projectIds.length ? await deps.db.selectFrom('projects').select(['id', 'full_path']).where('id', 'in', projectIds).execute() : [];
  const groups = groupIds.length ? await deps.db.selectFrom('namespaces').select(['id', 'full_path']).where('id', 'in', groupIds).execute() : [];
  const now = deps.clock.now();
  for (const milestone of milestones) {
    const project = projects.find((row) => Number(row.id) === Number(milestone.project_id));
    const group = groups.find((row) => Number(row.id) === Number(milestone.group_id));
    const path: MilestoneParentPath | undefined = project ? { kind: 'project', fullPath: project.full_path } : group ? { kind: 'group', fullPath: group.full_path } : undefined;
    if (path) presented.set(Number(milestone.id), milestoneEntity(deps.config.baseUrl, milestone, path, now));
  }
  return presented;
}
