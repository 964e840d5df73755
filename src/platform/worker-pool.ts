// A small pool of worker threads for CPU work whose cost the input decides (Markdown rendering):
// the work runs off the event loop, each task has a time budget, and a worker that overruns it is
// terminated and replaced, so one hostile input costs one budget of one thread and never stalls the
// requests, the jobs or the other tasks' queue for longer than that.
//
// The worker module answers the messages it is sent (`{ id, input }`) with `{ id, output }` or
// `{ id, error }`, and says `{ ready: true }` once loaded; its budget starts when it takes a task,
// not while it loads. Workers start on first use and are never what keeps the process alive.
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type TaskOutcome<O> =
  | { ok: true; output: O }
  /** `timeout`: over budget (the worker was replaced); `busy`: the queue was full or waited too long; `failed`: the worker threw or died. */
  | { ok: false; reason: 'timeout' | 'busy' | 'failed'; message?: string };

export interface WorkerPoolOptions {
  /** The worker module: the compiled `.js` URL (beside it, the `.ts` when running from the sources). */
  module: URL;
  size: number;
  /** Tasks waiting for a worker beyond this are answered `busy` at once. */
  maxQueue: number;
  /** A task that waited this long for a worker is answered `busy` instead of starting. */
  maxWaitMs: number;
  /** Heap of each worker: a task that needs more ends its worker (`failed`), never the process. */
  maxHeapMb: number;
}

interface Task<I, O> {
  id: number;
  input: I;
  budgetMs: number;
  queuedAt: number;
  resolve: (outcome: TaskOutcome<O>) => void;
}

interface Slot<I, O> {
  worker: Worker;
  ready: boolean;
  task: Task<I, O> | null;
  timer: NodeJS.Timeout | null;
}

/** How long a new worker may take to load before it counts as failed (the sources are transpiled on load in tests). */
const START_TIMEOUT_MS = 60_000;

export class WorkerPool<I, O> {
  readonly #options: WorkerPoolOptions;
  readonly #slots: Array<Slot<I, O>> = [];
  readonly #queue: Array<Task<I, O>> = [];
  #nextId = 1;
  #closed = false;
  /** Workers replaced after a timeout or a failure, for diagnostics and tests. */
  replaced = 0;

  constructor(options: WorkerPoolOptions) {
    this.#options = options;
  }

  /** Runs `input` on a worker within `budgetMs` of its time. Never rejects. */
  run(input: I, budgetMs: number): Promise<TaskOutcome<O>> {
    if (this.#closed) return Promise.resolve({ ok: false, reason: 'busy' });
    if (this.#queue.length >= this.#options.maxQueue) return Promise.resolve({ ok: false, reason: 'busy' });
    return new Promise((resolve) => {
      this.#queue.push({ id: this.#nextId++, input, budgetMs, queuedAt: performance.now(), resolve });
      this.#dispatch();
    });
  }

  /** Busy and loading workers, tasks waiting. */
  stats(): { workers: number; busy: number; queued: number } {
    return { workers: this.#slots.length, busy: this.#slots.filter((slot) => slot.task).length, queued: this.#queue.length };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const task of this.#queue.splice(0)) task.resolve({ ok: false, reason: 'busy' });
    await Promise.all(this.#slots.splice(0).map((slot) => this.#retire(slot, { ok: false, reason: 'busy' })));
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const slot = this.#slots.find((candidate) => candidate.ready && !candidate.task);
      if (!slot) {
        // As many new workers as waiting tasks that no loading worker will take, up to the size.
        const loading = this.#slots.filter((candidate) => !candidate.ready).length;
        if (this.#slots.length >= this.#options.size || loading >= this.#queue.length) return;
        this.#spawn();
        continue;
      }
      const task = this.#queue.shift()!;
      if (performance.now() - task.queuedAt > this.#options.maxWaitMs) {
        task.resolve({ ok: false, reason: 'busy' });
        continue;
      }
      slot.task = task;
      slot.worker.ref();
      slot.timer = setTimeout(() => this.#replace(slot, { ok: false, reason: 'timeout' }), task.budgetMs);
      slot.worker.postMessage({ id: task.id, input: task.input });
    }
  }

  #spawn(): void {
    const worker = startWorker(this.#options);
    const slot: Slot<I, O> = { worker, ready: false, task: null, timer: null };
    this.#slots.push(slot);
    // Held while loading (a queued task waits for it); unreferenced once idle.
    slot.timer = setTimeout(() => this.#replace(slot, { ok: false, reason: 'failed', message: 'worker did not start' }), START_TIMEOUT_MS);
    worker.on('message', (message: { ready?: boolean; id?: number; output?: O; error?: string }) => {
      if (message.ready) {
        slot.ready = true;
        this.#settle(slot);
      } else if (slot.task && message.id === slot.task.id) {
        const task = slot.task;
        this.#settle(slot);
        task.resolve(message.error === undefined ? { ok: true, output: message.output as O } : { ok: false, reason: 'failed', message: message.error });
      }
      this.#dispatch();
    });
    worker.on('error', (error) => this.#replace(slot, { ok: false, reason: 'failed', message: error.message }));
    worker.on('exit', () => this.#replace(slot, { ok: false, reason: 'failed', message: 'worker exited' }));
  }

  /** The slot has no task now: its timer stops and the worker no longer holds the process. */
  #settle(slot: Slot<I, O>): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
    slot.worker.unref();
  }

  /** The worker overran or failed: its task gets `outcome`, it is terminated, and another takes its place. */
  #replace(slot: Slot<I, O>, outcome: TaskOutcome<O>): void {
    const index = this.#slots.indexOf(slot);
    if (index < 0) return;
    this.#slots.splice(index, 1);
    this.replaced += 1;
    void this.#retire(slot, outcome);
    if (!this.#closed) this.#dispatch();
  }

  async #retire(slot: Slot<I, O>, outcome: TaskOutcome<O>): Promise<void> {
    const task = slot.task;
    this.#settle(slot);
    slot.worker.removeAllListeners('exit');
    slot.worker.on('error', () => undefined);
    task?.resolve(outcome);
    await slot.worker.terminate();
  }
}

/**
 * The built program starts the compiled module; from the sources (the test runner, which does not
 * build), the worker first registers hooks that load TypeScript (scripts/worker-source-loader.mjs).
 */
export function startWorker(options: Pick<WorkerPoolOptions, 'module' | 'maxHeapMb'>): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: options.maxHeapMb };
  const found = moduleToRun(options.module);
  if (!found.loader) return new Worker(found.module, { resourceLimits });
  const program = `require('node:module').register(${JSON.stringify(found.loader.href)}); import(${JSON.stringify(found.module.href)});`;
  return new Worker(program, { eval: true, resourceLimits });
}

/**
 * The module a worker or helper process runs: `compiled` when it was built, else its TypeScript
 * source with the hooks that load it (scripts/worker-source-loader.mjs), which must be registered first.
 */
export function moduleToRun(compiled: URL): { module: URL; loader?: URL } {
  if (existsSync(fileURLToPath(compiled))) return { module: compiled };
  return { module: new URL(compiled.href.replace(/\.js$/, '.ts')), loader: new URL('../../scripts/worker-source-loader.mjs', import.meta.url) };
}
