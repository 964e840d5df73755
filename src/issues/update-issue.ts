import type { Deps } from '../platform/deps.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { ConflictError, RecordNotFoundError, ValidationError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { IssueRow } from './entities.js';
import { applyAssignees, applyLabels, metadataColumns, touchesLabels, type IssueMetadata } from './issue-metadata.js';

export interface UpdateIssueInput {
  title?: string;
  description?: string | null;
  issueType?: 'issue' | 'incident';
  confidential?: boolean;
  stateEvent?: 'close' | 'reopen';
  /** Labels, assignees, milestone, due date: checked by the caller (set_issue_metadata); labels need `project`. */
  metadata?: IssueMetadata;
  project?: ProjectRow;
  /** Owners and administrators only (set_issue_updated_at), checked by the caller. */
  updatedAt?: number;
  /**
   * The description the caller's change was made against (a page's edit, a ticked task): when the
   * issue no longer has it, nothing is written and ConflictError is thrown, rather than lose the
   * other change.
   */
  expectedDescription?: string | null;
}

async function labelIdsOf(trx: Executor, issueId: number): Promise<number[]> {
  const rows = await trx.selectFrom('label_links').select('label_id').where('issue_id', '=', issueId).orderBy('label_id').execute();
  return rows.map((row) => Number(row.label_id));
}

/**
 * Change an issue. Closing and reopening are conditional updates on the current state, so two
 * racing closes record one `closed` event. Edits record no activity event: GitLab records `closed`
 * and `reopened` for issues, never `updated` (EventCreateService has no update for issues).
 */
export async function updateIssue(deps: Deps, actorId: number, issue: IssueRow, input: UpdateIssueInput, executor: Executor = deps.db): Promise<IssueRow> {
  if (input.title !== undefined && input.title.trim() === '') throw new ValidationError({ title: ["can't be blank"] });
  const now = deps.clock.now();
  return inTransaction(executor, async (trx) => {
    const changes: Record<string, unknown> = { updated_at: input.updatedAt ?? now, ...metadataColumns(input.metadata) };
    if (input.title !== undefined) changes.title = input.title.trim();
    if (input.description !== undefined) changes.description = input.description;
    if (input.issueType !== undefined) changes.issue_type = input.issueType;
    if (input.confidential !== undefined) changes.confidential = input.confidential ? 1 : 0;
    let update = trx.updateTable('issues').set(changes).where('id', '=', issue.id);
    const expected = input.expectedDescription;
    if (expected !== undefined) update = expected === null ? update.where('description', 'is', null) : update.where('description', '=', expected);
    let updated = await update.returningAll().executeTakeFirst();
    if (!updated) throw expected !== undefined && (await trx.selectFrom('issues').select('id').where('id', '=', issue.id).executeTakeFirst()) ? new ConflictError('description') : new RecordNotFoundError();
    const changed = Object.keys(changes).filter((field) => field !== 'updated_at' && changes[field] !== issue[field as keyof IssueRow]);
    // What each changed field was and became: hooks send `changes` from it. When the title or the
    // description changed, both texts go along: who is newly mentioned depends on the two together.
    const after = updated;
    const texts = changed.includes('title') || changed.includes('description') ? ['title', 'description'] : [];
    const recorded = [...new Set([...changed, ...texts, 'updated_at'])];
    const previous: Record<string, unknown> = Object.fromEntries(recorded.map((field) => [field, issue[field as keyof IssueRow]]));
    const current: Record<string, unknown> = Object.fromEntries(recorded.map((field) => [field, after[field as keyof IssueRow]]));
    let previousAssignees: number[] | null = null;
    if (input.metadata && input.project) {
      const labelsBefore = touchesLabels(input.metadata) ? await labelIdsOf(trx, Number(issue.id)) : [];
      if (await applyLabels(trx, input.project, Number(issue.id), actorId, input.metadata, now)) {
        changed.push('labels');
        previous.labels = labelsBefore;
        current.labels = await labelIdsOf(trx, Number(issue.id));
      }
      previousAssignees = await applyAssignees(trx, Number(issue.id), input.metadata.assigneeIds);
    }
    if (changed.length > 0) await deps.domainEvents.publish(trx, { kind: 'issue.updated', projectId: Number(issue.project_id), actorId, issueId: Number(issue.id), changes: changed, previous, current });
    if (previousAssignees) {
      await deps.domainEvents.publish(trx, { kind: 'issue.reassigned', projectId: Number(issue.project_id), actorId, issueId: Number(issue.id), previousAssigneeIds: previousAssignees });
    }
    if (input.stateEvent) {
      const closing = input.stateEvent === 'close';
      const transitioned = await trx
        .updateTable('issues')
        .set(closing ? { state: 'closed', closed_at: now, closed_by_id: actorId } : { state: 'opened', closed_at: null, closed_by_id: null })
        .where('id', '=', issue.id)
        .where('state', '=', closing ? 'opened' : 'closed')
        .returningAll()
        .executeTakeFirst();
      if (transitioned) {
        updated = transitioned;
        await recordEvent(trx, deps.clock, {
          projectId: Number(issue.project_id),
          authorId: actorId,
          action: closing ? 'closed' : 'reopened',
          target: { type: 'Issue', id: Number(issue.id), iid: issue.iid, title: updated.title },
        });
        await deps.domainEvents.publish(trx, { kind: closing ? 'issue.closed' : 'issue.reopened', projectId: Number(issue.project_id), actorId, issueId: Number(issue.id) });
      }
    }
    return updated;
  });
}
