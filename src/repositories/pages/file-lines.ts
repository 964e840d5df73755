// A file's lines as a table with numbers and anchors (`#L10`; kiln.js selects ranges, `#L10-20`),
// the code highlighted when highlight.js knows the language. Built as one string: a 5,000-line file
// is 5,000 rows, and template calls per row would cost more than the highlighting's cache hit.
import { escapeHtml, raw, type Html } from '../../platform/web/html.js';
import { highlightText } from '../../platform/web/highlight/highlighter.js';

/** Pure: a text's lines, without the empty one after a final line break. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Markup per line: highlighted, or escaped text. */
export async function lineMarkup(path: string, text: string): Promise<string[]> {
  const lines = linesOf(text);
  const highlighted = await highlightText({ path, text });
  return lines.map((line, index) => highlighted?.[index] ?? escapeHtml(line));
}

/** Where a file's highlighted lines are kept beyond this process (the database: page-caches.ts, keptHighlight). */
export interface MarkupStore {
  read(): Promise<string[] | null>;
  write(lines: string[]): Promise<void>;
}

/**
 * Markup per line, read from `store` when kept there, else highlighted and kept there (only a real
 * highlighting is kept: a text shown plain because the highlighter was busy is asked again next time).
 * A store that fails costs the highlighting, never the page. `timeoutMs`: the highlighter's deadline.
 */
export async function storedLineMarkup(store: MarkupStore, path: string, text: string, timeoutMs?: number): Promise<string[]> {
  const lines = linesOf(text);
  const kept = await store.read().catch(() => null);
  if (kept && kept.length === lines.length) return kept;
  const highlighted = await highlightText({ path, text }, timeoutMs);
  if (!highlighted || highlighted.length < lines.length) return lines.map((line) => escapeHtml(line));
  const markup = highlighted.slice(0, lines.length);
  await store.write(markup).catch(() => undefined);
  return markup;
}

/** Rows of numbered lines, the first numbered `offset + 1`. */
export function lineRows(markup: readonly string[], offset: number): string {
  let rows = '';
  for (let index = 0; index < markup.length; index += 1) {
    const number = offset + index + 1;
    rows += `<tr id="L${number}"><td class="num"><a href="#L${number}" data-line-number="${number}">${number}</a></td><td class="line">${markup[index]}</td></tr>`;
  }
  return rows;
}

export function lineTable(markup: readonly string[], label: string): Html {
  return raw(`<div class="code-scroll"><table class="code blob" aria-label="${escapeHtml(label)}"><tbody>${lineRows(markup, 0)}</tbody></table></div>`);
}
