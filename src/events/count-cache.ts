// X-Total for event listings without recounting every matching row on every request. Events are
// append-only (retention deletes only old ones), so a count taken up to a watermark id stays right for
// the rows below it: later requests count only the events added since (an index range on id) and add
// them. What can make a cached count stale: retention pruning on another node, a project turning
// private, an issue turning confidential; entries therefore expire after a minute, and this node's own
// pruning clears them. Membership changes never go stale: the viewer's projects are part of the SQL.
// Pages themselves are always read fresh; only the X-Total figure is cached (docs/architecture.md: caches
// are safe to be stale). GitLab's own X-Total for events is looser still (§5.2: counted before filtering).
import type { SelectQueryBuilder } from 'kysely';
import type { Deps } from '../platform/deps.js';
import { BoundedMap } from '../platform/bounded-map.js';
import { cacheSlot } from '../platform/instance-caches.js';
import { NEWEST_EVENT } from './count-cache-queries.js';
import { boundedCount, COUNT_LIMIT } from '../platform/http/pagination.js';

interface Entry {
  count: number | null;
  watermark: number;
  countedAt: number;
}

export const COUNT_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
// Least recently used first out (refresh on every hit).
const COUNTS = cacheSlot('events.counts', () => new BoundedMap<string, Entry>(MAX_ENTRIES));

/**
 * Bounded count (null above COUNT_LIMIT) of a listing over `events as e`. `key` names the listing: equal
 * keys must mean equal SQL (the finder derives it from the listing's inputs, which is cheaper than
 * compiling the query).
 */
export async function countEvents(deps: Deps, key: string, matching: SelectQueryBuilder<any, any, any>): Promise<number | null> {
  const cache = deps.caches.of(COUNTS);
  const [top] = await deps.reads.all<{ id: number | null }>(NEWEST_EVENT);
  const watermark = Number(top?.id ?? 0);
  const now = deps.clock.now();
  const entry = cache.get(key);
  if (entry && now - entry.countedAt < COUNT_TTL_MS && entry.watermark <= watermark) {
    if (entry.count === null || entry.watermark === watermark) {
      cache.refresh(key);
      return entry.count;
    }
    const added = await boundedCount(deps.db, deps.reads, matching.where('e.id', '>', entry.watermark).where('e.id', '<=', watermark));
    const total = added === null ? null : entry.count + added;
    const count = total === null || total > COUNT_LIMIT ? null : total;
    cache.delete(key);
    cache.set(key, { count, watermark, countedAt: entry.countedAt });
    return count;
  }
  const count = await boundedCount(deps.db, deps.reads, matching.where('e.id', '<=', watermark));
  cache.delete(key);
  cache.set(key, { count, watermark, countedAt: now });
  return count;
}

/** After deleting events here (retention), recount from scratch. */
export function forgetEventCounts(deps: Deps): void {
  deps.caches.of(COUNTS).clear();
}
