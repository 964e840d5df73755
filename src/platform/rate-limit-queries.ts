// The rate limit's one statement (rate-limit.ts): count a hit in its window, atomically on both dialects.
import { sql } from 'kysely';

/**
 * Count one hit for `key` in the window starting at `windowStart` and ending at `windowEnd` (a new
 * window starts at 1); the row expires with the window (housekeeping prunes it after).
 */
export function countHit(key: string, windowStart: number, windowEnd: number) {
  return sql<{ count: number; window_start: number }>`
    insert into rate_limits (key, window_start, count, expires_at) values (${key}, ${windowStart}, 1, ${windowEnd})
    on conflict (key) do update set
      count = case when rate_limits.window_start = excluded.window_start then rate_limits.count + 1 else 1 end,
      window_start = excluded.window_start,
      expires_at = excluded.expires_at
    returning count, window_start`;
}
