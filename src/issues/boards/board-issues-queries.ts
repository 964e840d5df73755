// The issues each list of a board shows (GitLab's Boards::Issues::ListService): Open holds the open
// issues with none of the board's list labels, a label list the open issues with its label, Closed
// the closed issues. The board's scope gives the issues the viewer may read (one project's, or those
// of a group's projects); newest first, a page each.
import { sql, type SqlBool } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { IssueQuery } from '../issues-queries.js';
import type { IssueRow } from '../entities.js';
import type { ListKey } from './move-issue.js';

export const SHOWN_PER_LIST = 20;

export interface ListIssues {
  rows: IssueRow[];
  /** How many the list holds, up to 1,000 (counted with a bound, as every list in Kiln is). */
  count: number;
}

/** `readable`: the issues of the board's scope in a state that the viewer may read. `key`: a label list by its label's id. */
export async function issuesOfList(deps: Deps, readable: (state: 'opened' | 'closed') => IssueQuery, key: ListKey, boardLabelIds: number[]): Promise<ListIssues> {
  let query = readable(key === 'closed' ? 'closed' : 'opened');
  if (typeof key === 'number') {
    query = query.where(sql<SqlBool>`exists (select 1 from label_links ll where ll.issue_id = i.id and ll.label_id = ${key})`);
  } else if (key === 'open' && boardLabelIds.length) {
    query = query.where(sql<SqlBool>`not exists (select 1 from label_links ll where ll.issue_id = i.id and ll.label_id in (${sql.join(boardLabelIds)}))`);
  }
  const [rows, counted] = await Promise.all([
    query.limit(SHOWN_PER_LIST).execute(),
    deps.db.selectFrom(query.clearOrderBy().clearSelect().select('i.id').limit(1000).as('capped')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, count: Number(counted?.n ?? 0) };
}
