import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { isUniqueViolation } from '../platform/db/database.js';
import { nextInternalId } from '../platform/db/internal-ids.js';
import { ValidationError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import type { MilestoneRow } from './entities.js';
import type { MilestoneParent } from './finder.js';
import { TITLE_TAKEN, throwIfAny, titleTaken, validateDates } from './validate-milestone.js';

export interface CreateMilestoneInput {
  title: string;
  description?: string | null;
  startDate?: string | null;
  dueDate?: string | null;
}

/** Group milestones count their iids in the same table as projects, under a usage of their own. */
export function iidScope(parent: MilestoneParent): [number, string] {
  return 'project' in parent ? [Number(parent.project.id), 'milestones'] : [Number(parent.group.id), 'group_milestones'];
}

/**
 * A new milestone with the next iid of its project or group. A project milestone records a `created`
 * event (GitLab's EventCreateService#open_milestone); group events have no listing in Kiln.
 */
export async function createMilestone(deps: Deps, actorId: number, parent: MilestoneParent, input: CreateMilestoneInput): Promise<MilestoneRow> {
  const title = input.title.trim();
  const errors: Record<string, string[]> = {};
  if (title === '') errors.title = ["can't be blank"];
  validateDates(input.startDate ?? null, input.dueDate ?? null, errors);
  throwIfAny(errors);
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      if (await titleTaken(trx, parent, title)) throw new ValidationError({ title: [TITLE_TAKEN] });
      const [scopeId, usage] = iidScope(parent);
      const iid = await nextInternalId(trx, scopeId, usage);
      const milestone = await trx
        .insertInto('milestones')
        .values({
          project_id: 'project' in parent ? Number(parent.project.id) : null,
          group_id: 'group' in parent ? Number(parent.group.id) : null,
          iid,
          title,
          description: input.description ?? null,
          start_date: input.startDate ?? null,
          due_date: input.dueDate ?? null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if ('project' in parent) {
        await recordEvent(trx, deps.clock, { projectId: Number(parent.project.id), authorId: actorId, action: 'created', target: { type: 'Milestone', id: Number(milestone.id), iid, title } });
      }
      return milestone;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ title: [TITLE_TAKEN] });
    throw error;
  }
}
