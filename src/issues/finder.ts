// Finding one issue through its project, as the caller may see it, and counts shown with issues.
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import { RecordNotFoundError } from '../platform/errors.js';
import { canOnProject, canReadIssue, type PolicySubject } from '../platform/auth/policies/index.js';
import type { IssueRow } from './entities.js';
import type { ConfidentialScope } from './issues-queries.js';
import { ASSIGNEE_IDS_COLUMN, issueWithAssigneesOf } from './issue-lookup-queries.js';

/**
 * Which confidential issues a one-project listing shows: all of them to callers holding
 * read_confidential_issues, otherwise only those the caller opened or is assigned to (issue-policy.ts).
 */
export function confidentialScope(access: PolicySubject): ConfidentialScope {
  return canOnProject(access, 'read_confidential_issues') ? { all: true } : { userId: access.user?.id ?? null };
}

/** An issue looked up through its project (docs/architecture.md), whether or not the caller may read it. */
export async function findIssue(db: Executor, projectId: number, iid: number): Promise<IssueRow> {
  const issue = await db.selectFrom('issues').selectAll().where('project_id', '=', projectId).where('iid', '=', iid).executeTakeFirst();
  if (!issue) throw new RecordNotFoundError();
  return issue;
}

/** An issue by its id (a group board's card names it so), whether or not the caller may read it. */
export async function findIssueById(db: Executor, id: number): Promise<IssueRow> {
  const issue = await db.selectFrom('issues').selectAll().where('id', '=', id).executeTakeFirst();
  if (!issue) throw new RecordNotFoundError();
  return issue;
}

export async function assigneeIdsOf(db: Executor, issueId: number): Promise<number[]> {
  const rows = await db.selectFrom('issue_assignees').select('user_id').where('issue_id', '=', issueId).orderBy('user_id').execute();
  return rows.map((row) => Number(row.user_id));
}

/** An issue with its assignees, as the issue policy needs it. */
export type PolicyIssue = IssueRow & { assigneeIds: number[] };

/**
 * An issue the caller may read, with its assignees. One they may not (a confidential issue neither
 * theirs nor assigned to them) answers exactly as a missing one, `404 Not found`, as GitLab's
 * IssuesFinder does: a different answer would tell strangers which iids are confidential.
 */
export async function findReadableIssue(deps: Deps, access: PolicySubject & { project: { id: number } }, iid: number): Promise<PolicyIssue> {
  const [row] = await deps.reads.all<IssueRow & { [ASSIGNEE_IDS_COLUMN]: string }>(issueWithAssigneesOf(deps.dialect, Number(access.project.id), iid));
  if (!row) throw new RecordNotFoundError();
  const { [ASSIGNEE_IDS_COLUMN]: assignees, ...issue } = row;
  const facts: PolicyIssue = Object.assign(issue, { assigneeIds: (JSON.parse(assignees) as Array<number | string>).map(Number) });
  if (!canReadIssue(access, facts)) throw new RecordNotFoundError();
  return facts;
}

