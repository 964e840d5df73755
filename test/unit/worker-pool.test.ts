// The worker pool (src/platform/worker-pool.ts): tasks run off the event loop within a budget; a
// worker over budget or dying is replaced and the next task runs; a full queue answers `busy`.
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../src/platform/worker-pool.js';

interface SpinInput {
  spinMs?: number;
  answer?: string;
  crash?: boolean;
  throw?: string;
}

let pool: WorkerPool<SpinInput, string>;
const make = (size: number, maxQueue = 10) =>
  (pool = new WorkerPool<SpinInput, string>({ module: new URL('./fixtures/spin-worker.mjs', import.meta.url), size, maxQueue, maxWaitMs: 30_000, maxHeapMb: 64 }));
afterEach(() => pool.close());

describe('WorkerPool', () => {
  it('answers what the worker answered', async () => {
    make(1);
    expect(await pool.run({ answer: 'done' }, 5_000)).toEqual({ ok: true, output: 'done' });
  });

  it('answers timeout for a task over its budget, terminates that worker, and runs the next task on a new one', async () => {
    make(1);
    const started = performance.now();
    expect(await pool.run({ spinMs: 60_000 }, 200)).toEqual({ ok: false, reason: 'timeout' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(pool.replaced).toBe(1);
    expect(await pool.run({ answer: 'next' }, 5_000)).toEqual({ ok: true, output: 'next' });
  });

  it('keeps the event loop free while a task spins', async () => {
    make(1);
    const running = pool.run({ spinMs: 500, answer: 'spun' }, 5_000);
    const ticks: number[] = [];
    let last = performance.now();
    const timer = setInterval(() => {
      ticks.push(performance.now() - last);
      last = performance.now();
    }, 10);
    expect(await running).toEqual({ ok: true, output: 'spun' });
    clearInterval(timer);
    expect(ticks.length).toBeGreaterThan(10);
  });

  it('answers failed for a task whose worker threw or died, and goes on with a new worker', async () => {
    make(1);
    expect(await pool.run({ throw: 'bad input' }, 5_000)).toEqual({ ok: false, reason: 'failed', message: 'bad input' });
    expect(await pool.run({ crash: true }, 5_000)).toMatchObject({ ok: false, reason: 'failed' });
    expect(await pool.run({ answer: 'alive' }, 5_000)).toEqual({ ok: true, output: 'alive' });
  });

  it('runs tasks on several workers at once', async () => {
    make(2);
    const started = performance.now();
    const answers = await Promise.all([pool.run({ spinMs: 400, answer: 'a' }, 5_000), pool.run({ spinMs: 400, answer: 'b' }, 5_000)]);
    expect(answers).toEqual([{ ok: true, output: 'a' }, { ok: true, output: 'b' }]);
    expect(pool.stats().workers).toBe(2);
    expect(performance.now() - started).toBeGreaterThan(400);
  });

  it('answers busy at once when the queue is full', async () => {
    make(1, 2);
    const first = pool.run({ spinMs: 300, answer: 'first' }, 5_000);
    const second = pool.run({ answer: 'second' }, 5_000);
    expect(await pool.run({ answer: 'third' }, 5_000)).toEqual({ ok: false, reason: 'busy' });
    expect(await first).toEqual({ ok: true, output: 'first' });
    expect(await second).toEqual({ ok: true, output: 'second' });
  });
});
