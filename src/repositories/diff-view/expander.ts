// The hidden lines between a diff's hunks (and above the first, below the last) as expander rows:
// links that fetch 20 more lines, or all of them, from the new side's file (GitLab's "expand up",
// "expand down", "show all"), swapped in by htmx in place of the row. Without JavaScript the links
// lead to the file at that line.
import { encodePathSegments as encodePath } from '../../platform/web/url-paths.js';
import { html, type Html } from '../../platform/web/html.js';
import type { DiffMode } from './options.js';
import { spanningRow } from './render-rows.js';

export const EXPAND_STEP = 20;

/** Lines `from`…`to` of the new file (to: null up to its end); old line = new line − offset. */
export interface Gap {
  from: number;
  to: number | null;
  offset: number;
}

export interface ExpanderContext {
  projectPath: string;
  newSha: string;
  newPath: string;
  mode: DiffMode;
  idPrefix: string;
}


export function expandUrl(context: ExpanderContext, gap: Gap, since: number, to: number | null): string {
  const query = new URLSearchParams({
    since: String(since),
    to: to === null ? 'end' : String(to),
    offset: String(gap.offset),
    gap_from: String(gap.from),
    gap_to: gap.to === null ? 'end' : String(gap.to),
    view: context.mode,
    prefix: context.idPrefix,
  });
  return `/${context.projectPath}/-/diff_lines/${context.newSha}/${encodePath(context.newPath)}?${query.toString()}`;
}

function expandLink(context: ExpanderContext, gap: Gap, since: number, to: number | null, label: string): Html {
  const fallback = `/${context.projectPath}/-/blob/${context.newSha}/${encodePath(context.newPath)}#L${since}`;
  return html`<a class="button small secondary" href="${fallback}" hx-get="${expandUrl(context, gap, since, to)}" hx-target="closest tr" hx-swap="outerHTML">${label}</a> `;
}

/** The row offering to show a gap's lines; nothing for an empty gap. */
export function expanderRow(context: ExpanderContext, gap: Gap): Html {
  if (gap.to !== null && gap.to < gap.from) return html``;
  const size = gap.to === null ? null : gap.to - gap.from + 1;
  let links: Html;
  if (size !== null && size <= EXPAND_STEP * 2) links = expandLink(context, gap, gap.from, gap.to, `Show ${size} hidden ${size === 1 ? 'line' : 'lines'}`);
  else if (gap.to === null) links = html`${expandLink(context, gap, gap.from, gap.from + EXPAND_STEP - 1, `Show next ${EXPAND_STEP} lines`)}${expandLink(context, gap, gap.from, null, 'Show all lines')}`;
  else {
    links = html`${gap.from > 1 ? expandLink(context, gap, gap.from, gap.from + EXPAND_STEP - 1, `Show next ${EXPAND_STEP} lines`) : ''}${expandLink(context, gap, gap.to - EXPAND_STEP + 1, gap.to, `Show previous ${EXPAND_STEP} lines`)}${expandLink(context, gap, gap.from, gap.to, `Show all ${size} lines`)}`;
  }
  return spanningRow(context.mode, 'expander', links);
}
