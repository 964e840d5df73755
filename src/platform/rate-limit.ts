// Fixed-window rate limits counted in the database, so every node shares the count.
import type { Executor } from './db/database.js';
import type { Clock } from './clock.js';
import { countHit } from './rate-limit-queries.js';

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

/** Count one hit for `key`; returns whether it is within the limit and the seconds until the window resets. */
export async function hit(executor: Executor, clock: Clock, key: string, rule: RateLimitRule): Promise<{ allowed: boolean; retryAfter: number }> {
  const now = clock.now();
  const windowStart = now - (now % rule.windowMs);
  const { rows } = await countHit(key, windowStart).execute(executor);
  const count = Number(rows[0].count);
  return { allowed: count <= rule.limit, retryAfter: Math.ceil((windowStart + rule.windowMs - now) / 1000) };
}
