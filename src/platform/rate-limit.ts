// Fixed-window rate limits counted in the database, so every node shares the count.
import { sql } from 'kysely';
import type { Executor } from './db/database.js';
import type { Clock } from './clock.js';

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

/** Count one hit for `key`; returns whether it is within the limit and the seconds until the window resets. */
export async function hit(executor: Executor, clock: Clock, key: string, rule: RateLimitRule): Promise<{ allowed: boolean; retryAfter: number }> {
  const now = clock.now();
  const windowStart = now - (now % rule.windowMs);
  const { rows } = await sql<{ count: number; window_start: number }>`
    insert into rate_limits (key, window_start, count) values (${key}, ${windowStart}, 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start = excluded.window_start then rate_limits.count + 1 else 1 end,
      window_start = excluded.window_start
    returning count, window_start`.execute(executor);
  const count = Number(rows[0].count);
  return { allowed: count <= rule.limit, retryAfter: Math.ceil((windowStart + rule.windowMs - now) / 1000) };
}
