// What decides the `subscribed` of a page of issues or merge requests for one user, in one statement
// (subscribed-issues.ts): their explicit subscription rows, and their comments that the user wrote or
// that may mention them (the mention rule confirms it). Two statements through the query builder
// before, on every request for an issue; building them cost more CPU than running them.
import { q, templateOf, type Statement } from '../platform/db/statements.js';
import type { Dialect } from '../platform/db/database.js';

/** An explicit subscription (`subscribed` 0 or 1, no note) or a candidate comment (`subscribed` null). */
export interface SubscriptionFactRow {
  thread_id: number | string;
  subscribed: number | null;
  author_id: number | string | null;
  body: string | null;
}

function text(dialect: Dialect): string[] {
  // The ids arrive as one JSON text, so every page size shares one statement text.
  const ids = dialect === 'postgres' ? `select value::bigint from json_array_elements_text(cast(\u0000 as json))` : `select value from json_each(\u0000)`;
  return `select s.subscribable_id as thread_id, s.subscribed, null as author_id, null as body
from subscriptions s where s.subscribable_type = \u0000 and s.user_id = \u0000 and s.subscribable_id in (${ids})
union all
select n.noteable_id, null, n.author_id, n.body
from notes n where n.noteable_type = \u0000 and n.noteable_id in (${ids}) and n.system = 0
  and (n.author_id = \u0000 or lower(n.body) like \u0000 escape '\\')`.split('\u0000');
}

const templates = { sqlite: templateOf(text('sqlite')), postgres: templateOf(text('postgres')) };

/** The facts for `userId` on the threads `ids` of `type`; `mention` is the lower-case LIKE pattern of `@username`. */
export function subscriptionFactsOf(dialect: Dialect, type: 'Issue' | 'MergeRequest', userId: number, ids: readonly number[], mention: string): Statement {
  const json = JSON.stringify(ids);
  return q(templates[dialect], type, userId, json, type, json, userId, mention);
}
