// Retention (specification, Limits: activity events are kept 2 years; KILN_EVENT_RETENTION_DAYS): delete
// older events in small batches, each its own short statement, yielding between batches so a synchronous
// SQLite database keeps serving requests while a large backlog is removed.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Deps } from '../platform/deps.js';
import { DAY_MS } from '../platform/clock.js';

export const PRUNE_EVENTS_JOB = 'events:prune';
export const PRUNE_BATCH = 1000;

/** Delete every event created before the retention cutoff; returns how many were deleted. */
export async function pruneEvents(deps: Deps, batchSize = PRUNE_BATCH): Promise<number> {
  const cutoff = deps.clock.now() - deps.config.eventRetentionDays * DAY_MS;
  let total = 0;
  for (;;) {
    // The (created_at) index finds the oldest rows; deleting by id keeps each statement bounded.
    const batch = deps.db.selectFrom('events').select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(batchSize);
    const result = await deps.db.deleteFrom('events').where('id', 'in', batch).executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    if (deleted < batchSize) return total;
    await yieldToEventLoop();
  }
}
