import type { Deps } from '../platform/deps.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { nextInternalId } from '../platform/db/internal-ids.js';
import { ValidationError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import type { IssueRow } from './entities.js';

export interface CreateIssueInput {
  projectId: number;
  authorId: number;
  title: string;
  description?: string | null;
  issueType?: 'issue' | 'incident';
  confidential?: boolean;
}

/** Create an issue (or incident) with the next per-project iid, and its `created` event. */
export async function createIssue(deps: Deps, input: CreateIssueInput, executor: Executor = deps.db): Promise<IssueRow> {
  const title = input.title?.trim() ?? '';
  const errors: Record<string, string[]> = {};
  if (title === '') errors.title = ["can't be blank"];
  if (title.length > 255) errors.title = ['is too long (maximum is 255 characters)'];
  if (input.description && input.description.length > 1_048_576) errors.description = ['is too long (maximum is 1048576 characters)'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const now = deps.clock.now();
  return inTransaction(executor, async (trx) => {
    const iid = await nextInternalId(trx, input.projectId, 'issues');
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
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(trx, deps.clock, { projectId: input.projectId, authorId: input.authorId, action: 'created', target: { type: 'Issue', id: Number(issue.id), iid, title } });
    await deps.domainEvents.publish(trx, { kind: 'issue.opened', projectId: input.projectId, actorId: input.authorId, issueId: Number(issue.id) });
    return issue;
  });
}
