// Git out of Kiln's process. Node starts a child process synchronously with fork and exec on the
// calling thread: 1–30 ms each on a loaded machine, more than a request's whole budget when a page
// starts a few. A fork also copies the page tables of the whole forking process and marks its memory
// copy-on-write, so the forker then takes a page fault on each page it next writes: from a process
// of a few hundred MB (Kiln with its caches, a test worker) a start cost about twice what it costs
// from a small one, spent in the kernel (docs/performance.md, Git processes). So Kiln starts its git
// processes in a small pool of helper processes (git-thread.ts, one per core, at most two) and gets
// their buffered output back as a message; the event loop only copies bytes. Object reads go to the
// repository's long-lived `git cat-file --batch` in its helper (cat-file.ts), so the common pages
// start no process at all once a repository's reader is open. Helpers rather than computing diffs,
// logs and blames from cat-file data ourselves: git's own diff, log and blame stay the answer (the
// same bytes as before). The pool's slots are still called threads: each was a worker thread first.
//
// Every start is published on the diagnostics channel `kiln:git-start` ({ file, args }), where tests
// and the bench's process counter see them (a mock of node:child_process does not reach a helper).
//
// Out of scope: git's smart HTTP and SSH (clone, fetch, push) stream packs between a client and git
// and still start git on the event loop (git-http/cgi.ts, ssh), as do the pre-receive checks.
import { channel } from 'node:diagnostics_channel';
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { availableParallelism } from 'node:os';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { moduleToRun } from '../platform/worker-pool.js';
import type { BatchAnswer } from './cat-file.js';

/** Published for every process started on a git thread: `{ file, args }`. */
export const gitStarts = channel('kiln:git-start');

export type ThreadRequest =
  | { id: number; kind: 'run'; file: string; args: string[]; cwd?: string; env?: Record<string, string>; input?: string | Uint8Array; maxBuffer: number; timeoutMs?: number }
  | { id: number; kind: 'read'; repo: string; names: string[]; maxBytes: number }
  | { id: number; kind: 'stream'; file: string; args: string[]; env?: Record<string, string> }
  | { id: number; kind: 'resume' | 'kill' }
  | { kind: 'close'; repo: string };

export type ThreadMessage =
  | { started: string[] }
  | { id: number; code: number | null; stdout: Uint8Array; stderr: string; error?: string }
  | { id: number; objects: BatchAnswer[] }
  | { id: number; failed: string }
  | { id: number; chunk: Uint8Array }
  | { id: number; stderrChunk: string }
  | { id: number; exit: number | null; error?: string };

/** What a command printed and how it ended: `code` null when it did not exit by itself (not started, killed, over its buffer). */
export interface ThreadOutcome {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  error?: string;
}

type Handler = (message: ThreadMessage) => boolean | void;

interface Thread {
  worker: ChildProcess;
  /** Handlers by request id; a handler answering true is done. */
  pending: Map<number, { handle: Handler; fail: (error: Error) => void }>;
}

const HELPER_HEAP_MB = 256;

/**
 * A helper process running git-thread: the compiled module, or without a build (the test runner) its
 * TypeScript source behind the hooks that load it (worker-pool.ts, moduleToRun), registered with
 * `--import` as a fork has no eval. Its environment is PATH alone (git's own comes with each request,
 * git-env.ts): none of Kiln's secrets, and no NODE_OPTIONS of Kiln's (the bench's instruments) in a
 * process that is not Kiln.
 */
function startHelper(): ChildProcess {
  const { module, loader } = moduleToRun(new URL('./git-thread.js', import.meta.url));
  const hooks = loader ? ['--import', `data:text/javascript,import{register}from'node:module';register(${encodeURIComponent(JSON.stringify(loader.href))});`] : [];
  return fork(fileURLToPath(module), [], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    execArgv: [`--max-old-space-size=${HELPER_HEAP_MB}`, ...hooks],
  });
}

/** Whether a helper holds Kiln's process open: only while a request of Kiln's waits on it. */
function holdOpen(helper: ChildProcess, hold: boolean): void {
  if (hold) {
    helper.ref();
    helper.channel?.ref();
  } else {
    helper.unref();
    helper.channel?.unref();
  }
}
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

class GitThreads {
  readonly #threads: Array<Thread | null>;
  #nextId = 1;

  constructor(size: number) {
    this.#threads = Array.from({ length: size }, () => null);
  }

  run(file: string, args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string | Buffer; maxBuffer: number; timeoutMs?: number }): Promise<ThreadOutcome> {
    const id = this.#nextId++;
    gitStarts.publish({ file, args });
    return new Promise((resolve, reject) => {
      this.#send(this.#leastBusy(), id, { id, kind: 'run', file, args, ...options }, (message) => {
        if (!('code' in message)) return false;
        resolve({ code: message.code, stdout: asBuffer(message.stdout), stderr: message.stderr, error: message.error });
        return true;
      }, reject);
    });
  }

  read(repo: string, names: string[], maxBytes: number): Promise<BatchAnswer[]> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#send(this.#forRepository(repo), id, { id, kind: 'read', repo, names, maxBytes }, (message) => {
        if ('failed' in message) reject(new Error(message.failed));
        else if ('objects' in message) resolve(message.objects.map((object) => (object && 'content' in object ? { ...object, content: asBuffer(object.content) } : object)));
        else return false;
        return true;
      }, reject);
    });
  }

  stream(file: string, args: string[], env?: Record<string, string>): ThreadProcess {
    const id = this.#nextId++;
    gitStarts.publish({ file, args });
    const index = this.#leastBusy();
    const process = new ThreadProcess(
      () => this.#post(index, { id, kind: 'resume' }),
      () => this.#post(index, { id, kind: 'kill' }),
    );
    this.#send(index, id, { id, kind: 'stream', file, args, env }, (message) => process.take(message), (error) => process.take({ id, exit: null, error: error.message }));
    return process;
  }

  /** Closes the cat-file readers of `repo` and of every repository under it (deleted, moved, restored). */
  close(repo: string): void {
    for (let index = 0; index < this.#threads.length; index += 1) this.#post(index, { kind: 'close', repo });
  }

  /** A message to a helper that is running (none started for it). */
  #post(index: number, request: ThreadRequest): void {
    const helper = this.#threads[index]?.worker;
    if (helper?.connected) helper.send(request);
  }

  #send(index: number, id: number, request: ThreadRequest, handle: Handler, fail: (error: Error) => void): void {
    const thread = this.#thread(index);
    thread.pending.set(id, { handle, fail });
    holdOpen(thread.worker, true);
    thread.worker.send(request);
  }

  #leastBusy(): number {
    let best = 0;
    for (let index = 1; index < this.#threads.length; index += 1) {
      if ((this.#threads[index]?.pending.size ?? 0) < (this.#threads[best]?.pending.size ?? 0)) best = index;
    }
    return best;
  }

  /** A repository's reads always go to the same thread, where its reader is. */
  #forRepository(repo: string): number {
    let hash = 0;
    for (let at = 0; at < repo.length; at += 1) hash = (hash * 31 + repo.charCodeAt(at)) >>> 0;
    return hash % this.#threads.length;
  }

  #thread(index: number): Thread {
    const open = this.#threads[index];
    if (open) return open;
    const worker = startHelper();
    const thread: Thread = { worker, pending: new Map() };
    this.#threads[index] = thread;
    holdOpen(worker, false);
    worker.on('message', (message: ThreadMessage) => {
      if ('started' in message) gitStarts.publish({ file: 'git', args: message.started });
      if (!('id' in message)) return;
      const waiting = thread.pending.get(message.id);
      if (waiting?.handle(message)) {
        thread.pending.delete(message.id);
        if (thread.pending.size === 0) holdOpen(worker, false);
      }
    });
    const gone = (error: Error) => {
      if (this.#threads[index] !== thread) return;
      this.#threads[index] = null;
      for (const waiting of thread.pending.values()) waiting.fail(error);
      thread.pending.clear();
    };
    worker.on('error', gone);
    worker.on('exit', () => gone(new Error('git thread exited')));
    return thread;
  }
}

/**
 * A process running on a git thread, as much of a ChildProcess as its callers use: `stdout` (one
 * chunk in flight at a time: the thread sends the next when this side reads), `stderr`, `exitCode`,
 * `kill()`, and the events `close` (after stdout ended) and `error`.
 */
export class ThreadProcess extends EventEmitter {
  readonly stdout: Readable;
  readonly stderr = new Readable({ read: () => undefined });
  exitCode: number | null = null;
  #ended = false;

  constructor(resume: () => void, private readonly stop: () => void) {
    super();
    this.stdout = new Readable({ read: resume });
  }

  kill(): boolean {
    if (!this.#ended) this.stop();
    return true;
  }

  /** A message of the thread about this process; true once it ended. */
  take(message: ThreadMessage): boolean {
    if ('chunk' in message) this.stdout.push(asBuffer(message.chunk));
    else if ('stderrChunk' in message) this.stderr.push(message.stderrChunk);
    else if ('exit' in message) {
      this.#ended = true;
      this.exitCode = message.exit;
      this.stdout.push(null);
      this.stderr.push(null);
      if (message.error !== undefined && this.listenerCount('error') > 0) this.emit('error', new Error(message.error));
      this.emit('close', message.exit);
      return true;
    }
    return false;
  }
}

let threads: GitThreads | null = null;

/** The process's git threads (started on first use, never what keeps the process alive). */
export function gitThreads(): GitThreads {
  threads ??= new GitThreads(Math.max(1, Math.min(2, availableParallelism())));
  return threads;
}
