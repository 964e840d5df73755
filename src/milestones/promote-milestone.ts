// Promotes a project milestone to a milestone of the project's group (GitLab's
// Milestones::PromoteService): a group milestone with its title, description, dates and state takes
// the place of every milestone of that title in the group's projects, on their issues, merge
// requests, releases and milestone history, and those project milestones are deleted. One
// transaction. As GitLab, the new milestone is not refused for sharing its title with the project
// milestones it replaces; a group milestone of that title already there is.
import type { Deps } from '../platform/deps.js';
import type { NamespaceRow } from '../platform/auth/subjects.js';
import { inTransaction } from '../platform/db/database.js';
import { nextInternalId } from '../platform/db/internal-ids.js';
import { StatusError } from '../platform/errors.js';
import type { MilestoneRow } from './entities.js';
import { TITLE_TAKEN } from './validate-milestone.js';

export async function promoteMilestone(deps: Deps, group: NamespaceRow, milestone: MilestoneRow): Promise<MilestoneRow> {
  if (milestone.project_id === null) throw new StatusError(400, 'Only project milestones can be promoted.');
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const taken = await trx.selectFrom('milestones').select('id').where('group_id', '=', group.id).where('title', '=', milestone.title).executeTakeFirst();
    if (taken) throw new StatusError(400, `Title ${TITLE_TAKEN}`);
    const promoted = await trx.insertInto('milestones').values({
      project_id: null, group_id: Number(group.id), iid: await nextInternalId(trx, Number(group.id), 'group_milestones'),
      title: milestone.title, description: milestone.description, state: milestone.state, start_date: milestone.start_date, due_date: milestone.due_date,
      created_at: now, updated_at: now,
    }).returningAll().executeTakeFirstOrThrow();
    const target = Number(promoted.id);
    const old = (await trx.selectFrom('milestones').select('id').where('title', '=', milestone.title)
      .where('project_id', 'in', trx.selectFrom('projects').select('id').where('namespace_id', '=', group.id)).execute()).map((row) => Number(row.id));
    await trx.updateTable('issues').set({ milestone_id: target }).where('milestone_id', 'in', old).execute();
    await trx.updateTable('merge_requests').set({ milestone_id: target }).where('milestone_id', 'in', old).execute();
    await trx.updateTable('resource_milestone_events').set({ milestone_id: target }).where('milestone_id', 'in', old).execute();
    // A release that had two of them keeps one.
    await trx.deleteFrom('release_milestones').where('milestone_id', 'in', old).where('release_id', 'in', trx.selectFrom('release_milestones').select('release_id').where('milestone_id', '=', target)).execute();
    await trx.updateTable('release_milestones').set({ milestone_id: target }).where('milestone_id', 'in', old).execute();
    await trx.deleteFrom('milestones').where('id', 'in', old).execute();
    return promoted;
  });
}
