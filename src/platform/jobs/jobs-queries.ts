// The job queue's raw statements (queue.ts, daily.ts, housekeeping.ts).
import { sql } from 'kysely';
import { q, type Statement } from '../db/statements.js';
import type { Dialect } from '../db/database.js';

export interface NewJob {
  kind: string;
  payload: string;
  runAt: number;
  maxAttempts: number;
  now: number;
}

/** Raw, so that a group-commit work (the alert endpoint's) can enqueue too. */
export function insertJob(job: NewJob): Statement {
  return q`
    insert into jobs (kind, payload, state, run_at, max_attempts, lease_until, locked_by, last_error, created_at, updated_at)
    values (${job.kind}, ${job.payload}, 'queued', ${job.runAt}, ${job.maxAttempts}, null, null, null, ${job.now}, ${job.now})
    returning id`;
}

/**
 * One UPDATE … RETURNING; on PostgreSQL the candidate rows are locked with SKIP LOCKED so nodes never
 * claim the same job; SQLite serialises writers, so the same statement is atomic there.
 *
 * The first due job and the first expired lease are found apart, each by walking the `jobs_claim`
 * index in claim order and stopping at the first row, and the earlier of the two is claimed. One
 * condition with an OR made both databases collect every due job and sort them: with a backlog of
 * 5,700 queued jobs a claim cost ~0.9 ms on SQLite, growing with the backlog; this costs ~7 µs.
 */
export function claimNextJob<Row>(dialect: Dialect, kinds: string[], workerId: string, now: number, leaseMs: number) {
  const lock = dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const kindList = sql.join(kinds);
  return sql<Row>`
    update jobs set state = 'running', attempts = attempts + 1, lease_until = ${now + leaseMs},
      locked_by = ${workerId}, updated_at = ${now}
    where id = (
      select id from (
        select * from (
          select id, run_at from jobs where state = 'queued' and run_at <= ${now} and kind in (${kindList})
          order by run_at, id limit 1 ${lock}) as due
        union all
        select * from (
          select id, run_at from jobs where state = 'running' and lease_until < ${now} and kind in (${kindList})
          order by run_at, id limit 1 ${lock}) as expired
      ) as candidates
      order by run_at, id limit 1
    )
    returning id, kind, payload, attempts, max_attempts`;
}

/** A transaction-scoped advisory lock (PostgreSQL) serialising the scheduling of one kind. */
export function schedulingLock(lockKey: number, kind: string) {
  return sql`select pg_advisory_xact_lock(${lockKey}, hashtext(${kind}))`;
}

/** Queue `kind` at `runAt` unless a job of the kind is in one of `states`: the check and the insert are one statement. */
export function insertJobUnlessPending(kind: string, runAt: number, states: string[], now: number) {
  return sql`
      insert into jobs (kind, payload, state, run_at, attempts, max_attempts, lease_until, locked_by, last_error, created_at, updated_at)
      select ${kind}, '{}', 'queued', ${runAt}, 0, 10, null, null, null, ${now}, ${now}
      where not exists (select 1 from jobs where kind = ${kind} and state in (${sql.join(states)}))`;
}

/** When an OAuth access token expires (created_at + expires_in seconds), for housekeeping. */
export function tokenExpiry() {
  return sql<number>`created_at + expires_in * 1000`;
}
