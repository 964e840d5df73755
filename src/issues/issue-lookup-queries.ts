// An issue with its assignees' ids in one statement: what the issue policy needs to decide whether
// the caller may read it (finder.ts). Through the query builder they were two statements on every
// request for one issue, each costing more CPU to build and compile than SQLite spends running it
// (docs/performance.md).
import { q, templateOf, type Statement } from '../platform/db/statements.js';
import type { Dialect } from '../platform/db/database.js';

/** The column the assignees' ids arrive in: a JSON array text, by user id. */
export const ASSIGNEE_IDS_COLUMN = 'kiln_assignee_ids';

function text(dialect: Dialect): string[] {
  const ids = dialect === 'postgres' ? `coalesce(json_agg(a.user_id order by a.user_id)::text, '[]')` : `json_group_array(a.user_id order by a.user_id)`;
  return `select i.*, (select ${ids} from issue_assignees a where a.issue_id = i.id) as ${ASSIGNEE_IDS_COLUMN}
from issues i where i.project_id = \u0000 and i.iid = \u0000`.split('\u0000');
}

const templates = { sqlite: templateOf(text('sqlite')), postgres: templateOf(text('postgres')) };

/** The issue `iid` of project `projectId` (no row when there is none), with ASSIGNEE_IDS_COLUMN. */
export function issueWithAssigneesOf(dialect: Dialect, projectId: number, iid: number): Statement {
  return q(templates[dialect], projectId, iid);
}
