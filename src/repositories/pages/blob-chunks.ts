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
// chunk would wait for the whole file) and kept when done; the first few chunks come from a highlighting
// of the file's first lines, done before the whole (AHEAD_LINES).
import type { Deps } from '../../platform/deps.js';
import { escapeHtml, raw, type Html } from '../../platform/web/html.js';
import { highlightStore } from '../repository-api/page-caches.js';
import { lineMarkup, lineRows, lineTable, linesOf, storedLineMarkup, type MarkupStore } from './file-lines.js';

/** Lines a chunk (GitLab's viewer uses 70): the first is all the page waits to highlight. */
export const CHUNK_LINES = 100;

/**
 * The chunks a first scroll reveals (1 … AHEAD_LINES / CHUNK_LINES - 1) of a file longer than
 * 2 × AHEAD_LINES are cut from the highlighting of its first AHEAD_LINES (and a margin), done before
 * the whole file's: a chunk asked at once does not wait for all of it (a tenth more to highlight).
 */
export const AHEAD_LINES = 500;
/** Lines highlighted past AHEAD_LINES and not used: a construct read ahead across the cut (a lookahead) colours the last used lines as in the whole file. */
const AHEAD_MARGIN = 20;

/** Highlightings under way, by file and part (whole, ahead): a chunk asked meanwhile waits for it instead of starting another. */
const underWay = new Map<string, Promise<string[]>>();

function once(key: string, start: () => Promise<string[]>): Promise<string[]> {
  const running = underWay.get(key);
  if (running) return running;
  const started = start().finally(() => underWay.delete(key));
  underWay.set(key, started);
  return started;
}

function wholeMarkup(file: WholeFile): Promise<string[]> {
  return once(`whole\0${file.blobId}`, () => storedLineMarkup(file.store, file.path, file.text));
}

/** The first AHEAD_LINES lines' markup (the highlighter keeps it by text: asked again, it is not highlighted again). */
function aheadMarkup(file: WholeFile): Promise<string[]> {
  return once(`ahead\0${file.blobId}`, async () => {
    const lines = linesOf(file.text).slice(0, AHEAD_LINES + AHEAD_MARGIN);
    return (await lineMarkup(file.path, `${lines.join('\n')}\n`)).slice(0, AHEAD_LINES);
  });
}

/** Pure: whether chunk `n` of a file of `lineCount` lines comes from the lines highlighted ahead. */
export function isAheadChunk(n: number, lineCount: number): boolean {
  return lineCount > 2 * AHEAD_LINES && (n + 1) * CHUNK_LINES <= AHEAD_LINES;
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

/** A project's file as the chunked views name it: by its content's id (the blob's, or the LFS object's), its highlighting kept by that id. */
export function projectFile(deps: Deps, projectId: number, path: string, contentId: string, text: string): WholeFile {
  return { path, text, blobId: `${projectId}\0${path}\0${contentId}`, store: highlightStore(deps, projectId, contentId, path) };
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
  // The highlighting of the chunks to come starts now, off the event loop: the first ones, then the whole file.
  if (!whole && lines.length > 2 * AHEAD_LINES) void aheadMarkup(file).catch(() => undefined);
  if (!whole) highlightInBackground(file);
  let body = `<tbody>${lineRows(first, 0)}</tbody>`;
  for (let n = 1; n < chunkCount(lines.length); n += 1) {
    const plain = lines.slice(n * CHUNK_LINES, (n + 1) * CHUNK_LINES).map((line) => escapeHtml(line));
    body += `<tbody class="blob-chunk" data-chunk="${n}" hx-get="${escapeHtml(file.chunkUrl(n))}" hx-trigger="revealed" hx-swap="outerHTML">${lineRows(plain, n * CHUNK_LINES)}</tbody>`;
  }
  return raw(`<div class="code-scroll"><table class="code blob" aria-label="${escapeHtml(file.label)}">${body}</table></div>`);
}

/** The highlighted lines of chunk `n` (1 is the second), or null when the file has no such chunk. */
export async function chunkMarkup(file: WholeFile, n: number): Promise<string[] | null> {
  const lineCount = linesOf(file.text).length;
  if (!Number.isInteger(n) || n < 1 || n >= chunkCount(lineCount)) return null;
  const kept = isAheadChunk(n, lineCount) ? await file.store.read().catch(() => null) : null;
  const markup = isAheadChunk(n, lineCount) && kept?.length !== lineCount ? await aheadMarkup(file) : (kept ?? (await wholeMarkup(file)));
  return markup.slice(n * CHUNK_LINES, (n + 1) * CHUNK_LINES);
}

/** Chunk `n` highlighted (the fragment that replaces it), or null when the file has no such chunk. */
export async function highlightedChunk(file: WholeFile, n: number): Promise<Html | null> {
  const markup = await chunkMarkup(file, n);
  return markup && raw(`<tbody class="blob-chunk-highlighted" data-chunk="${n}">${lineRows(markup, n * CHUNK_LINES)}</tbody>`);
}

/** Starts highlighting the whole file off the event loop, kept when done (for the chunks to come and the next view). */
export function highlightInBackground(file: WholeFile): void {
  void wholeMarkup(file).catch(() => undefined);
}
