// The failed-attempt counter of check-password.ts: one atomic UPDATE whose new values depend on the
// row's current ones, which the query builder can only write as raw expressions.
import { sql } from 'kysely';

/** `failed_attempts` after one more failure: a lock that has run out starts the count again. */
export function failedAttemptsAfterFailure(now: number) {
  return sql<number>`case when locked_until is not null and locked_until <= ${now} then 1 else failed_attempts + 1 end`;
}

/** `locked_until` after one more failure: the attempt that reaches `maxAttempts` locks until `lockUntil`. */
export function lockedUntilAfterFailure(now: number, maxAttempts: number, lockUntil: number) {
  return sql<number | null>`case when locked_until is not null and locked_until <= ${now} then null when failed_attempts + 1 >= ${maxAttempts} then ${lockUntil} else locked_until end`;
}
