// The rate limit's one statement (rate-limit.ts): count a hit in its window, atomically on both dialects.
import { sql } from 'kysely';

/** Count one hit for `key` in the window starting at `windowStart` (a new window starts at 1). */
export function countHit(key: string, windowStart: number) {
  return sql<{ count: number; window_start: number }>`
    insert into rate_limits (key, window_start, count) values (${key}, ${windowStart}, 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start = excluded.window_start then rate_limits.count + 1 else 1 end,
      window_start = excluded.window_start
    returning count, window_start`;
}
