// The messages a page may show, as one raw read for the row cache (messages.ts
// `currentBroadcastMessages`): every page render asks for them.
import { q, type Statement } from '../platform/db/statements.js';
import type { CachedTable } from '../platform/db/reads.js';

export const BROADCAST_TABLES: readonly CachedTable[] = ['broadcast_messages'];

/** Messages not ended by `since`, oldest first: the caller keeps those that have started. */
export function messagesEndingAfter(since: number, limit: number): Statement {
  return q`select * from broadcast_messages where ends_at >= ${since} order by id asc limit ${limit}`;
}
