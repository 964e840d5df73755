// Subscribing to a label (GitLab's Subscribable for labels, lib/api/subscriptions.rb): a subscriber
// is mailed when an issue or merge request is opened with the label or the label is added to one
// (notifications/recipients.ts). A subscription's scope is a project (made from a project's labels,
// for its own or an inherited group label) or the whole label (made from the group's labels). The
// label shows as subscribed where a subscription of either scope reaches: the whole label, or in
// that project. As GitLab's unsubscribe_from_other_levels, subscribing at one scope drops the other.
import type { ExpressionBuilder } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { DB } from '../platform/db/schema.js';
import { inTransaction } from '../platform/db/database.js';

/** Where a subscription is made or asked about: a project, or null for the label everywhere. */
export type LabelSubscriptionScope = { projectId: number | null };

/** The subscriptions that reach `scope`: the whole label's, and in a project also that project's. */
function reaching(scope: LabelSubscriptionScope) {
  return (eb: ExpressionBuilder<DB, 'label_subscriptions'>) =>
    scope.projectId === null ? eb('project_id', 'is', null) : eb.or([eb('project_id', 'is', null), eb('project_id', '=', scope.projectId)]);
}

/** The labels among `labelIds` the user is subscribed to where `scope` stands: one statement for a whole list. */
export async function subscribedLabelIds(db: Executor, userId: number | null | undefined, labelIds: number[], scope: LabelSubscriptionScope): Promise<Set<number>> {
  if (!userId || labelIds.length === 0) return new Set();
  const rows = await db.selectFrom('label_subscriptions').select('label_id').where('user_id', '=', userId).where('label_id', 'in', labelIds).where(reaching(scope)).execute();
  return new Set(rows.map((row) => Number(row.label_id)));
}

/** Subscribe; false when already subscribed there (the API answers 304), or when a concurrent request just did. */
export async function subscribeToLabel(deps: Deps, userId: number, labelId: number, scope: LabelSubscriptionScope): Promise<boolean> {
  return inTransaction(deps.db, async (trx) => {
    if ((await subscribedLabelIds(trx, userId, [labelId], scope)).size > 0) return false;
    await trx.deleteFrom('label_subscriptions').where('user_id', '=', userId).where('label_id', '=', labelId)
      .where('project_id', scope.projectId === null ? 'is not' : 'is', null).execute();
    const inserted = await trx.insertInto('label_subscriptions')
      .values({ user_id: userId, label_id: labelId, project_id: scope.projectId, created_at: deps.clock.now() })
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}

/**
 * Unsubscribe: drop the subscriptions that reach `scope` (from a project, also the whole label's:
 * the label must stop showing as subscribed there); the whole label's unsubscription drops the
 * project ones too. False when none reached it (304).
 */
export async function unsubscribeFromLabel(deps: Deps, userId: number, labelId: number, scope: LabelSubscriptionScope): Promise<boolean> {
  return inTransaction(deps.db, async (trx) => {
    const removed = await trx.deleteFrom('label_subscriptions').where('user_id', '=', userId).where('label_id', '=', labelId).where(reaching(scope)).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) return false;
    if (scope.projectId === null) await trx.deleteFrom('label_subscriptions').where('user_id', '=', userId).where('label_id', '=', labelId).execute();
    return true;
  });
}

/** Who subscribed to any of the labels, for an issue or merge request of the project (GitLab's Label#subscribers(project)). */
export async function labelSubscriberIds(db: Executor, labelIds: number[], projectId: number): Promise<number[]> {
  if (labelIds.length === 0) return [];
  const rows = await db.selectFrom('label_subscriptions').select('user_id').distinct().where('label_id', 'in', labelIds).where(reaching({ projectId })).execute();
  return rows.map((row) => Number(row.user_id));
}
