import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { RecordNotFoundError, ValidationError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import type { MilestoneRow } from './entities.js';
import type { MilestoneParent } from './finder.js';
import { TITLE_TAKEN, throwIfAny, titleTaken, validateDates } from './validate-milestone.js';

export interface UpdateMilestoneInput {
  title?: string;
  description?: string | null;
  /** `null` clears the date; absent leaves it. */
  startDate?: string | null;
  dueDate?: string | null;
  stateEvent?: 'close' | 'activate';
}

/** The state change each event makes, and the activity event a project milestone records for it. */
const TRANSITIONS = {
  close: { from: 'active', to: 'closed', action: 'closed' },
  activate: { from: 'closed', to: 'active', action: 'reopened' },
} as const;

/**
 * Change a milestone (GitLab's Milestones::UpdateService with its Close and Reopen services). The
 * state change is a conditional update, so two racing closes record one `closed` event.
 */
export async function updateMilestone(deps: Deps, actorId: number, parent: MilestoneParent, milestone: MilestoneRow, input: UpdateMilestoneInput): Promise<MilestoneRow> {
  const errors: Record<string, string[]> = {};
  const title = input.title?.trim();
  if (title === '') errors.title = ["can't be blank"];
  const startDate = input.startDate === undefined ? milestone.start_date : input.startDate;
  const dueDate = input.dueDate === undefined ? milestone.due_date : input.dueDate;
  validateDates(startDate, dueDate, errors);
  throwIfAny(errors);
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      if (title !== undefined && title !== milestone.title && (await titleTaken(trx, parent, title, Number(milestone.id)))) throw new ValidationError({ title: [TITLE_TAKEN] });
      const changes: Partial<Omit<MilestoneRow, 'id'>> = { updated_at: now, start_date: startDate, due_date: dueDate };
      if (title !== undefined) changes.title = title;
      if (input.description !== undefined) changes.description = input.description;
      let updated = await trx.updateTable('milestones').set(changes).where('id', '=', milestone.id).returningAll().executeTakeFirst();
      if (!updated) throw new RecordNotFoundError();
      if (input.stateEvent) {
        const transition = TRANSITIONS[input.stateEvent];
        const moved = await trx.updateTable('milestones').set({ state: transition.to }).where('id', '=', milestone.id).where('state', '=', transition.from).returningAll().executeTakeFirst();
        if (moved) {
          updated = moved;
          if (moved.project_id !== null) {
            await recordEvent(trx, deps.clock, { projectId: Number(moved.project_id), authorId: actorId, action: transition.action, target: { type: 'Milestone', id: Number(moved.id), iid: moved.iid, title: moved.title } });
          }
        }
      }
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ title: [TITLE_TAKEN] });
    throw error;
  }
}
