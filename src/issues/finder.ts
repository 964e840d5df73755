import type { Deps } from '../platform/deps.js';
import { RecordNotFoundError } from '../platform/errors.js';
import { canOnProject, canReadIssue, type PolicySubject } from '../platform/auth/policies/index.js';
import type { IssueRow } from './entities.js';

export interface IssueFilters {
  state?: 'opened' | 'closed' | 'all';
  issueType?: 'issue' | 'incident';
  search?: string;
  sort?: 'asc' | 'desc';
}

/**
 * Which confidential issues a listing shows: all of them to callers holding read_confidential_issues,
 * otherwise only those the caller opened (issue-policy.ts; assignees join here once issues have them).
 */
export type ConfidentialScope = { all: true } | { authorId: number | null };

export function confidentialScope(access: PolicySubject): ConfidentialScope {
  return canOnProject(access, 'read_confidential_issues') ? { all: true } : { authorId: access.user?.id ?? null };
}

/** A project's issues the caller may read, filtered in SQL so pages are full and X-Total is right. */
export function projectIssuesQuery(deps: Deps, projectId: number, scope: ConfidentialScope, filters: IssueFilters) {
  let query = deps.db.selectFrom('issues').selectAll().where('project_id', '=', projectId);
  if (!('all' in scope)) {
    const { authorId } = scope;
    query = query.where((eb) => (authorId === null ? eb('confidential', '=', 0) : eb.or([eb('confidential', '=', 0), eb('author_id', '=', authorId)])));
  }
  if (filters.state && filters.state !== 'all') query = query.where('state', '=', filters.state);
  if (filters.issueType) query = query.where('issue_type', '=', filters.issueType);
  if (filters.search) {
    const pattern = `%${filters.search.toLowerCase()}%`;
    query = query.where((eb) => eb.or([eb(eb.fn('lower', ['title']), 'like', pattern), eb(eb.fn('lower', ['description']), 'like', pattern)]));
  }
  return query.orderBy('id', filters.sort ?? 'desc');
}

/** An issue looked up through its project (STYLE.md rule 5), whether or not the caller may read it. */
export async function findIssue(deps: Deps, projectId: number, iid: number): Promise<IssueRow> {
  const issue = await deps.db.selectFrom('issues').selectAll().where('project_id', '=', projectId).where('iid', '=', iid).executeTakeFirst();
  if (!issue) throw new RecordNotFoundError();
  return issue;
}

/**
 * An issue the caller may read. One they may not (a confidential issue of someone else's) answers
 * exactly as a missing one, `404 Not found`, as GitLab's IssuesFinder does: a different answer would
 * tell strangers which iids are confidential.
 */
export async function findReadableIssue(deps: Deps, access: PolicySubject & { project: { id: number } }, iid: number): Promise<IssueRow> {
  const issue = await findIssue(deps, access.project.id, iid);
  if (!canReadIssue(access, issue)) throw new RecordNotFoundError();
  return issue;
}

export async function notesCounts(deps: Deps, issueIds: number[]): Promise<Map<number, number>> {
  if (issueIds.length === 0) return new Map();
  const rows = await deps.db
    .selectFrom('notes')
    .select(['noteable_id', deps.db.fn.countAll<number>().as('n')])
    .where('noteable_type', '=', 'Issue')
    .where('noteable_id', 'in', issueIds)
    .where('system', '=', 0)
    .groupBy('noteable_id')
    .execute();
  return new Map(rows.map((row) => [Number(row.noteable_id), Number(row.n)]));
}
