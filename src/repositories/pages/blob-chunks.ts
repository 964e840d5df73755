// A long file's lines in chunks, as GitLab's blob viewer shows them: the first chunk highlighted on the
// server with the page, every later chunk sent with the page as plain (escaped) lines — so every line,
// number and anchor is there at once, with or without JavaScript — and replaced by its highlighted
// version when it scrolls into view (htmx `revealed`, `?chunk=N` of the same blob page at the commit).
// Highlighting the first chunk alone gives the lines the whole file's highlighting would (highlight.js
// reads left to right); a later chunk's colours depend on what came before it, so its fragment is cut
// from the whole file's highlighting. That is kept in the database by the file's content
// (page-caches.ts, keptHighlight: the push job highlights the files it blames, and the first node to
// highlight a file keeps it for every node); when none is kept, it is started in the background once
// the first chunk is highlighted (the highlighter takes one batch at a time: started before, the first
// chunk would wait for the whole file) and kept when done.
import { escapeHtml, raw, type Html } from '../../platform/web/html.js';
import { lineMarkup, lineRows, lineTable, linesOf, storedLineMarkup, type MarkupStore } from './file-lines.js';

/** Lines a chunk (GitLab's viewer uses 70): the first is all the page waits to highlight. */
export const CHUNK_LINES = 100;

/** Whole-file highlightings under way, by file: a chunk asked meanwhile waits for it instead of starting another. */
const underWay = new Map<string, Promise<string[]>>();

function wholeMarkup(file: WholeFile): Promise<string[]> {
  const key = file.blobId;
  const running = underWay.get(key);
  if (running) return running;
  const started = storedLineMarkup(file.store, file.path, file.text).finally(() => underWay.delete(key));
  underWay.set(key, started);
  return started;
}

/** Pure: how many chunks `lineCount` lines make. */
export function chunkCount(lineCount: number): number {
  return Math.max(1, Math.ceil(lineCount / CHUNK_LINES));
}

export interface WholeFile {
  path: string;
  text: string;
  /** Names the file's content (its blob id): the key of the whole-file highlighting under way. */
  blobId: string;
  /** Where the whole file's highlighted lines are kept. */
  store: MarkupStore;
}

export interface ChunkedFile extends WholeFile {
  label: string;
  /** The address of chunk `n` (1 is the second chunk), at the commit, so every chunk is of the same file. */
  chunkUrl(n: number): string;
}

/** The file's line table: the first chunk highlighted, later chunks plain until revealed. */
export async function chunkedLineTable(file: ChunkedFile): Promise<Html> {
  const lines = linesOf(file.text);
  if (lines.length <= CHUNK_LINES) return lineTable(await lineMarkup(file.path, file.text), file.label);
  const kept = await file.store.read().catch(() => null);
  const whole = kept && kept.length === lines.length ? kept : null;
  const first = whole ? whole.slice(0, CHUNK_LINES) : await lineMarkup(file.path, `${lines.slice(0, CHUNK_LINES).join('\n')}\n`);
  // The whole file's highlighting starts now, off the event loop, for the chunks to come.
  if (!whole) void wholeMarkup(file).catch(() => undefined);
  let body = `<tbody>${lineRows(first, 0)}</tbody>`;
  for (let n = 1; n < chunkCount(lines.length); n += 1) {
    const plain = lines.slice(n * CHUNK_LINES, (n + 1) * CHUNK_LINES).map((line) => escapeHtml(line));
    body += `<tbody class="blob-chunk" data-chunk="${n}" hx-get="${escapeHtml(file.chunkUrl(n))}" hx-trigger="revealed" hx-swap="outerHTML">${lineRows(plain, n * CHUNK_LINES)}</tbody>`;
  }
  return raw(`<div class="code-scroll"><table class="code blob" aria-label="${escapeHtml(file.label)}">${body}</table></div>`);
}

/** Chunk `n` highlighted (the fragment that replaces it), or null when the file has no such chunk. */
export async function highlightedChunk(file: WholeFile, n: number): Promise<Html | null> {
  const lineCount = linesOf(file.text).length;
  if (!Number.isInteger(n) || n < 1 || n >= chunkCount(lineCount)) return null;
  const markup = await wholeMarkup(file);
  return raw(`<tbody class="blob-chunk-highlighted" data-chunk="${n}">${lineRows(markup.slice(n * CHUNK_LINES, (n + 1) * CHUNK_LINES), n * CHUNK_LINES)}</tbody>`);
}
