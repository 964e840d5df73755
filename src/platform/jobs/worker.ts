// The worker loop: claim, run, record. Runs inside `kiln serve` and alone as `kiln worker`; while the
// server answers requests, the loop paces itself (pacing.ts) so that jobs never crowd requests out.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { claimNext, markDone, markFailed, type ClaimedJob } from './queue.js';
import { BackgroundPacer, BUSY_WINDOW_MS, requestActivity } from './pacing.js';
import type { Deps } from '../deps.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { registerWorker, unregisterWorker } from './worker-registry.js';

/** While the database is away the worker asks again this often (and says so once, not every time). */
export const UNAVAILABLE_RETRY_MS = 250;

export type JobHandler = (deps: Deps, payload: any, job: ClaimedJob) => Promise<void>;

export interface WorkerOptions {
  leaseMs?: number;
  pollMs?: number;
}

export class Worker {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** Ends a pacing pause early; only stop() calls it (a poke must not cut a pause short). */
  private endPause: (() => void) | null = null;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly pacer: BackgroundPacer;
  /** Since when the database has been away (null while it answers). */
  private unavailableSince: number | null = null;

  constructor(
    private readonly deps: Deps,
    private readonly handlers: Record<string, JobHandler>,
    options: WorkerOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? deps.config.jobLeaseMs;
    this.pollMs = options.pollMs ?? deps.config.workerPollMs;
    this.pacer = new BackgroundPacer(requestActivity(deps.caches), () => performance.now());
  }

  /** Claim and run one job; false when nothing was due. Tests drive the queue with this. */
  async runOnce(): Promise<boolean> {
    const { db, dialect, clock } = this.deps;
    const job = await claimNext(db, dialect, clock, this.id, this.leaseMs, Object.keys(this.handlers));
    if (!job) return false;
    const started = Date.now();
    try {
      await this.handlers[job.kind](this.deps, job.payload, job);
      await markDone(db, clock, job, this.id);
      this.deps.metrics.jobs.inc({ kind: job.kind, outcome: 'done' });
    } catch (error) {
      // The database went away under the job: nothing can be recorded now, and the job is not at
      // fault. Its lease runs out and it is claimed again once the database is back.
      if (isDatabaseUnavailable(error)) throw error;
      this.deps.log.warn({ err: error, job: job.id, kind: job.kind, attempts: job.attempts }, 'job failed');
      await markFailed(db, clock, job, this.id, error);
      this.deps.metrics.jobs.inc({ kind: job.kind, outcome: 'failed' });
    }
    this.deps.log.debug({ job: job.id, kind: job.kind, ms: Date.now() - started }, 'job finished');
    return true;
  }

  /** Run every due job now (tests, and `kiln worker --drain`). */
  async drain(limit = 1000): Promise<number> {
    let count = 0;
    while (count < limit && (await this.runOnce())) count += 1;
    return count;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    registerWorker(this.deps, this.id, this.deps.clock.now());
    this.loop = (async () => {
      while (this.running) {
        let worked = false;
        let away = false;
        const started = performance.now();
        try {
          worked = await this.runOnce();
          this.databaseAnswered();
        } catch (error) {
          away = isDatabaseUnavailable(error);
          if (away) this.databaseAway(error);
          else this.deps.log.error({ err: error }, 'worker loop error');
        }
        if (worked && this.running) await this.pause(this.pacer.pauseAfter(performance.now() - started));
        if (!worked && this.running) await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, away ? Math.min(UNAVAILABLE_RETRY_MS, this.pollMs) : this.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    })();
  }

  /** The worker pauses while the database is away: said once when it goes, once when it is back. */
  private databaseAway(error: unknown): void {
    if (this.unavailableSince !== null) return;
    this.unavailableSince = Date.now();
    this.deps.log.warn({ err: error }, 'database unavailable: the job worker pauses until it answers again');
  }

  private databaseAnswered(): void {
    if (this.unavailableSince === null) return;
    this.deps.log.info({ pausedMs: Date.now() - this.unavailableSince }, 'database available again: the job worker resumes');
    this.unavailableSince = null;
  }

  /** Wait `ms`, in slices of the busy window: when requests stop coming the pause ends within one. */
  private async pause(ms: number): Promise<void> {
    const until = performance.now() + ms;
    for (let left = ms; left > 0 && this.running; left = until - performance.now()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, BUSY_WINDOW_MS));
        this.endPause = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (!this.pacer.busy()) return;
    }
  }

  /** Nudge an idle worker (after an enqueue in this process) instead of waiting for the poll. */
  poke(): void {
    this.wake?.();
  }

  /** Graceful stop: finish the job in hand, claim no more. */
  async stop(): Promise<void> {
    this.running = false;
    unregisterWorker(this.deps, this.id);
    this.wake?.();
    this.endPause?.();
    await this.loop;
  }
}
