// The answer to an expander (expander.ts): the asked lines of the new file as unchanged diff lines,
// with the expanders of what stays hidden above and below them.
import { escapeHtml, html, type Html } from '../../platform/web/html.js';
import type { DiffLine } from './parse-patch.js';
import type { DiffMode } from './options.js';
import { markup, renderRows } from './render-rows.js';
import { expanderRow, type Gap } from './expander.js';

export interface ExpandRequest {
  projectPath: string;
  newSha: string;
  newPath: string;
  mode: DiffMode;
  idPrefix: string;
  gap: Gap;
  since: number;
  /** null: up to the end of the file. */
  to: number | null;
}

/** `lines` is the whole new file, `highlighted` its markup per line when there is one. */
export function renderExpandedLines(request: ExpandRequest, lines: readonly string[], highlighted: readonly string[] | null): Html {
  const gapEnd = Math.min(request.gap.to ?? lines.length, lines.length);
  const since = Math.max(request.since, request.gap.from, 1);
  const to = Math.min(request.to ?? gapEnd, gapEnd);
  const shown: DiffLine[] = [];
  for (let number = since; number <= to; number += 1) {
    const old = number - request.gap.offset;
    shown.push({ type: 'context', text: lines[number - 1], oldLine: old, newLine: number, oldPosition: old, newPosition: number });
  }
  const context = { projectPath: request.projectPath, newSha: request.newSha, newPath: request.newPath, mode: request.mode, idPrefix: request.idPrefix };
  const rows = renderRows(
    {
      mode: request.mode,
      oldPath: request.newPath,
      newPath: request.newPath,
      idPrefix: request.idPrefix,
      rangeInputId: '',
      code: (line) => markup(highlighted?.[line.newLine! - 1] ?? escapeHtml(line.text)),
    },
    shown,
  );
  const above = expanderRow(context, { ...request.gap, to: since - 1 });
  // Below the asked lines, up to the gap's end (or the file's, for the gap after the last hunk).
  const below = request.gap.to === null && to >= lines.length ? html`` : expanderRow(context, { ...request.gap, from: to + 1, to: request.gap.to === null ? null : gapEnd });
  return html`${above}${rows}${below}`;
}
