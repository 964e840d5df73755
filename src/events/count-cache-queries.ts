// The watermark of count-cache.ts: the newest event's id.
import { q } from '../platform/db/statements.js';

/** One statement object for every call: it has no values. */
export const NEWEST_EVENT = q`select max(id) as id from events`;
