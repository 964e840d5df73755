// What decides the `subscribed` of a page of issues or merge requests for one user, in one statement
// (subscribed-issues.ts): their explicit subscription rows, and their comments that the user wrote or
// that may mention them (the mention rule confirms it). Two statements through the query builder
// before, on every request for an issue; building them cost more CPU than running them. An issue's
// explicit row comes with its links (issues/issue-presentation-queries.ts), so issues ask for the
// comments alone, and only of those that have some.
import { q, templateOf, type Statement } from '../platform/db/statements.js';
import type { Dialect } from '../platform/db/database.js';

/** An explicit subscription (`subscribed` 0 or 1, no note) or a candidate comment (`subscribed` null). */
export interface SubscriptionFactRow {
  thread_id: number | string;
  subscribed: number | null;
  author_id: number | string | null;
  body: string | null;
}

// The ids arrive as one JSON text, so every page size shares one statement text.
const ids = (dialect: Dialect) => (dialect === 'postgres' ? `select value::bigint from json_array_elements_text(cast(\u0000 as json))` : `select value from json_each(\u0000)`);

const comments = (dialect: Dialect) => `select n.noteable_id as thread_id, null as subscribed, n.author_id, n.body
from notes n where n.noteable_type = \u0000 and n.noteable_id in (${ids(dialect)}) and n.system = 0
  and (n.author_id = \u0000 or lower(n.body) like \u0000 escape '\\')`;

function text(dialect: Dialect): string[] {
  return `select s.subscribable_id as thread_id, s.subscribed, null as author_id, null as body
from subscriptions s where s.subscribable_type = \u0000 and s.user_id = \u0000 and s.subscribable_id in (${ids(dialect)})
union all
${comments(dialect)}`.split('\u0000');
}

const templates = { sqlite: templateOf(text('sqlite')), postgres: templateOf(text('postgres')) };
const commentTemplates = { sqlite: templateOf(comments('sqlite').split('\u0000')), postgres: templateOf(comments('postgres').split('\u0000')) };

/** The facts for `userId` on the threads `ids` of `type`; `mention` is the lower-case LIKE pattern of `@username`. */
export function subscriptionFactsOf(dialect: Dialect, type: 'Issue' | 'MergeRequest', userId: number, ids: readonly number[], mention: string): Statement {
  const json = JSON.stringify(ids);
  return q(templates[dialect], type, userId, json, type, json, userId, mention);
}

/** The candidate comments alone (`subscribed` null in every row), for threads whose explicit rows are known. */
export function subscriptionCommentsOf(dialect: Dialect, type: 'Issue' | 'MergeRequest', userId: number, ids: readonly number[], mention: string): Statement {
  return q(commentTemplates[dialect], type, JSON.stringify(ids), userId, mention);
}
