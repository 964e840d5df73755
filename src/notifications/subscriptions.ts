// Subscribing to an issue (GitLab's Subscribable): an explicit row wins; without one, the issue's
// participants count as subscribed. Unsubscribing a participant writes `subscribed = 0`, which also
// silences their participation (recipient-rules.ts), except for mentions.
import type { Deps } from '../platform/deps.js';
import { isUniqueViolation } from '../platform/db/database.js';
import { loadIssueContext, type IssueRow } from './issue-context.js';

export async function isSubscribed(deps: Deps, userId: number, issue: Pick<IssueRow, 'id'>): Promise<boolean> {
  const row = await deps.db.selectFrom('subscriptions').select('subscribed').where('subscribable_type', '=', 'Issue').where('subscribable_id', '=', issue.id).where('user_id', '=', userId).executeTakeFirst();
  if (row) return row.subscribed === 1;
  const context = await loadIssueContext(deps, Number(issue.id));
  return context?.participantIds.includes(userId) ?? false;
}

/**
 * Set the user's subscription; false when it already was so (the API answers 304 Not Modified).
 * `always` writes the row even then: the unsubscribe link must also silence a watcher, who is not
 * subscribed but is mailed through their level (GitLab's sent-notification unsubscribe does the same).
 */
export async function setSubscription(deps: Deps, userId: number, issue: Pick<IssueRow, 'id' | 'project_id'>, subscribed: boolean, options: { always?: boolean } = {}): Promise<boolean> {
  if ((await isSubscribed(deps, userId, issue)) === subscribed && !options.always) return false;
  const now = deps.clock.now();
  const value = subscribed ? 1 : 0;
  try {
    await deps.db
      .insertInto('subscriptions')
      .values({ user_id: userId, project_id: Number(issue.project_id), subscribable_type: 'Issue', subscribable_id: Number(issue.id), subscribed: value, created_at: now, updated_at: now })
      .onConflict((conflict) => conflict.columns(['subscribable_type', 'subscribable_id', 'user_id']).doUpdateSet({ subscribed: value, updated_at: now }))
      .execute();
  } catch (error) {
    // Two requests racing on the first row: the other one wrote it, and it says the same.
    if (!isUniqueViolation(error)) throw error;
  }
  return true;
}
