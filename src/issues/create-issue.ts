import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation, type Executor } from '../platform/db/database.js';
import { nextInternalId } from '../platform/db/internal-ids.js';
import { ValidationError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import { requestDetailColumns, type RequestDetail } from '../platform/http/user-agent-detail.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { IssueRow } from './entities.js';
import { applyAssignees, applyLabels, metadataColumns, type IssueMetadata } from './issue-metadata.js';

export interface CreateIssueInput {
  projectId: number;
  authorId: number;
  title: string;
  description?: string | null;
  issueType?: 'issue' | 'incident';
  confidential?: boolean;
  /** Labels, assignees, milestone, due date: checked by the caller (set_issue_metadata); labels need `project`. */
  metadata?: IssueMetadata;
  project?: ProjectRow;
  /** Owners and administrators only (set_issue_created_at, set_issue_iid), checked by the caller. */
  createdAt?: number;
  iid?: number;
  /** The creating request, kept for administrators (user_agent_detail); none for an alert's incident. */
  request?: RequestDetail;
}

/** An explicit iid moves the project's counter past it, so later issues never collide with it. */
async function reserveIid(trx: Executor, projectId: number, iid: number): Promise<void> {
  await trx
    .insertInto('internal_ids')
    .values({ project_id: projectId, usage: 'issues', last_value: iid })
    .onConflict((conflict) => conflict.columns(['project_id', 'usage']).doUpdateSet({
      last_value: (eb) => eb.case().when('internal_ids.last_value', '<', iid).then(iid).else(eb.ref('internal_ids.last_value')).end(),
    }))
    .execute();
}

/** Create an issue (or incident) with the next per-project iid, its labels and assignees, and its `created` event. */
export async function createIssue(deps: Deps, input: CreateIssueInput, executor: Executor = deps.db): Promise<IssueRow> {
  const title = input.title?.trim() ?? '';
  const errors: Record<string, string[]> = {};
  if (title === '') errors.title = ["can't be blank"];
  if (title.length > 255) errors.title = ['is too long (maximum is 255 characters)'];
  if (input.description && input.description.length > 1_048_576) errors.description = ['is too long (maximum is 1048576 characters)'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const now = deps.clock.now();
  const createdAt = input.createdAt ?? now;
  try {
    return await inTransaction(executor, async (trx) => {
      let iid: number;
      if (input.iid !== undefined) {
        iid = input.iid;
        await reserveIid(trx, input.projectId, iid);
      } else {
        iid = await nextInternalId(trx, input.projectId, 'issues');
      }
      const issue = await trx
        .insertInto('issues')
        .values({
          project_id: input.projectId,
          iid,
          title,
          description: input.description ?? null,
          state: 'opened',
          issue_type: input.issueType ?? 'issue',
          confidential: input.confidential ? 1 : 0,
          author_id: input.authorId,
          closed_by_id: null,
          closed_at: null,
          ...metadataColumns(input.metadata),
          ...requestDetailColumns(input.request ?? {}),
          created_at: createdAt,
          updated_at: createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (input.metadata && input.project) {
        await applyLabels(trx, input.project, Number(issue.id), input.authorId, input.metadata, now);
        await applyAssignees(trx, Number(issue.id), input.metadata.assigneeIds);
      }
      await recordEvent(trx, deps.clock, { projectId: input.projectId, authorId: input.authorId, action: 'created', target: { type: 'Issue', id: Number(issue.id), iid, title } });
      await deps.domainEvents.publish(trx, { kind: 'issue.opened', projectId: input.projectId, actorId: input.authorId, issueId: Number(issue.id) });
      return issue;
    });
  } catch (error) {
    if (input.iid !== undefined && isUniqueViolation(error)) throw new ValidationError({ iid: ['has already been taken'] });
    throw error;
  }
}
