// Subscribing to an issue or a merge request (GitLab's Subscribable): an explicit row wins; without
// one, the thread's participants count as subscribed. Unsubscribing a participant writes
// `subscribed = 0`, which also silences their participation (recipient-rules.ts), except for mentions.
import type { Deps } from '../platform/deps.js';
import { isUniqueViolation } from '../platform/db/database.js';
import { loadIssueContext } from './issue-context.js';
import { loadMergeRequestContext } from './merge-request-context.js';

/** What a subscription names: subscriptions rows by type and id, in the thread's project. */
export interface Subscribable {
  type: 'Issue' | 'MergeRequest';
  id: number;
  projectId: number;
}

export function issueSubscribable(issue: { id: number; project_id: number }): Subscribable {
  return { type: 'Issue', id: Number(issue.id), projectId: Number(issue.project_id) };
}

export function mergeRequestSubscribable(mr: { id: number; target_project_id: number }): Subscribable {
  return { type: 'MergeRequest', id: Number(mr.id), projectId: Number(mr.target_project_id) };
}

export async function isSubscribed(deps: Deps, userId: number, subject: Subscribable): Promise<boolean> {
  const row = await deps.db.selectFrom('subscriptions').select('subscribed').where('subscribable_type', '=', subject.type).where('subscribable_id', '=', subject.id).where('user_id', '=', userId).executeTakeFirst();
  if (row) return row.subscribed === 1;
  const context = subject.type === 'Issue' ? await loadIssueContext(deps, subject.id) : await loadMergeRequestContext(deps, subject.id);
  return context?.participantIds.includes(userId) ?? false;
}

/**
 * Set the user's subscription; false when it already was so (the API answers 304 Not Modified).
 * `always` writes the row even then: the unsubscribe link must also silence a watcher, who is not
 * subscribed but is mailed through their level (GitLab's sent-notification unsubscribe does the same).
 */
export async function setSubscription(deps: Deps, userId: number, subject: Subscribable, subscribed: boolean, options: { always?: boolean } = {}): Promise<boolean> {
  if ((await isSubscribed(deps, userId, subject)) === subscribed && !options.always) return false;
  const now = deps.clock.now();
  const value = subscribed ? 1 : 0;
  try {
    await deps.db
      .insertInto('subscriptions')
      .values({ user_id: userId, project_id: subject.projectId, subscribable_type: subject.type, subscribable_id: subject.id, subscribed: value, created_at: now, updated_at: now })
      .onConflict((conflict) => conflict.columns(['subscribable_type', 'subscribable_id', 'user_id']).doUpdateSet({ subscribed: value, updated_at: now }))
      .execute();
  } catch (error) {
    // Two requests racing on the first row: the other one wrote it, and it says the same.
    if (!isUniqueViolation(error)) throw error;
  }
  return true;
}
