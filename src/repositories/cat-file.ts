// One long-lived `git cat-file --batch` per repository, kept on a git thread (git-thread.ts), so that
// reading objects (blobs, trees, commits, tags, `rev^{commit}`, `rev:path`) starts no process once a
// repository's reader is open. Bounded: at most MAX_READERS open (least recently used closed first),
// each closed after IDLE_MS unused, requests queued per process (one batch at a time, answered in
// order), and an object over the request's byte limit is read through and dropped, never held.
// A reader that dies fails the batch it was answering and is started again for the next.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { GIT_ENV } from './git-env.js';

export interface BatchObject {
  id: string;
  type: string;
  content: Buffer;
}

/** An object over the byte limit: its header is known, its content was dropped. */
export interface TooLarge {
  id: string;
  type: string;
  size: number;
  tooLarge: true;
}

export type BatchAnswer = BatchObject | TooLarge | null;

export const MAX_READERS = 32;
export const IDLE_MS = 60_000;

interface Batch {
  names: string[];
  maxBytes: number;
  answers: BatchAnswer[];
  resolve: (answers: BatchAnswer[]) => void;
  reject: (error: Error) => void;
}

const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) (blob|tree|commit|tag) (\d+)$/;

/** One repository's `cat-file --batch` and its queue. */
class Reader {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #queue: Batch[] = [];
  #pending: Buffer = Buffer.alloc(0);
  /** The object whose content is arriving: its header, the parts kept, the bytes still to come. */
  #body: { id: string; type: string; size: number; parts: Buffer[] | null; left: number } | null = null;
  #dead = false;
  #closing = false;
  #idle: NodeJS.Timeout | null = null;
  lastUsed = Date.now();

  constructor(readonly repoPath: string, private readonly onGone: (reader: Reader) => void, onStart: (args: string[]) => void) {
    const args = ['--git-dir', repoPath, 'cat-file', '--batch'];
    onStart(args);
    this.#child = spawn('git', args, { env: GIT_ENV, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child.stdout.on('data', (chunk: Buffer) => this.#take(chunk));
    this.#child.stderr.on('data', () => undefined);
    this.#child.stdin.on('error', () => undefined);
    this.#child.on('error', (error) => this.#die(error));
    this.#child.on('close', () => this.#die(new Error(`git cat-file --batch of ${repoPath} exited`)));
    this.#armIdle();
  }

  get busy(): boolean {
    return this.#queue.length > 0;
  }

  read(names: string[], maxBytes: number): Promise<BatchAnswer[]> {
    if (this.#dead || this.#closing) return Promise.reject(new Error('git cat-file --batch is closed'));
    this.lastUsed = Date.now();
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    return new Promise((resolve, reject) => {
      this.#queue.push({ names, maxBytes, answers: [], resolve, reject });
      // The queue is answered in order: git reads the names of the next batch while answering this one.
      this.#child.stdin.write(names.map((name) => `${name}\n`).join(''));
    });
  }

  /** Ends the process once its queue is answered (git exits at the end of its input). */
  close(): void {
    if (this.#dead || this.#closing) return;
    this.#closing = true;
    this.#child.stdin.end();
    if (!this.busy) this.#die(new Error('closed'));
  }

  #take(chunk: Buffer): void {
    this.#pending = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk;
    let offset = 0;
    while (this.#queue.length > 0) {
      const batch = this.#queue[0];
      if (this.#body) {
        // Content, then the newline git writes after it.
        const take = Math.min(this.#body.left, this.#pending.length - offset);
        if (this.#body.left > 1 && take > 0) {
          const contentLeft = this.#body.left - 1;
          const part = this.#pending.subarray(offset, offset + Math.min(take, contentLeft));
          if (this.#body.parts) this.#body.parts.push(Buffer.from(part));
        }
        this.#body.left -= take;
        offset += take;
        if (this.#body.left > 0) break;
        const { id, type, size, parts } = this.#body;
        batch.answers.push(parts ? { id, type, content: Buffer.concat(parts, size) } : { id, type, size, tooLarge: true });
        this.#body = null;
      } else {
        const newline = this.#pending.indexOf(0x0a, offset);
        if (newline < 0) break;
        const header = HEADER.exec(this.#pending.subarray(offset, newline).toString('utf8'));
        offset = newline + 1;
        if (header) {
          const size = Number(header[3]);
          this.#body = { id: header[1], type: header[2], size, parts: size <= batch.maxBytes ? [] : null, left: size + 1 };
          continue;
        }
        // `<name> missing` or `<name> ambiguous`.
        batch.answers.push(null);
      }
      if (batch.answers.length === batch.names.length) {
        this.#queue.shift();
        batch.resolve(batch.answers);
        if (!this.busy) this.#armIdle();
      }
    }
    this.#pending = offset >= this.#pending.length ? Buffer.alloc(0) : this.#pending.subarray(offset);
  }

  #armIdle(): void {
    this.#idle = setTimeout(() => this.close(), IDLE_MS);
    this.#idle.unref();
  }

  #die(error: Error): void {
    if (this.#dead) return;
    this.#dead = true;
    if (this.#idle) clearTimeout(this.#idle);
    if (this.#child.exitCode === null) this.#child.kill();
    for (const batch of this.#queue.splice(0)) batch.reject(error);
    this.onGone(this);
  }
}

/** The readers of one git thread, by repository path. */
export class CatFilePool {
  readonly #readers = new Map<string, Reader>();
  /** Processes started, for diagnostics. */
  started = 0;

  constructor(private readonly onStart: (args: string[]) => void = () => undefined, private readonly maxReaders = MAX_READERS) {}

  /** Each name's object, in order: null when missing, `tooLarge` past `maxBytes`. Retried once on a new process when the reader died. */
  async read(repoPath: string, names: string[], maxBytes: number): Promise<BatchAnswer[]> {
    try {
      return await this.#reader(repoPath).read(names, maxBytes);
    } catch {
      return this.#reader(repoPath).read(names, maxBytes);
    }
  }

  /** Closes the readers of `repoPath` and of the repositories under it (a deleted or moved namespace). */
  close(repoPath: string): void {
    for (const [path, reader] of this.#readers) {
      if (path === repoPath || path.startsWith(`${repoPath.replace(/\/+$/, '')}/`)) {
        this.#readers.delete(path);
        reader.close();
      }
    }
  }

  closeAll(): void {
    for (const reader of this.#readers.values()) reader.close();
    this.#readers.clear();
  }

  get size(): number {
    return this.#readers.size;
  }

  #reader(repoPath: string): Reader {
    const open = this.#readers.get(repoPath);
    if (open) {
      // Most recently used last: a Map keeps insertion order.
      this.#readers.delete(repoPath);
      this.#readers.set(repoPath, open);
      return open;
    }
    if (this.#readers.size >= this.maxReaders) {
      // The least recently used idle reader goes; if every one is busy, the oldest finishes its queue and goes.
      const victim = [...this.#readers.values()].find((reader) => !reader.busy) ?? this.#readers.values().next().value!;
      this.#readers.delete(victim.repoPath);
      victim.close();
    }
    this.started += 1;
    const reader = new Reader(repoPath, (gone) => {
      if (this.#readers.get(gone.repoPath) === gone) this.#readers.delete(gone.repoPath);
    }, this.onStart);
    this.#readers.set(repoPath, reader);
    return reader;
  }
}
