// Syntax highlighting on the server with highlight.js (docs/decisions.md: chosen over Shiki for speed,
// figures in docs/performance.md). It runs in a worker thread, never on the event loop: a hostile
// text can make a grammar's regular expressions take seconds, so each batch has a deadline (GitLab's
// foreground highlighting timeout, 1.5 s: Gitlab::Highlight; a background job that highlights ahead
// of a page may give 5 s), after which the worker is replaced and the text is shown plain. Texts over 512 KiB are never highlighted (GitLab's
// maximum_text_highlight_size_kilobytes). Results are kept by the text's digest and language: a pure
// function of its key, so one bounded cache serves every app of the process (as bounded-map.ts allows).
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { WORKER_SOURCE } from './worker-source.js';
import { languageCandidate } from './language.js';
import { splitHighlightedLines } from './split-lines.js';

export const HIGHLIGHT_MAX_BYTES = 512 * 1024;
export const HIGHLIGHT_TIMEOUT_MS = 1500;
/** The deadline of highlighting done ahead of a page, in a background job (nobody waits for it; a loaded machine needs longer). */
export const BACKGROUND_HIGHLIGHT_TIMEOUT_MS = 5000;
/** Batches waiting beyond this are answered plain at once: under a flood, pages stay fast. */
const MAX_WAITING = 32;
/** Highlighted lines kept, counted in characters of markup (≈ 2 bytes each). */
const CACHE_CHARACTERS = 32 * 1024 * 1024;
const CACHE_ENTRIES = 10_000;

export interface HighlightInput {
  /** The file's path: its name chooses the language. */
  path: string;
  text: string;
}

/** Per input, one HTML string per line (escaped, safe to embed), or null: show it plain. */
export type Highlighted = string[] | null;

interface Pending {
  id: number;
  texts: { language: string | null; text: string }[];
  timeoutMs: number;
  resolve(outcome: Outcome): void;
}

/** The worker's answers, or why there are none: the deadline passed, or too many batches wait. */
type Outcome = (string | null)[] | 'timeout' | 'busy';

/** Least recently used first out, bounded by entries and by characters of markup. */
class CharacterBoundedCache {
  private readonly entries = new Map<string, string[]>();
  private characters = 0;

  get(key: string): string[] | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, lines: string[]): void {
    const size = sizeOf(lines);
    if (size > CACHE_CHARACTERS / 4 || this.entries.has(key)) return;
    while ((this.characters + size > CACHE_CHARACTERS || this.entries.size >= CACHE_ENTRIES) && this.entries.size > 0) {
      const [oldest, value] = this.entries.entries().next().value as [string, string[]];
      this.entries.delete(oldest);
      this.characters -= sizeOf(value);
    }
    this.entries.set(key, lines);
    this.characters += size;
  }
}

function sizeOf(lines: string[]): number {
  let size = 0;
  for (const line of lines) size += line.length;
  return size;
}

class HighlightWorker {
  private worker: Worker | null = null;
  /** The worker has loaded highlight.js: its loading (≈ 0.2–0.7 s) is not counted against a batch. */
  private ready = false;
  private queue: Pending[] = [];
  private running: { pending: Pending; timer: NodeJS.Timeout } | null = null;
  private nextId = 1;
  /** The worker could not load highlight.js: everything is plain from then on, without retrying. */
  private broken = false;

  /** Load highlight.js now, so that the first highlighted page does not wait for it. */
  warm(): void {
    if (this.worker || this.broken) return;
    this.ready = false;
    this.worker = this.start();
  }

  run(texts: Pending['texts'], timeoutMs: number): Promise<Outcome> {
    if (this.broken || this.queue.length >= MAX_WAITING) return Promise.resolve('busy');
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, texts, timeoutMs, resolve });
      this.dispatch();
    });
  }

  private start(): Worker {
    const highlightJs = createRequire(import.meta.url).resolve('highlight.js');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { highlightJs } });
    // The worker never keeps the process alive, and its death only costs the colours.
    worker.unref();
    worker.on('message', (message: { ready?: true; id: number; answers: (string | null)[] }) => {
      if (message.ready) {
        this.ready = true;
        this.dispatch();
      } else this.finish(message.id, message.answers);
    });
    worker.on('error', () => {
      if (this.ready) return this.replace();
      this.broken = true;
      this.worker = null;
      for (const pending of this.queue.splice(0)) pending.resolve('busy');
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.replace();
    });
    return worker;
  }

  private dispatch(): void {
    if (this.running || this.queue.length === 0) return;
    if (!this.worker) {
      this.ready = false;
      this.worker = this.start();
    }
    if (!this.ready) return;
    const pending = this.queue.shift()!;
    const timer = setTimeout(() => this.replace(), pending.timeoutMs);
    timer.unref();
    this.running = { pending, timer };
    this.worker!.postMessage({ id: pending.id, texts: pending.texts });
  }

  private finish(id: number, answers: Outcome): void {
    if (!this.running || this.running.pending.id !== id) return;
    clearTimeout(this.running.timer);
    const { pending } = this.running;
    this.running = null;
    pending.resolve(answers);
    this.dispatch();
  }

  /** The running batch took too long (or the worker died): plain text for it, a fresh worker for the rest. */
  private replace(): void {
    const worker = this.worker;
    this.worker = null;
    if (worker) void worker.terminate();
    if (this.running) this.finish(this.running.pending.id, 'timeout');
    else this.dispatch();
  }
}

const worker = new HighlightWorker();
/** The cached answer "show it plain" (one shared array, compared by identity). */
const PLAIN: string[] = [];
const cache = new CharacterBoundedCache();

function keyOf(language: string, text: string): string {
  return `${language}:${createHash('sha1').update(text).digest('hex')}`;
}

/** Highlight several texts in one round trip to the worker; each answer is lines of markup or null. */
export async function highlightTexts(inputs: readonly HighlightInput[], timeoutMs = HIGHLIGHT_TIMEOUT_MS): Promise<Highlighted[]> {
  const results: Highlighted[] = inputs.map(() => null);
  const asked: { index: number; key: string; language: string; text: string }[] = [];
  inputs.forEach((input, index) => {
    const language = languageCandidate(input.path);
    if (!language || input.text === '' || Buffer.byteLength(input.text) > HIGHLIGHT_MAX_BYTES) return;
    const key = keyOf(language, input.text);
    const cached = cache.get(key);
    if (cached) results[index] = cached === PLAIN ? null : cached;
    else asked.push({ index, key, language, text: input.text });
  });
  if (asked.length === 0) return results;
  const outcome = await worker.run(asked.map(({ language, text }) => ({ language, text })), timeoutMs);
  // Busy: plain this time only. A timeout is remembered as plain, so a hostile text viewed again does
  // not cost another second and a half of a core; so is a language highlight.js does not know.
  if (outcome === 'busy') return results;
  asked.forEach((item, position) => {
    const markup = outcome === 'timeout' ? null : outcome[position];
    const lines = markup === null || markup === undefined ? PLAIN : splitHighlightedLines(markup);
    cache.set(item.key, lines);
    if (lines !== PLAIN) results[item.index] = lines;
  });
  return results;
}

/**
 * Start the highlighting worker (loading highlight.js takes 0.2–0.7 s of a core) when the server starts
 * rather than on the first highlighted page, which would otherwise wait for it.
 */
export function warmHighlighter(): void {
  worker.warm();
}

/** One text; `timeoutMs` is the deadline (BACKGROUND_HIGHLIGHT_TIMEOUT_MS for work nobody waits for). */
export async function highlightText(input: HighlightInput, timeoutMs = HIGHLIGHT_TIMEOUT_MS): Promise<Highlighted> {
  return (await highlightTexts([input], timeoutMs))[0];
}
