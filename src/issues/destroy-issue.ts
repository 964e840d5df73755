import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { NOTE_TARGET_TYPES } from '../platform/events/vocabulary.js';
import { forgetEventCounts } from '../events/api.js';
import type { IssueRow } from './entities.js';

/**
 * Delete an issue (GitLab's Issuable::DestroyService): its notes, labels, assignees, label history and
 * subscriptions go with it, and so do its activity events and those of its comments (GitLab's Issue and Note
 * `has_many :events, dependent: :delete_all`). GitLab records no `destroyed` event for an issue; and
 * an event left behind would outlive the confidentiality check that hid it, which asks the issue.
 */
export async function destroyIssue(deps: Deps, issue: IssueRow): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const projectId = Number(issue.project_id);
    const notes = trx.selectFrom('notes').select('id').where('noteable_type', '=', 'Issue').where('noteable_id', '=', issue.id);
    // Through the project's (project_id, target_type, id) index: events have none on target_id.
    await trx.deleteFrom('events').where('project_id', '=', projectId).where('target_type', 'in', [...NOTE_TARGET_TYPES]).where('target_id', 'in', notes).execute();
    await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Note').where('awardable_id', 'in', notes).execute();
    await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Issue').where('awardable_id', '=', issue.id).execute();
    await trx.deleteFrom('events').where('project_id', '=', projectId).where('target_type', '=', 'Issue').where('target_id', '=', issue.id).execute();
    await trx.deleteFrom('notes').where('noteable_type', '=', 'Issue').where('noteable_id', '=', issue.id).execute();
    await trx.deleteFrom('subscriptions').where('subscribable_type', '=', 'Issue').where('subscribable_id', '=', issue.id).execute();
    await trx.deleteFrom('issues').where('id', '=', issue.id).execute();
  });
  // Events below the count cache's watermark are gone: this node recounts (others within a minute, count-cache.ts).
  forgetEventCounts(deps);
}
