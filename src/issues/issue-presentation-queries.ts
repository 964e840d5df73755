// What an issue entity shows besides its row, for a page of issues in one statement: its assignees,
// labels, user notes, thumbs up and down, time spent, the users it names (author, closer, assignees),
// and the viewer's explicit subscription row (the rest of `subscribed` needs comments only when the
// issue has some: notifications/subscribed-issues.ts).
// Why one raw statement: read through the query builder these were five or six statements per page,
// each ~10 µs of building and compiling beside its few µs in the database, and on PostgreSQL as many
// round trips (docs/performance.md). Each value is a correlated subquery of one issue, read by the
// indexes the tables already have (assignees and label links by issue, notes and awards by their
// subject), so the statement's cost grows with the page, not with the tables.
import { q, templateOf, type Statement } from '../platform/db/statements.js';
import type { Dialect } from '../platform/db/database.js';

/** One issue's row of `issueLinksOf`: JSON texts of arrays, and counts (text or number by driver). */
export interface IssueLinksRow {
  id: number | string;
  /** `[user_id, …]` in assignment order (by user id, as before). */
  assignees: string;
  /** `[[id, title, color, description, archived], …]` by title, then id. */
  labels: string;
  /** `[[id, username, name, state], …]`: the author, the closer and the assignees. */
  users: string;
  notes: number | string;
  upvotes: number | string;
  downvotes: number | string;
  /** Seconds spent in all (the sum of its timelogs; null or text by driver). */
  time_spent: number | string | null;
  /** The viewer's subscription row: 1 subscribed, 0 unsubscribed, null none (or no viewer). */
  subscribed: number | string | null;
}

/** The link columns of the issue `i` (placeholders: upvote, downvote, viewer). */
function columns(dialect: Dialect): string {
  const array = (order: string, ...columns: string[]) =>
    dialect === 'postgres'
      ? `coalesce(json_agg(${columns.length === 1 ? columns[0] : `json_build_array(${columns.join(', ')})`} order by ${order})::text, '[]')`
      : `json_group_array(${columns.length === 1 ? columns[0] : `json_array(${columns.join(', ')})`} order by ${order})`;
  const count = (from: string) => `(select count(*) from ${from})`;
  return `(select ${array('a.user_id', 'a.user_id')} from issue_assignees a where a.issue_id = i.id) as assignees,
  (select ${array('l.title, l.id', 'l.id', 'l.title', 'l.color', 'l.description', 'l.archived')}
     from label_links ll join labels l on l.id = ll.label_id where ll.issue_id = i.id) as labels,
  (select ${array('u.id', 'u.id', 'u.username', 'u.name', 'u.state', 'u.avatar')} from users u where u.id in (
     select i.author_id union select i.closed_by_id union select a.user_id from issue_assignees a where a.issue_id = i.id)) as users,
  ${count(`notes n where n.noteable_type = 'Issue' and n.noteable_id = i.id and n.system = 0`)} as notes,
  ${count(`award_emoji e where e.awardable_type = 'Issue' and e.awardable_id = i.id and e.name = \u0000`)} as upvotes,
  ${count(`award_emoji e where e.awardable_type = 'Issue' and e.awardable_id = i.id and e.name = \u0000`)} as downvotes,
  (select sum(t.time_spent) from timelogs t where t.issue_id = i.id) as time_spent,
  (select s.subscribed from subscriptions s where s.subscribable_type = 'Issue' and s.subscribable_id = i.id and s.user_id = \u0000) as subscribed`;
}

function text(dialect: Dialect): string[] {
  // The ids arrive as one value, so every page size shares one statement text. On PostgreSQL an array
  // compared with `= any`: the planner knows its length and walks the primary key, where a set-returning
  // function over JSON is guessed at 100 rows and joined by hashing every issue of the table (a
  // sequential scan of 12,000 issues, ~10 ms, for each issue read of the realistic mix).
  const ids = dialect === 'postgres' ? `= any(cast(\u0000 as bigint[]))` : `in (select value from json_each(\u0000))`;
  return `select i.id, ${columns(dialect)}
from issues i where i.id ${ids}`.split('\u0000');
}

/** One issue by its project and iid, its row and its links in one row (a single issue's read: finder.ts). */
function oneText(dialect: Dialect): string[] {
  return `select i.*, ${columns(dialect)}
from issues i where i.project_id = \u0000 and i.iid = \u0000`.split('\u0000');
}

const templates = { sqlite: templateOf(text('sqlite')), postgres: templateOf(text('postgres')) };
const oneTemplates = { sqlite: templateOf(oneText('sqlite')), postgres: templateOf(oneText('postgres')) };

/**
 * The issue `iid` of project `projectId` with its links as `issueLinksOf` reads them (no row when there
 * is none): one statement for reading one issue, whether or not the caller may see it.
 */
export function issueWithLinksOf(dialect: Dialect, projectId: number, iid: number, upvote: string, downvote: string, viewerId: number | null): Statement {
  return q(oneTemplates[dialect], upvote, downvote, viewerId, projectId, iid);
}

/**
 * The links of the issues `ids` (a row per issue that exists, in no order); awards named `upvote` and
 * `downvote` are counted; `viewerId`'s subscription rows are read (none for null).
 */
export function issueLinksOf(dialect: Dialect, ids: readonly number[], upvote: string, downvote: string, viewerId: number | null): Statement {
  // node-postgres binds a JavaScript array as a PostgreSQL array; SQLite reads the JSON text.
  return q(templates[dialect], upvote, downvote, viewerId, dialect === 'postgres' ? ids : JSON.stringify(ids));
}
