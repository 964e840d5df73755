// A long file's lines in chunks, as GitLab's blob viewer shows them: the first chunk highlighted on the
// server with the page, every later chunk sent with the page as plain (escaped) lines — so every line,
// number and anchor is there at once, with or without JavaScript — and replaced by its highlighted
// version when it scrolls into view (htmx `revealed`, `?chunk=N` of the same blob page at the commit).
// Highlighting the first chunk alone gives the lines the whole file's highlighting would (highlight.js
// reads left to right); a later chunk's colours depend on what came before it, so its fragment is cut
// from the whole file's highlighting, started in the background when the page is served and kept by
// the highlighter's cache (by text digest), so each chunk after the first costs no highlighting.
import { escapeHtml, raw, type Html } from '../../platform/web/html.js';
import { lineMarkup, lineRows, lineTable, linesOf } from './file-lines.js';

/** Lines a chunk (GitLab's viewer uses 70): the first is all the page waits to highlight. */
export const CHUNK_LINES = 100;

/** Whole-file highlightings under way, by file: a chunk asked meanwhile waits for it instead of starting another. */
const underWay = new Map<string, Promise<string[]>>();

function wholeMarkup(key: string, path: string, text: string): Promise<string[]> {
  const running = underWay.get(key);
  if (running) return running;
  const started = lineMarkup(path, text).finally(() => underWay.delete(key));
  underWay.set(key, started);
  return started;
}

/** Pure: how many chunks `lineCount` lines make. */
export function chunkCount(lineCount: number): number {
  return Math.max(1, Math.ceil(lineCount / CHUNK_LINES));
}

export interface ChunkedFile {
  path: string;
  text: string;
  /** Names the file's content (its blob id): the key of the whole-file highlighting under way. */
  blobId: string;
  label: string;
  /** The address of chunk `n` (1 is the second chunk), at the commit, so every chunk is of the same file. */
  chunkUrl(n: number): string;
}

/** The file's line table: the first chunk highlighted, later chunks plain until revealed. */
export async function chunkedLineTable(file: ChunkedFile): Promise<Html> {
  const lines = linesOf(file.text);
  if (lines.length <= CHUNK_LINES) return lineTable(await lineMarkup(file.path, file.text), file.label);
  // The whole file's highlighting starts now, off the event loop, for the chunks to come.
  void wholeMarkup(file.blobId, file.path, file.text).catch(() => undefined);
  const first = await lineMarkup(file.path, `${lines.slice(0, CHUNK_LINES).join('\n')}\n`);
  let body = `<tbody>${lineRows(first, 0)}</tbody>`;
  for (let n = 1; n < chunkCount(lines.length); n += 1) {
    const plain = lines.slice(n * CHUNK_LINES, (n + 1) * CHUNK_LINES).map((line) => escapeHtml(line));
    body += `<tbody class="blob-chunk" data-chunk="${n}" hx-get="${escapeHtml(file.chunkUrl(n))}" hx-trigger="revealed" hx-swap="outerHTML">${lineRows(plain, n * CHUNK_LINES)}</tbody>`;
  }
  return raw(`<div class="code-scroll"><table class="code blob" aria-label="${escapeHtml(file.label)}">${body}</table></div>`);
}

/** Chunk `n` highlighted (the fragment that replaces it), or null when the file has no such chunk. */
export async function highlightedChunk(file: Omit<ChunkedFile, 'label' | 'chunkUrl'>, n: number): Promise<Html | null> {
  const lineCount = linesOf(file.text).length;
  if (!Number.isInteger(n) || n < 1 || n >= chunkCount(lineCount)) return null;
  const markup = await wholeMarkup(file.blobId, file.path, file.text);
  return raw(`<tbody class="blob-chunk-highlighted" data-chunk="${n}">${lineRows(markup.slice(n * CHUNK_LINES, (n + 1) * CHUNK_LINES), n * CHUNK_LINES)}</tbody>`);
}
