import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { recordEvent } from '../platform/events/record-event.js';
import type { MilestoneRow } from './entities.js';

/**
 * Remove a milestone (GitLab's Milestones::DestroyService): its issues lose it, a project milestone
 * records a `destroyed` event, and the milestone's events stay in the activity feed pointing at no
 * target (their target_id set to null), as GitLab keeps them.
 */
export async function deleteMilestone(deps: Deps, actorId: number, milestone: MilestoneRow): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    await trx.updateTable('issues').set({ milestone_id: null }).where('milestone_id', '=', milestone.id).execute();
    if (milestone.project_id !== null) {
      await recordEvent(trx, deps.clock, { projectId: Number(milestone.project_id), authorId: actorId, action: 'destroyed', target: { type: 'Milestone', id: Number(milestone.id), iid: milestone.iid, title: milestone.title } });
      // Through the project's (project_id, target_type, id) index: events have none on target_id.
      await trx.updateTable('events').set({ target_id: null })
        .where('project_id', '=', Number(milestone.project_id)).where('target_type', '=', 'Milestone').where('target_id', '=', milestone.id).execute();
    }
    await trx.deleteFrom('milestones').where('id', '=', milestone.id).execute();
  });
}
