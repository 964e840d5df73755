// A durable job queue in the application database (ARCHITECTURE.md, Background jobs): enqueue inside
// the transaction that needs the work, claim atomically, retry with backoff, a visible dead state.
import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { q, sqlRunner, type SqlTarget } from '../db/reads.js';
import type { Clock } from '../clock.js';

export interface EnqueueOptions {
  runAt?: number;
  maxAttempts?: number;
}

export interface ClaimedJob {
  id: number;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

/**
 * Jobs carry ids only (STYLE.md rule 7); the payload is a small JSON object. `target` is the
 * transaction that needs the work (raw SQL: alerts enqueue incidents on their endpoint's path).
 */
export async function enqueue(target: SqlTarget, clock: Clock, kind: string, payload: Record<string, unknown>, options: EnqueueOptions = {}): Promise<number> {
  const now = clock.now();
  const [row] = await sqlRunner(target).all<{ id: number }>(q`
    insert into jobs (kind, payload, state, run_at, max_attempts, lease_until, locked_by, last_error, created_at, updated_at)
    values (${kind}, ${JSON.stringify(payload)}, 'queued', ${options.runAt ?? now}, ${options.maxAttempts ?? 10}, null, null, null, ${now}, ${now})
    returning id`);
  return Number(row.id);
}

/**
 * Claim the next due job, or a running one whose lease expired (its worker died: kill -9).
 * One UPDATE … RETURNING; on PostgreSQL the candidate row is locked with SKIP LOCKED so nodes never
 * claim the same job; SQLite serialises writers, so the same statement is atomic there.
 */
export async function claimNext(executor: Executor, dialect: 'sqlite' | 'postgres', clock: Clock, workerId: string, leaseMs: number, kinds: string[]): Promise<ClaimedJob | null> {
  if (kinds.length === 0) return null;
  const now = clock.now();
  const lock = dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const { rows } = await sql<ClaimedJob & { payload: string }>`
    update jobs set state = 'running', attempts = attempts + 1, lease_until = ${now + leaseMs},
      locked_by = ${workerId}, updated_at = ${now}
    where id = (
      select id from jobs
      where kind in (${sql.join(kinds)})
        and ((state = 'queued' and run_at <= ${now}) or (state = 'running' and lease_until < ${now}))
      order by run_at, id limit 1 ${lock}
    )
    returning id, kind, payload, attempts, max_attempts`.execute(executor);
  const row = rows[0];
  if (!row) return null;
  return { ...row, id: Number(row.id), payload: JSON.parse(row.payload) };
}

export async function markDone(executor: Executor, clock: Clock, job: ClaimedJob, workerId: string): Promise<void> {
  await executor
    .updateTable('jobs')
    .set({ state: 'done', lease_until: null, updated_at: clock.now() })
    .where('id', '=', job.id)
    .where('locked_by', '=', workerId)
    .execute();
}

/** Exponential backoff with a ceiling; after max_attempts the job is dead and stays visible. */
export function backoffMs(attempts: number): number {
  return Math.min(1000 * 2 ** (attempts - 1), 10 * 60_000);
}

export async function markFailed(executor: Executor, clock: Clock, job: ClaimedJob, workerId: string, error: unknown): Promise<void> {
  const now = clock.now();
  const dead = job.attempts >= job.max_attempts;
  await executor
    .updateTable('jobs')
    .set({
      state: dead ? 'dead' : 'queued',
      run_at: dead ? now : now + backoffMs(job.attempts),
      lease_until: null,
      last_error: String((error as Error)?.stack ?? error).slice(0, 4000),
      updated_at: now,
    })
    .where('id', '=', job.id)
    .where('locked_by', '=', workerId)
    .execute();
}
