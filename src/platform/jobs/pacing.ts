// Background work yields to requests (docs/architecture.md, Background jobs). `kiln serve` runs the
// job worker on the same event loop (and, in the benchmark, the same core) as the requests, so a burst
// of jobs would otherwise take the CPU from the requests that caused it. The HTTP layer bumps a counter
// for every request (one increment, nothing else on the request path); after each job the worker asks
// whether requests arrived at a busy rate (BUSY_REQUESTS within BUSY_WINDOW_MS) and, if so, pauses for
// `PAUSE_FACTOR` times the job's wall time: under sustained load background work gets about a tenth of
// the time (jobs are delayed, never starved); with no requests, or a client polling a job's progress,
// it runs flat out.
import { cacheSlot, type InstanceCaches } from '../instance-caches.js';

/**
 * Requests seen by this app's server (`count`, only ever incremented), and whether they arrive at a
 * rate that keeps the server busy: at least BUSY_REQUESTS within a window. A client polling a job's
 * progress (a storage move's state, a few requests a second) is not load, and must not slow the job
 * it is waiting for.
 */
export class RequestActivity {
  count = 0;
  private seen = 0;
  private windowStart = Number.NEGATIVE_INFINITY;
  private lastActiveAt = Number.NEGATIVE_INFINITY;

  /** Whether requests arrived at the busy rate within the window before `now` (a monotonic clock, ms). */
  busy(now: number): boolean {
    const arrived = this.count - this.seen;
    // Before the first look the window is taken as one window long.
    const elapsed = this.windowStart === Number.NEGATIVE_INFINITY ? BUSY_WINDOW_MS : now - this.windowStart;
    // The rate over at least one window: a look after a long quiet spell counts its requests over all of it.
    if (arrived >= BUSY_REQUESTS && arrived * BUSY_WINDOW_MS >= BUSY_REQUESTS * Math.max(elapsed, BUSY_WINDOW_MS)) {
      this.lastActiveAt = now;
      this.restart(now);
    } else if (elapsed >= BUSY_WINDOW_MS) {
      this.restart(now);
    }
    return now - this.lastActiveAt < BUSY_WINDOW_MS;
  }

  private restart(now: number): void {
    this.seen = this.count;
    this.windowStart = now;
  }
}

const REQUEST_ACTIVITY = cacheSlot('http.request-activity', () => new RequestActivity());

export function requestActivity(caches: InstanceCaches): RequestActivity {
  return caches.of(REQUEST_ACTIVITY);
}

/** Whether the app's server is answering requests now: background work that could fan out waits while it is. */
export function serverBusy(caches: InstanceCaches): boolean {
  return requestActivity(caches).busy(performance.now());
}

/** Requests within this long make the server busy. */
export const BUSY_WINDOW_MS = 100;
/** ...when at least this many arrive within it (200 requests a second). */
export const BUSY_REQUESTS = 20;
/** A paced job is followed by a pause this many times its wall time: the worker keeps ≤ 1/(1+9) of the time. */
export const PAUSE_FACTOR = 9;
/** However long the job took, the pause ends within this (a job that waited 10 s on a receiver used no CPU). */
export const MAX_PAUSE_MS = 1000;

export class BackgroundPacer {
  /** `now`: a monotonic clock in milliseconds (performance.now in the worker; a fake one in tests). */
  constructor(
    private readonly activity: RequestActivity,
    private readonly now: () => number,
  ) {}

  /** How long to wait before the next job, after one that took `jobMs` of wall time: 0 when idle. */
  pauseAfter(jobMs: number): number {
    if (!this.busy()) return 0;
    return Math.min(Math.max(jobMs, 0) * PAUSE_FACTOR, MAX_PAUSE_MS);
  }

  /** Whether requests are still arriving: a pause ends early once they stop (the worker waits in slices of the window). */
  busy(): boolean {
    return this.activity.busy(this.now());
  }
}
