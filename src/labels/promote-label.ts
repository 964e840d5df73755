// Promotes a project label to a group label (GitLab's Labels::PromoteService): the label of that title
// in the project's group (made with the label's colour and description when there is none) takes the
// place of every label of that title in the group's projects, on their issues, merge requests, board
// lists, label history and subscriptions (each still holding in its project), and those project
// labels are deleted. One transaction.
import type { Deps } from '../platform/deps.js';
import type { NamespaceRow } from '../platform/auth/subjects.js';
import { inTransaction } from '../platform/db/database.js';
import type { LabelRow } from './entities.js';
import { deleteSubscriptionsDuplicatedOn } from './labels-queries.js';

export async function promoteLabel(deps: Deps, group: NamespaceRow, label: LabelRow): Promise<LabelRow> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const groupLabel = await trx.selectFrom('labels').selectAll().where('group_id', '=', group.id).where('title', '=', label.title).executeTakeFirst()
      ?? await trx.insertInto('labels').values({ group_id: Number(group.id), project_id: null, title: label.title, color: label.color, description: label.description, priority: null, created_at: now, updated_at: now })
        .returningAll().executeTakeFirstOrThrow();
    const target = Number(groupLabel.id);
    const old = (await trx.selectFrom('labels').select('id').where('title', '=', label.title)
      .where('project_id', 'in', trx.selectFrom('projects').select('id').where('namespace_id', '=', group.id)).execute()).map((row) => Number(row.id));
    if (old.length === 0) return groupLabel;
    // An issue, merge request or board that had both keeps one link, to the group label.
    await trx.deleteFrom('label_links').where('label_id', 'in', old).where('issue_id', 'in', trx.selectFrom('label_links').select('issue_id').where('label_id', '=', target)).execute();
    await trx.updateTable('label_links').set({ label_id: target }).where('label_id', 'in', old).execute();
    await trx.deleteFrom('merge_request_label_links').where('label_id', 'in', old).where('merge_request_id', 'in', trx.selectFrom('merge_request_label_links').select('merge_request_id').where('label_id', '=', target)).execute();
    await trx.updateTable('merge_request_label_links').set({ label_id: target }).where('label_id', 'in', old).execute();
    await trx.deleteFrom('board_lists').where('label_id', 'in', old).where('board_id', 'in', trx.selectFrom('board_lists').select('board_id').where('label_id', '=', target)).execute();
    await trx.updateTable('board_lists').set({ label_id: target }).where('label_id', 'in', old).execute();
    await trx.updateTable('resource_label_events').set({ label_id: target }).where('label_id', 'in', old).execute();
    // A subscriber the group label already has in the same scope keeps that one subscription.
    await deleteSubscriptionsDuplicatedOn(trx, old, target);
    await trx.updateTable('label_subscriptions').set({ label_id: target }).where('label_id', 'in', old).execute();
    await trx.deleteFrom('labels').where('id', 'in', old).execute();
    return groupLabel;
  });
}
