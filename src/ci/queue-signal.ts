// The runners' queue value (GitLab's `runner:build_queue:<token>` key, Workhorse's long polling): a
// value that changes whenever a job may have become pending in this process. A runner that asks
// `jobs/request` with the current value waits (long polling) until it changes or the poll ends; with
// another value it looks for a job at once. Kept per app instance; on several nodes a job made
// pending on another node is found when the poll ends (at most the long-poll duration later).
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';

export class QueueSignal {
  private counter = 0;
  private readonly prefix = randomBytes(8).toString('hex');
  private waiters = new Set<() => void>();

  get value(): string {
    return `${this.prefix}${this.counter.toString(16).padStart(8, '0')}`;
  }

  /** A job may be pending now: every waiting runner looks again. Call after the change committed. */
  tick(): void {
    this.counter += 1;
    const waiting = this.waiters;
    this.waiters = new Set();
    for (const wake of waiting) wake();
  }

  /** Resolves when the value changes, or after `ms` (or at once when `signal` aborts). */
  wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

const signals = new WeakMap<object, QueueSignal>();

export function queueSignal(deps: Deps): QueueSignal {
  let signal = signals.get(deps.domainEvents);
  if (!signal) {
    signal = new QueueSignal();
    signals.set(deps.domainEvents, signal);
  }
  return signal;
}
