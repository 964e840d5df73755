import type { Deps } from '../platform/deps.js';
import { RecordNotFoundError } from '../platform/errors.js';
import type { IssueRow } from './entities.js';

export interface IssueFilters {
  state?: 'opened' | 'closed' | 'all';
  issueType?: 'issue' | 'incident';
  search?: string;
  sort?: 'asc' | 'desc';
}

export function projectIssuesQuery(deps: Deps, projectId: number, filters: IssueFilters) {
  let query = deps.db.selectFrom('issues').selectAll().where('project_id', '=', projectId);
  if (filters.state && filters.state !== 'all') query = query.where('state', '=', filters.state);
  if (filters.issueType) query = query.where('issue_type', '=', filters.issueType);
  if (filters.search) {
    const pattern = `%${filters.search.toLowerCase()}%`;
    query = query.where((eb) => eb.or([eb(eb.fn('lower', ['title']), 'like', pattern), eb(eb.fn('lower', ['description']), 'like', pattern)]));
  }
  return query.orderBy('id', filters.sort ?? 'desc');
}

/** An issue looked up through its project (STYLE.md rule 5). */
export async function findIssue(deps: Deps, projectId: number, iid: number): Promise<IssueRow> {
  const issue = await deps.db.selectFrom('issues').selectAll().where('project_id', '=', projectId).where('iid', '=', iid).executeTakeFirst();
  if (!issue) throw new RecordNotFoundError();
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
