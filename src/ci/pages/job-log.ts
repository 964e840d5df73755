// A job's log as the job page shows it: ANSI colours turned into classes by ansi_up (`use_classes`,
// so no inline style reaches a page whose Content-Security-Policy forbids them), and the sections
// GitLab Runner marks (`section_start:<unix time>:<name>[options]\r\e[0K<header>` … `section_end:
// <unix time>:<name>\r\e[0K`) as collapsible blocks with their duration. A carriage return inside a
// line keeps what was written after it (progress bars), as a terminal would show it. Only the log's
// last MAX_SHOWN bytes are rendered; the raw log has the rest.
import { AnsiUp } from 'ansi_up';
import { html, raw, type Html } from '../../platform/web/html.js';

export const MAX_SHOWN = 512 * 1024;

// eslint-disable-next-line no-control-regex
const MARKER = /section_(start|end):(\d{1,12}):([A-Za-z0-9_.-]{1,100})(\[[^\]\r\n]{0,200}\])?\r?\x1b\[0K/g;

/** ansi_up writes bold, faint, italic, underline and 24-bit colours as inline styles even with classes on: these become classes (or go). */
const STYLE_CLASSES: Record<string, string> = { 'font-weight:bold': 'ansi-bold', 'opacity:0.7': 'ansi-faint', 'font-style:italic': 'ansi-italic', 'text-decoration:underline': 'ansi-underline' };

function withoutInlineStyles(markup: string): string {
  return markup.replace(/<span style="([^"]*)"(?: class="([^"]*)")?>/g, (_all, styles: string, classes: string | undefined) => {
    const names = [...(classes ? classes.split(' ') : []), ...styles.split(';').map((style) => STYLE_CLASSES[style.trim()]).filter((name): name is string => name !== undefined)];
    return names.length ? `<span class="${names.join(' ')}">` : '<span>';
  });
}

/** What a carriage return leaves of each line: the text after the last one (a trailing one, before the newline, is ignored). */
function overwritten(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
      const last = trimmed.lastIndexOf('\r');
      return last === -1 ? trimmed : trimmed.slice(last + 1);
    })
    .join('\n');
}

interface Section {
  name: string;
  startedAt: number;
  collapsed: boolean;
  header: string;
  body: string;
}

function durationOf(seconds: number): string {
  const clamped = Math.max(0, seconds);
  const minutes = Math.floor(clamped / 60);
  return `${String(minutes).padStart(2, '0')}:${String(clamped % 60).padStart(2, '0')}`;
}

export interface RenderedLog {
  html: Html;
  /** Bytes left out at the start (the log is longer than MAX_SHOWN). */
  truncated: number;
}

/** The log's last MAX_SHOWN bytes, from a line's start, as HTML. */
export function renderJobLog(data: Buffer): RenderedLog {
  let start = Math.max(0, data.length - MAX_SHOWN);
  if (start > 0) {
    const newline = data.indexOf(0x0a, start);
    start = newline === -1 ? data.length : newline + 1;
  }
  const text = data.subarray(start).toString('utf8');
  const ansi = new AnsiUp();
  ansi.use_classes = true;
  ansi.escape_html = true;
  const convert = (chunk: string) => withoutInlineStyles(ansi.ansi_to_html(overwritten(chunk)));
  // The root collects rendered markup; each open section collects its own until its end marker.
  const stack: Section[] = [];
  let root = '';
  const append = (markup: string) => {
    if (stack.length) stack[stack.length - 1].body += markup;
    else root += markup;
  };
  const close = (section: Section, endedAt: number | null) => {
    const duration = endedAt === null ? '' : `<span class="log-duration">${durationOf(endedAt - section.startedAt)}</span>`;
    append(`<details class="log-section" data-section="${section.name}"${section.collapsed ? '' : ' open'}><summary>${section.header || section.name}${duration}</summary>${section.body}</details>`);
  };
  let at = 0;
  for (const match of text.matchAll(MARKER)) {
    const before = text.slice(at, match.index);
    at = match.index + match[0].length;
    append(convert(before));
    const [, kind, time, name, options] = match;
    if (kind === 'start') {
      // The header is the rest of the marker's line.
      const newline = text.indexOf('\n', at);
      const headerEnd = newline === -1 ? text.length : newline;
      const header = convert(text.slice(at, headerEnd));
      at = newline === -1 ? text.length : newline + 1;
      stack.push({ name, startedAt: Number(time), collapsed: /collapsed=true/.test(options ?? ''), header, body: '' });
    } else {
      const index = stack.map((section) => section.name).lastIndexOf(name);
      // An end without its start (cut off, or never written) is dropped, as GitLab does.
      if (index === -1) continue;
      while (stack.length > index + 1) close(stack.pop()!, null);
      close(stack.pop()!, Number(time));
      // The marker's line ends here: its newline belongs to no section.
      if (text[at] === '\n') at += 1;
    }
  }
  append(convert(text.slice(at)));
  while (stack.length) close(stack.pop()!, null);
  return { html: raw(root), truncated: start };
}

/** The log block of the job page (escaped, classes only). */
export function jobLogBlock(data: Buffer, rawUrl: string): Html {
  if (data.length === 0) return html`<p class="muted" id="job-log-empty">No log yet.</p>`;
  const rendered = renderJobLog(data);
  return html`${rendered.truncated > 0 ? html`<p class="muted" id="job-log-truncated">Showing the last ${Math.round((data.length - rendered.truncated) / 1024)} KiB of the log. <a href="${rawUrl}">Complete raw log</a></p>` : ''}<div class="job-log" id="job-log" role="log" aria-label="Job log" tabindex="0">${rendered.html}</div>`;
}
