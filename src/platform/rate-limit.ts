// Fixed-window rate limits counted in the database, so every node shares the count.
import type { FastifyReply } from 'fastify';
import type { Executor } from './db/database.js';
import type { Clock } from './clock.js';
import { countHit } from './rate-limit-queries.js';

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export interface RateLimitHit {
  allowed: boolean;
  /** Seconds until the window resets. */
  retryAfter: number;
  /** Hits counted in this window, this one included. */
  count: number;
  /** When the window resets (ms since the epoch). */
  resetAt: number;
}

/** Count one hit for `key`; returns whether it is within the limit and the seconds until the window resets. */
export async function hit(executor: Executor, clock: Clock, key: string, rule: RateLimitRule): Promise<RateLimitHit> {
  const now = clock.now();
  const windowStart = now - (now % rule.windowMs);
  const resetAt = windowStart + rule.windowMs;
  const { rows } = await countHit(key, windowStart, resetAt).execute(executor);
  const count = Number(rows[0].count);
  return { allowed: count <= rule.limit, retryAfter: Math.ceil((resetAt - now) / 1000), count, resetAt };
}

/** A request a throttle refused: which throttle, its limit per period, and the window's count and end. */
export interface Throttled {
  name: string;
  limit: number;
  periodSeconds: number;
  hit: RateLimitHit;
}

/**
 * GitLab's answer to a throttled request (Rack::Attack's throttled responder): 429, the plain text
 * "Retry later", Retry-After and the RateLimit-* headers, the limit given per minute as GitLab does.
 */
export function sendThrottled(reply: FastifyReply, throttled: Throttled): FastifyReply {
  const { name, limit, periodSeconds, hit: counted } = throttled;
  return reply
    .code(429)
    .header('retry-after', String(counted.retryAfter))
    .header('ratelimit-name', name)
    .header('ratelimit-limit', String(Math.ceil((limit * 60) / periodSeconds)))
    .header('ratelimit-observed', String(counted.count))
    .header('ratelimit-remaining', String(Math.max(0, limit - counted.count)))
    .header('ratelimit-reset', String(Math.ceil(counted.resetAt / 1000)))
    .header('content-type', 'text/plain')
    .send('Retry later\n');
}
