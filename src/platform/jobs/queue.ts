// A durable job queue in the application database (docs/architecture.md, Background jobs): enqueue inside
// the transaction that needs the work, claim atomically, retry with backoff, a visible dead state.
import { inTransaction, type Executor } from '../db/database.js';
import type { Tx } from '../db/statements.js';
import type { Clock } from '../clock.js';
import { claimNextJob, insertJob } from './jobs-queries.js';

/** Jobs enqueued by this process (committed or not): whoever wakes the worker after an event checks it moved. */
let enqueued = 0;

/**
 * How many jobs this process has asked to enqueue so far. A count, not a cache: it only decides
 * whether a wake is worth sending; the worker's poll finds every committed job either way.
 */
export function jobsEnqueued(): number {
  return enqueued;
}

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
 * Jobs carry ids only (docs/architecture.md); the payload is a small JSON object. `target` is the
 * transaction that needs the work (a builder transaction, or a group-commit work: alerts enqueue
 * incidents on their endpoint's path), or the database for a job of its own.
 */
export async function enqueue(target: Tx | Executor, clock: Clock, kind: string, payload: Record<string, unknown>, options: EnqueueOptions = {}): Promise<number> {
  enqueued += 1;
  const now = clock.now();
  const statement = insertJob({ kind, payload: JSON.stringify(payload), runAt: options.runAt ?? now, maxAttempts: options.maxAttempts ?? 10, now });
  const [row] = 'all' in target ? await target.all<{ id: number }>(statement) : await inTransaction(target, (trx) => trx.all<{ id: number }>(statement));
  return Number(row.id);
}

/** Claim the next due job, or a running one whose lease expired (its worker died: kill -9). */
export async function claimNext(executor: Executor, dialect: 'sqlite' | 'postgres', clock: Clock, workerId: string, leaseMs: number, kinds: string[]): Promise<ClaimedJob | null> {
  if (kinds.length === 0) return null;
  const now = clock.now();
  const { rows } = await claimNextJob<ClaimedJob & { payload: string }>(dialect, kinds, workerId, now, leaseMs).execute(executor);
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
