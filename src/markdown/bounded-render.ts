// Markdown rendering that no text can turn into a stall. markdown-it's cost grows faster than its
// input on some texts (100 nested quotes followed by lazy lines: 80 KB took seconds, 1 MB a minute),
// and every page, the API's POST /markdown and the notification mail render user text. So:
//
// - the text renders on a worker thread (platform/worker-pool.ts), never on the event loop;
// - within a time budget (KILN_MARKDOWN_RENDER_MS, GitLab's foreground render timeout of 1.5 s,
//   Gitlab::RenderTimeout): a text over it is shown as escaped text with a notice (as GitLab shows
//   its "rendering aborted" message), and its worker is terminated and replaced;
// - texts longer than GitLab's limit for descriptions and comments, and texts nested deeper than
//   MAX_NESTING, are shown the same way without rendering;
// - the HTML is kept by a digest of everything it depends on (the text, gfm, the references
//   resolved for the viewer, the base URL), bounded in bytes: a text viewed again (a planted issue
//   viewed by every visitor) costs a hash, not a render, whatever its outcome.
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { escapeHtml } from '../platform/web/html.js';
import { WorkerPool } from '../platform/worker-pool.js';
import { MAX_NESTING, type RenderOptions } from './render-markdown.js';
import type { RenderAnswer, RenderTask } from './render-worker.js';

/** GitLab's limit on descriptions and comments (Gitlab::Database::MAX_TEXT_SIZE_LIMIT), in characters. */
export const MAX_MARKDOWN_CHARACTERS = 1_000_000;
/** HTML kept in memory, in UTF-16 code units (two bytes each): 16 M, about 32 MB. */
const CACHE_UNITS = 16 * 1024 * 1024;
/** An answer larger than this is not kept (it would push out hundreds of ordinary ones). */
const LARGEST_CACHED = 1024 * 1024;
/**
 * Renders at most waiting for a worker; beyond, or after waiting this long, the text is shown plain.
 * A page renders all its comments at once (an issue with hundreds of them), so the queue holds many;
 * the wait bounds how long any of them is delayed.
 */
const MAX_QUEUE = 2000;
const MAX_WAIT_MS = 10_000;
/** Each worker's heap: a text that needs more ends its worker, not the server. */
const WORKER_HEAP_MB = 256;
/** Changes whenever the renderer's output for a text changes, so kept HTML from before is not reused. */
const RENDERER_VERSION = '1';

export type Fallback = 'timeout' | 'too_large' | 'nesting' | 'busy' | 'failed';

const NOTICES: Record<Fallback, string> = {
  timeout: 'This text took too long to render as Markdown, so it is shown as plain text.',
  too_large: `This text is longer than ${MAX_MARKDOWN_CHARACTERS.toLocaleString('en')} characters, so it is shown as plain text.`,
  nesting: `This text nests more than ${MAX_NESTING} levels deep, so it is shown as plain text.`,
  busy: 'Markdown rendering is busy right now, so this text is shown as plain text.',
  failed: 'This text could not be rendered as Markdown, so it is shown as plain text.',
};

/** The text escaped, under a notice saying why it is not rendered. */
export function plainTextFallback(text: string, reason: Fallback): string {
  return `<p class="markdown-notice" role="note">${NOTICES[reason]}</p>\n<pre class="markdown-plain">${escapeHtml(text)}</pre>\n`;
}

export interface BoundedRenderSettings {
  budgetMs: number;
  workers: number;
}

const pools = new Map<'markdown' | 'asciidoc', WorkerPool<RenderTask, RenderAnswer>>();

/**
 * The process's pool for a format, made on first use with the first caller's size (a pure function
 * runs there: one pool serves every app). AsciiDoc has a pool of its own, of one worker: its
 * processor is large and slow to load, and AsciiDoc files are few.
 */
function renderPool(settings: BoundedRenderSettings, format: 'markdown' | 'asciidoc' = 'markdown'): WorkerPool<RenderTask, RenderAnswer> {
  let pool = pools.get(format);
  if (!pool) {
    pool = new WorkerPool<RenderTask, RenderAnswer>({
      module: new URL(format === 'asciidoc' ? './render-asciidoc-worker.js' : './render-worker.js', import.meta.url),
      size: format === 'asciidoc' ? 1 : Math.max(1, Math.min(settings.workers, availableParallelism())),
      maxQueue: MAX_QUEUE,
      maxWaitMs: MAX_WAIT_MS,
      maxHeapMb: WORKER_HEAP_MB,
    });
    pools.set(format, pool);
  }
  return pool;
}

/** The Markdown pool's counters (tests and diagnostics); null before the first render. */
export function renderPoolStats() {
  const pool = pools.get('markdown');
  return pool ? { ...pool.stats(), replaced: pool.replaced } : null;
}

/** HTML by digest, least recently used out first, bounded by total length. */
class HtmlCache {
  readonly #entries = new Map<string, string>();
  #units = 0;

  get(key: string): string | undefined {
    const html = this.#entries.get(key);
    if (html !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, html);
    }
    return html;
  }

  set(key: string, html: string): void {
    if (html.length > LARGEST_CACHED || this.#entries.has(key)) return;
    this.#entries.set(key, html);
    this.#units += html.length;
    for (const [oldest, value] of this.#entries) {
      if (this.#units <= CACHE_UNITS) break;
      this.#entries.delete(oldest);
      this.#units -= value.length;
    }
  }
}

// A pure function of its key, the same in every app: one per process (platform/bounded-map.ts).
const rendered = new HtmlCache();

function digestOf(text: string, options: RenderOptions): string {
  const references = options.references && {
    issues: [...options.references.issues].sort(([a], [b]) => a - b),
    users: [...options.references.users].sort(([a], [b]) => (a < b ? -1 : 1)),
    mergeRequests: [...(options.references.mergeRequests ?? [])].sort(([a], [b]) => a - b),
    crossProject: [...(options.references.crossProject ?? [])].sort(([a], [b]) => (a < b ? -1 : 1)),
  };
  return createHash('sha256')
    .update(JSON.stringify([RENDERER_VERSION, options.format ?? 'markdown', Boolean(options.gfm), options.baseUrl ?? null, references ?? null, options.relativeLinks ?? null, options.uploadsBase ?? null]))
    .update('\0')
    .update(text)
    .digest('base64url');
}

/** The HTML of `text`, rendered off the event loop within the budget, or the text plain with a notice. */
export async function renderBounded(text: string, options: RenderOptions, settings: BoundedRenderSettings): Promise<string> {
  if (text === '') return '';
  if (text.length > MAX_MARKDOWN_CHARACTERS) return plainTextFallback(text, 'too_large');
  const key = digestOf(text, options);
  const kept = rendered.get(key);
  if (kept !== undefined) return kept;
  const outcome = await renderPool(settings, options.format).run({ text, options }, settings.budgetMs);
  if (!outcome.ok) {
    const html = plainTextFallback(text, outcome.reason);
    // A full queue passes; a text over budget or failing would be so again.
    if (outcome.reason !== 'busy') rendered.set(key, html);
    return html;
  }
  const html = 'html' in outcome.output ? outcome.output.html : plainTextFallback(text, outcome.output.refused);
  rendered.set(key, html);
  return html;
}
