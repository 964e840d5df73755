// GitLab's Milestone validations (app/models/milestone.rb, concerns/timebox.rb): a title, unique
// among the milestones of the project and its group (or of the group and its projects); a due date
// after the start date.
import type { Executor } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import type { MilestoneParent } from './finder.js';

export const TITLE_TAKEN = 'already being used for another group or project milestone.';

export function validateDates(startDate: string | null, dueDate: string | null, errors: Record<string, string[]>): void {
  if (startDate !== null && dueDate !== null && dueDate <= startDate) errors.due_date = ['must be greater than start date'];
}

export function throwIfAny(errors: Record<string, string[]>): void {
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** Whether another milestone of the parent's family already has this title (GitLab's uniqueness_of_title). */
export async function titleTaken(trx: Executor, parent: MilestoneParent, title: string, exceptId?: number): Promise<boolean> {
  let query = trx.selectFrom('milestones').select('id').where('title', '=', title);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  if ('project' in parent) {
    const namespaceId = Number(parent.project.namespace_id);
    query = query.where((eb) => eb.or([eb('project_id', '=', Number(parent.project.id)), eb('group_id', '=', namespaceId)]));
  } else {
    const groupId = Number(parent.group.id);
    query = query.where((eb) => eb.or([
      eb('group_id', '=', groupId),
      eb('project_id', 'in', eb.selectFrom('projects').select('id').where('namespace_id', '=', groupId)),
    ]));
  }
  return (await query.executeTakeFirst()) !== undefined;
}

/** Ruby's Hash#inspect of model errors, as GitLab puts them in "Failed to create milestone {…}". */
export function rubyErrors(fields: Record<string, string[]>): string {
  const entries = Object.entries(fields).map(([field, messages]) => `:${field}=>[${messages.map((message) => JSON.stringify(message)).join(', ')}]`);
  return `{${entries.join(', ')}}`;
}
