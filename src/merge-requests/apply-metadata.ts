// Labels, assignees and reviewers of a merge request, written inside the transaction of the create
// or update that sets them (GitLab's process_label_ids, assignee and reviewer handling).
import type { Executor } from '../platform/db/database.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { findOrCreateLabels } from '../labels/api.js';
import type { MergeRequestMetadata } from './mr-params.js';

/**
 * `labels` replace (or keep the current set), `add_labels` join, `remove_labels` leave. True when they
 * changed. Each label added or removed is recorded for the label events API (resource_label_events),
 * in title order as GitLab's ResourceEvents::ChangeLabelsService records them.
 */
export async function applyLabels(trx: Executor, project: ProjectRow, mrId: number, actorId: number, metadata: MergeRequestMetadata, now: number): Promise<boolean> {
  if (metadata.labels === undefined && metadata.addLabels === undefined && metadata.removeLabels === undefined) return false;
  const create = { create: metadata.createLabels, now };
  const current = (await trx.selectFrom('merge_request_label_links').select('label_id').where('merge_request_id', '=', mrId).execute()).map((row) => Number(row.label_id));
  let next = metadata.labels === undefined ? current : (await findOrCreateLabels(trx, project, metadata.labels, create)).map((label) => Number(label.id));
  if (metadata.addLabels) next = [...next, ...(await findOrCreateLabels(trx, project, metadata.addLabels, create)).map((label) => Number(label.id))];
  if (metadata.removeLabels) {
    const removed = new Set((await findOrCreateLabels(trx, project, metadata.removeLabels, { create: false, now })).map((label) => Number(label.id)));
    next = next.filter((id) => !removed.has(id));
  }
  const wanted = new Set(next);
  const added = [...wanted].filter((id) => !current.includes(id));
  const dropped = current.filter((id) => !wanted.has(id));
  if (dropped.length) await trx.deleteFrom('merge_request_label_links').where('merge_request_id', '=', mrId).where('label_id', 'in', dropped).execute();
  if (added.length) {
    await trx.insertInto('merge_request_label_links').values(added.map((labelId) => ({ merge_request_id: mrId, label_id: labelId, created_at: now }))).onConflict((conflict) => conflict.doNothing()).execute();
  }
  if (added.length === 0 && dropped.length === 0) return false;
  const titles = new Map((await trx.selectFrom('labels').select(['id', 'title']).where('id', 'in', [...added, ...dropped]).execute()).map((label) => [Number(label.id), label.title]));
  const byTitle = (a: number, b: number) => ((titles.get(a) ?? '') < (titles.get(b) ?? '') ? -1 : (titles.get(a) ?? '') > (titles.get(b) ?? '') ? 1 : a - b);
  const events = [...added.sort(byTitle).map((id) => ({ id, action: 'add' as const })), ...dropped.sort(byTitle).map((id) => ({ id, action: 'remove' as const }))];
  await trx.insertInto('resource_label_events').values(events.map((event) => ({ merge_request_id: mrId, label_id: event.id, user_id: actorId, action: event.action, created_at: now }))).execute();
  return true;
}

/** Replace the users of one of the two lists; the previous ones when they changed, null otherwise. */
export async function applyUsers(trx: Executor, table: 'merge_request_assignees' | 'merge_request_reviewers', mrId: number, userIds: number[] | undefined, now: number): Promise<number[] | null> {
  if (userIds === undefined) return null;
  const current = (await trx.selectFrom(table).select('user_id').where('merge_request_id', '=', mrId).orderBy('created_at').orderBy('user_id').execute()).map((row) => Number(row.user_id));
  const wanted = [...new Set(userIds)];
  const added = wanted.filter((id) => !current.includes(id));
  const dropped = current.filter((id) => !wanted.includes(id));
  if (dropped.length) await trx.deleteFrom(table).where('merge_request_id', '=', mrId).where('user_id', 'in', dropped).execute();
  if (added.length) await trx.insertInto(table).values(added.map((userId) => ({ merge_request_id: mrId, user_id: userId, created_at: now }))).onConflict((conflict) => conflict.doNothing()).execute();
  return added.length > 0 || dropped.length > 0 ? current : null;
}
