// Labels and assignees of an issue, written inside the transaction of the create or update that
// sets them. Every label added or removed is recorded in the issue's label history
// (resource_label_events), as GitLab's ResourceEvents::ChangeLabelsService does.
import type { Executor } from '../platform/db/database.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { findOrCreateLabels, type LabelRow } from '../labels/api.js';

/** What a caller allowed to set an issue's metadata (set_issue_metadata) may change, already checked. */
export interface IssueMetadata {
  /** Replace the labels with these titles. */
  labels?: string[];
  addLabels?: string[];
  removeLabels?: string[];
  /**
   * Labels by id, for callers that hold the label itself (a board list's): a title may name both a
   * project label and a group label, and the title lookup prefers the project's.
   */
  addLabelIds?: number[];
  removeLabelIds?: number[];
  /** Unknown titles become project labels (the caller may manage labels); otherwise they are left out. */
  createLabels?: boolean;
  /** Users who may read the issue, already filtered (GitLab drops the others silently). */
  assigneeIds?: number[];
  milestoneId?: number | null;
  dueDate?: string | null;
  discussionLocked?: boolean;
}

async function labelsOf(trx: Executor, issueId: number): Promise<Array<Pick<LabelRow, 'id' | 'title'>>> {
  return trx.selectFrom('label_links as ll').innerJoin('labels as l', 'l.id', 'll.label_id').select(['l.id', 'l.title']).where('ll.issue_id', '=', issueId).execute();
}

/** The metadata changes the issue's labels. */
export function touchesLabels(metadata: IssueMetadata): boolean {
  return [metadata.labels, metadata.addLabels, metadata.removeLabels, metadata.addLabelIds, metadata.removeLabelIds].some((list) => list !== undefined);
}

async function labelsWithIds(trx: Executor, labelIds: number[] | undefined): Promise<LabelRow[]> {
  return labelIds?.length ? trx.selectFrom('labels').selectAll().where('id', 'in', labelIds).execute() : [];
}

/** GitLab's process_label_ids: `labels` replace (or keep the current set), `add_labels` join, `remove_labels` leave. */
export async function applyLabels(trx: Executor, project: ProjectRow, issueId: number, actorId: number, metadata: IssueMetadata, now: number): Promise<boolean> {
  if (!touchesLabels(metadata)) return false;
  const create = { create: metadata.createLabels ?? false, now };
  const current = await labelsOf(trx, issueId);
  const titles = new Map(current.map((label) => [Number(label.id), label.title]));
  const ids = (labels: LabelRow[]) => labels.map((label) => (titles.set(Number(label.id), label.title), Number(label.id)));
  let next = metadata.labels === undefined ? current.map((label) => Number(label.id)) : ids(await findOrCreateLabels(trx, project, metadata.labels, create));
  if (metadata.addLabels) next = [...next, ...ids(await findOrCreateLabels(trx, project, metadata.addLabels, create))];
  if (metadata.addLabelIds) next = [...next, ...ids(await labelsWithIds(trx, metadata.addLabelIds))];
  if (metadata.removeLabels || metadata.removeLabelIds) {
    const removed = new Set([
      ...(metadata.removeLabels ? ids(await findOrCreateLabels(trx, project, metadata.removeLabels, { create: false, now })) : []),
      ...ids(await labelsWithIds(trx, metadata.removeLabelIds)),
    ]);
    next = next.filter((id) => !removed.has(id));
  }
  const wanted = new Set(next);
  const currentIds = current.map((label) => Number(label.id));
  // In title order, as GitLab lists an issue's labels (and records their events).
  const byTitle = (a: number, b: number) => (titles.get(a)! < titles.get(b)! ? -1 : titles.get(a)! > titles.get(b)! ? 1 : a - b);
  const added = [...wanted].filter((id) => !currentIds.includes(id)).sort(byTitle);
  const dropped = currentIds.filter((id) => !wanted.has(id)).sort(byTitle);
  if (dropped.length) await trx.deleteFrom('label_links').where('issue_id', '=', issueId).where('label_id', 'in', dropped).execute();
  if (added.length) {
    await trx.insertInto('label_links').values(added.map((labelId) => ({ label_id: labelId, issue_id: issueId, created_at: now }))).onConflict((conflict) => conflict.doNothing()).execute();
  }
  const events = [...added.map((id) => ({ id, action: 'add' as const })), ...dropped.map((id) => ({ id, action: 'remove' as const }))];
  if (events.length) {
    await trx.insertInto('resource_label_events').values(events.map((event) => ({ issue_id: issueId, label_id: event.id, user_id: actorId, action: event.action, created_at: now }))).execute();
  }
  return events.length > 0;
}

/** Replace the assignees; the previous ones when they changed, `null` when nothing changed. */
export async function applyAssignees(trx: Executor, issueId: number, assigneeIds: number[] | undefined): Promise<number[] | null> {
  if (assigneeIds === undefined) return null;
  const current = (await trx.selectFrom('issue_assignees').select('user_id').where('issue_id', '=', issueId).execute()).map((row) => Number(row.user_id));
  const wanted = [...new Set(assigneeIds)];
  const added = wanted.filter((id) => !current.includes(id));
  const dropped = current.filter((id) => !wanted.includes(id));
  if (dropped.length) await trx.deleteFrom('issue_assignees').where('issue_id', '=', issueId).where('user_id', 'in', dropped).execute();
  if (added.length) await trx.insertInto('issue_assignees').values(added.map((userId) => ({ issue_id: issueId, user_id: userId }))).onConflict((conflict) => conflict.doNothing()).execute();
  return added.length > 0 || dropped.length > 0 ? current : null;
}

/** The issue columns the metadata sets. */
export function metadataColumns(metadata: IssueMetadata | undefined): { milestone_id?: number | null; due_date?: string | null; discussion_locked?: number } {
  const columns: { milestone_id?: number | null; due_date?: string | null; discussion_locked?: number } = {};
  if (!metadata) return columns;
  if (metadata.milestoneId !== undefined) columns.milestone_id = metadata.milestoneId;
  if (metadata.dueDate !== undefined) columns.due_date = metadata.dueDate;
  if (metadata.discussionLocked !== undefined) columns.discussion_locked = metadata.discussionLocked ? 1 : 0;
  return columns;
}
