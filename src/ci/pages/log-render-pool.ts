// Job logs are rendered on a worker thread. A render of the log's new part (up to MAX_SHOWN, 512 KiB)
// is tens of milliseconds of ansi_up, and five viewers of a log written at 650 KB/s ask for one every
// 400 ms. On the event loop, even cut into slices, every ordinary request waited behind a slice at each
// of its turns (one per database round trip): its p99 beside a streaming log was 2-6× its quiet p99
// (docs/performance.md, CI runners). On a thread of its own the render competes for the core through
// the kernel's scheduler, which lets the event loop in as soon as a request arrives.
//
// When the pool cannot take a render (its queue full, a worker failing), the page renders on the
// event loop in slices instead (renderLogText's turns): slower for everyone, never missing.
import { availableParallelism } from 'node:os';
import { WorkerPool } from '../../platform/worker-pool.js';
import { RENDER_SLICE, renderLogText, type LogIncrement, type LogState } from './job-log.js';
import type { LogRenderTask } from './log-render-worker.js';

/** Ample for 512 KiB (~30 ms); a worker over it is replaced, and the render is done on the event loop. */
const BUDGET_MS = 10_000;
const MAX_QUEUE = 200;
const MAX_WAIT_MS = 5_000;
/** A render holds its text, its markup and ansi_up's pieces: a few times MAX_SHOWN. */
const WORKER_HEAP_MB = 128;

let pool: WorkerPool<LogRenderTask, LogIncrement> | null = null;

/** One pool per process, made on first use: a pure function runs there, the same for every app. */
function logRenderPool(): WorkerPool<LogRenderTask, LogIncrement> {
  pool ??= new WorkerPool<LogRenderTask, LogIncrement>({
    module: new URL('./log-render-worker.js', import.meta.url),
    size: Math.min(2, availableParallelism()),
    maxQueue: MAX_QUEUE,
    maxWaitMs: MAX_WAIT_MS,
    maxHeapMb: WORKER_HEAP_MB,
  });
  return pool;
}

const counts = { rendered: 0, fallbacks: 0 };

/** Renders done on a worker and on the event loop instead, and the pool's workers (tests, diagnostics). */
export function logRenderPoolStats() {
  return { ...counts, workers: pool?.stats().workers ?? 0 };
}

/** renderLogText's increment, rendered off the event loop (on it, in slices, when the pool cannot). */
export async function renderLogOffLoop(text: string, offset: number, from: LogState | null): Promise<LogIncrement> {
  const outcome = await logRenderPool().run({ text, offset, from }, BUDGET_MS);
  if (outcome.ok) {
    counts.rendered += 1;
    return outcome.output;
  }
  counts.fallbacks += 1;
  return renderLogText(text, offset, from, RENDER_SLICE);
}
