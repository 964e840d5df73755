// The rows of a diff table, inline (one column of code) or side by side (old left, new right): line
// numbers that link to the line's anchor (its GitLab line code), the code highlighted when a
// highlighting is given, and the comment hooks of options.ts under and beside each line.
import { html, raw, type Html } from '../../platform/web/html.js';
import type { DiffLine } from './parse-patch.js';
import { pairLines } from './parse-patch.js';
import { lineCode } from './line-code.js';
import type { DiffComments, DiffLinePosition, DiffMode } from './options.js';

export interface RowContext {
  mode: DiffMode;
  oldPath: string;
  newPath: string;
  /** Prefixed to every element id (two views on one page). */
  idPrefix: string;
  /** The hidden input of the file that holds a selected range's first line code. */
  rangeInputId: string;
  /** A line's code as markup: highlighted, or escaped text. */
  code(line: DiffLine, side: 'old' | 'new'): Html;
  comments?: DiffComments;
}

export function positionOf(context: RowContext, line: DiffLine): DiffLinePosition {
  return {
    oldPath: context.oldPath,
    newPath: context.newPath,
    oldLine: line.oldLine,
    newLine: line.newLine,
    type: line.type === 'add' ? 'new' : line.type === 'del' ? 'old' : null,
    lineCode: lineCode(context.newPath, line.oldPosition, line.newPosition),
  };
}

const SIGN = { add: '+', del: '-', context: ' ' } as const;
const CLASS = { add: 'add', del: 'del', context: '' } as const;

/** A line number linking to the line's anchor; `elementId` puts that anchor on the cell itself. */
function numberCell(id: string, number: number | null, kind: string, elementId: string | null = null): Html {
  if (number === null) return html`<td class="num ${kind}"></td>`;
  return html`<td class="num ${kind}"${elementId ? html` id="${elementId}"` : ''}><a href="#${id}" data-line-number="${number}">${number}</a></td>`;
}

function commentButton(context: RowContext, position: DiffLinePosition): Html {
  const url = context.comments?.formUrl?.(position);
  if (!url) return html``;
  const where = position.newLine ?? position.oldLine;
  return html`<button type="button" class="comment-button small secondary" hx-get="${url}" hx-target="closest tr" hx-swap="afterend" hx-include="#${context.rangeInputId}"><span aria-hidden="true">+</span><span class="visually-hidden">Comment on line ${where ?? ''}</span></button>`;
}

function codeCell(context: RowContext, line: DiffLine | null, side: 'old' | 'new', position: DiffLinePosition | null): Html {
  if (!line) return html`<td class="line empty"></td>`;
  const kind = CLASS[line.type];
  return html`<td class="line ${kind}"><span class="sign">${SIGN[line.type]}</span>${context.code(line, side)}${position ? commentButton(context, position) : ''}</td>`;
}

function slotRow(context: RowContext, position: DiffLinePosition, columns: number): Html {
  const threads = context.comments?.threadsFor?.(position);
  if (!threads) return html``;
  return html`<tr class="slot" data-line-code="${position.lineCode}"><td colspan="${columns}">${threads}</td></tr>`;
}

function inlineRow(context: RowContext, line: DiffLine): Html {
  const position = positionOf(context, line);
  const id = `${context.idPrefix}${position.lineCode}`;
  return html`<tr${line.type === 'context' ? '' : html` class="${CLASS[line.type]}"`} id="${id}" data-line-code="${position.lineCode}">${numberCell(id, line.oldLine, 'old')}${numberCell(id, line.newLine, 'new')}${codeCell(context, line, line.type === 'del' ? 'old' : 'new', position)}</tr>${slotRow(context, position, 3)}`;
}

function parallelRow(context: RowContext, left: DiffLine | null, right: DiffLine | null): Html {
  // A context line is one line on both sides: one anchor (on the row), one slot.
  const same = left !== null && left === right;
  const leftPosition = left ? positionOf(context, left) : null;
  const rightPosition = right ? (same ? leftPosition : positionOf(context, right)) : null;
  const idOf = (position: DiffLinePosition | null) => (position ? `${context.idPrefix}${position.lineCode}` : '');
  const empty = html`<td class="num empty"></td>`;
  const row = html`<tr${same ? html` id="${idOf(leftPosition)}"` : ''} data-line-code="${(rightPosition ?? leftPosition)!.lineCode}">${
    left ? numberCell(idOf(leftPosition), left.oldLine, `old ${CLASS[left.type]}`, same ? null : idOf(leftPosition)) : empty
  }${codeCell(context, left, 'old', same ? null : leftPosition)}${
    right ? numberCell(idOf(rightPosition), right.newLine, `new ${CLASS[right.type]}`, same ? null : idOf(rightPosition)) : empty
  }${codeCell(context, right, 'new', rightPosition)}</tr>`;
  const slots = same ? [leftPosition!] : [leftPosition, rightPosition].filter((position): position is DiffLinePosition => position !== null);
  return html`${row}${slots.map((position) => slotRow(context, position, 4))}`;
}

/** The rows of some lines of one file, in the context's mode. */
export function renderRows(context: RowContext, lines: readonly DiffLine[]): Html {
  if (context.mode === 'inline') return html`${lines.map((line) => inlineRow(context, line))}`;
  return html`${pairLines(lines).map(({ left, right }) => parallelRow(context, left, right))}`;
}

export function columnsOf(mode: DiffMode): number {
  return mode === 'inline' ? 3 : 4;
}

/** A row across the table (a hunk header, an expander). */
export function spanningRow(mode: DiffMode, className: string, content: Html): Html {
  return html`<tr class="${className}"><td colspan="${columnsOf(mode)}">${content}</td></tr>`;
}

/** Markup that is already escaped (highlight.js output, cut into lines). */
export function markup(text: string): Html {
  return raw(text);
}
