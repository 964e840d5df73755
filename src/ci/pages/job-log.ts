// A job's log as the job page shows it: ANSI colours turned into classes by ansi_up (`use_classes`,
// so no inline style reaches a page whose Content-Security-Policy forbids them), and the sections
// GitLab Runner marks (`section_start:<unix time>:<name>[options]\r\e[0K<header>` … `section_end:
// <unix time>:<name>\r\e[0K`) as collapsible blocks with their duration. A carriage return inside a
// line keeps what was written after it (progress bars), as a terminal would show it. Only the log's
// last MAX_SHOWN bytes are rendered; the raw log has the rest.
//
// A running job's page grows its log without rendering it again (as GitLab's trace.json with its
// `state`): a render ends with a LogState (the byte offset reached, the colours in force, the sections
// still open), which the page sends back with its next poll; only the bytes after that offset are
// rendered, and each piece is appended where it belongs (the log, or an open section's body, by id).
// While the job runs, a render stops after the log's last newline: a line is rendered once complete, so
// no escape sequence or section marker is ever cut, and no masked secret (one line, never a newline)
// can still change in what was rendered.
//
// Pages render on a worker thread (log-render-pool.ts). Rendered on the event loop (when the pool
// cannot take it), a render yields after every RENDER_SLICE characters, cut after a newline (ansi_up
// keeps the colours from one piece to the next): a viewer far behind gets up to MAX_SHOWN rendered
// again, one ~30 ms pass of ansi_up that would hold every other request of the process; in pieces,
// other requests are answered between them.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { AnsiUp } from 'ansi_up';
import { html, raw, type Html } from '../../platform/web/html.js';

export const MAX_SHOWN = 512 * 1024;
/** Characters of log rendered between two turns of the event loop (~2 ms of ansi_up). */
export const RENDER_SLICE = 32 * 1024;

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

/** The colours and attributes in force (ansi_up's own, carried from one render to the next). */
interface AnsiStyle {
  fg: AnsiColor | null;
  bg: AnsiColor | null;
  bold: boolean;
  faint: boolean;
  italic: boolean;
  underline: boolean;
}

interface AnsiColor {
  rgb: [number, number, number];
  class_name: string;
}

/** A section still open: its id is the byte offset of its start marker, unique in the log. */
export interface OpenSection {
  id: number;
  name: string;
  startedAt: number;
  collapsed: boolean;
}

export interface LogState {
  /** The stored log's bytes rendered so far: the next render starts here. */
  offset: number;
  style: AnsiStyle;
  sections: OpenSection[];
}

/** What a render adds: markup for the log's root (section null) or an open section's body, and durations of sections it closed. */
export interface LogIncrement {
  appends: { section: number | null; markup: string }[];
  closed: { section: number; duration: string }[];
  state: LogState;
}

const PLAIN: AnsiStyle = { fg: null, bg: null, bold: false, faint: false, italic: false, underline: false };
const MAX_OPEN_SECTIONS = 50;
type AnsiInternals = AnsiStyle;

interface Frame extends OpenSection {
  header: string;
  body: string;
  /** Opened by an earlier render: already on the page, its body grows by id. */
  inherited: boolean;
}

function durationOf(seconds: number): string {
  const clamped = Math.max(0, seconds);
  const minutes = Math.floor(clamped / 60);
  return `${String(minutes).padStart(2, '0')}:${String(clamped % 60).padStart(2, '0')}`;
}

export const sectionBodyId = (section: number) => `log-section-${section}`;
export const sectionDurationId = (section: number) => `log-section-${section}-duration`;

/** `text` in pieces of about `slice` characters, each ending after a newline (or at the end of `text`). */
function* piecesOf(text: string, slice: number): Generator<string> {
  let at = 0;
  while (text.length - at > slice) {
    const newline = text.indexOf('\n', at + slice - 1);
    if (newline === -1) break;
    yield text.slice(at, newline + 1);
    at = newline + 1;
  }
  if (at < text.length) yield text.slice(at);
}

/**
 * Renders `text`, the stored log's bytes from `offset`, continuing `from` (the end of the previous
 * render), giving the event loop a turn after every `slice` characters.
 */
export async function renderLogText(text: string, offset: number, from: LogState | null, slice = RENDER_SLICE): Promise<LogIncrement> {
  const ansi = new AnsiUp();
  ansi.use_classes = true;
  ansi.escape_html = true;
  Object.assign(ansi as unknown as AnsiInternals, from?.style ?? PLAIN);
  let sinceTurn = 0;
  const convert = async (chunk: string) => {
    let markup = '';
    for (const piece of piecesOf(chunk, slice)) {
      if (sinceTurn >= slice) {
        sinceTurn = 0;
        await nextTurn();
      }
      markup += withoutInlineStyles(ansi.ansi_to_html(overwritten(piece)));
      sinceTurn += piece.length;
    }
    return markup;
  };
  // The root collects rendered markup; each open section collects its own until its end marker.
  const stack: Frame[] = (from?.sections ?? []).map((section) => ({ ...section, header: '', body: '', inherited: true }));
  const appends: LogIncrement['appends'] = [];
  const closed: LogIncrement['closed'] = [];
  let root = '';
  const append = (markup: string) => {
    if (stack.length) stack[stack.length - 1].body += markup;
    else root += markup;
  };
  const flushInherited = (frame: Frame) => {
    if (frame.body) appends.push({ section: frame.id, markup: frame.body });
  };
  const close = (frame: Frame, endedAt: number | null) => {
    if (frame.inherited) {
      flushInherited(frame);
      if (endedAt !== null) closed.push({ section: frame.id, duration: durationOf(endedAt - frame.startedAt) });
      return;
    }
    const duration = endedAt === null ? '' : `<span class="log-duration">${durationOf(endedAt - frame.startedAt)}</span>`;
    append(`<details class="log-section" data-section="${frame.name}"${frame.collapsed ? '' : ' open'}><summary>${frame.header || frame.name}${duration}</summary>${frame.body}</details>`);
  };
  // Still open when the text ends: its body gets an id, for the next render to append to.
  const leaveOpen = (frame: Frame) => {
    if (frame.inherited) return flushInherited(frame);
    append(
      `<details class="log-section" data-section="${frame.name}"${frame.collapsed ? '' : ' open'}><summary>${frame.header || frame.name}<span class="log-duration" id="${sectionDurationId(frame.id)}"></span></summary><div class="log-section-body" id="${sectionBodyId(frame.id)}">${frame.body}</div></details>`,
    );
  };
  // Byte offsets of the markers (the sections' ids), counted as the text is walked.
  let counted = 0;
  let countedBytes = offset;
  const byteOffsetOf = (index: number) => {
    countedBytes += Buffer.byteLength(text.slice(counted, index));
    counted = index;
    return countedBytes;
  };
  let at = 0;
  for (const match of text.matchAll(MARKER)) {
    const before = text.slice(at, match.index);
    at = match.index + match[0].length;
    append(await convert(before));
    const [, kind, time, name, options] = match;
    if (kind === 'start') {
      // The header is the rest of the marker's line.
      const newline = text.indexOf('\n', at);
      const headerEnd = newline === -1 ? text.length : newline;
      const header = await convert(text.slice(at, headerEnd));
      const id = byteOffsetOf(match.index);
      at = newline === -1 ? text.length : newline + 1;
      stack.push({ id, name, startedAt: Number(time), collapsed: /collapsed=true/.test(options ?? ''), header, body: '', inherited: false });
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
  append(await convert(text.slice(at)));
  const internals = ansi as unknown as AnsiInternals;
  const state: LogState = {
    offset: offset + Buffer.byteLength(text),
    style: { fg: internals.fg, bg: internals.bg, bold: internals.bold, faint: internals.faint, italic: internals.italic, underline: internals.underline },
    sections: stack.slice(-MAX_OPEN_SECTIONS).map(({ id, name, startedAt, collapsed }) => ({ id, name, startedAt, collapsed })),
  };
  while (stack.length) leaveOpen(stack.pop()!);
  if (root) appends.push({ section: null, markup: root });
  return { appends, closed, state };
}

export interface RenderedLog {
  html: Html;
  /** Bytes left out at the start (the log is longer than MAX_SHOWN). */
  truncated: number;
  state: LogState;
}

/** The part of `data` to render: from a line's start within the last MAX_SHOWN bytes, to the last newline while the job runs. */
function shownRange(data: Buffer, running: boolean): [number, number] {
  let start = Math.max(0, data.length - MAX_SHOWN);
  if (start > 0) {
    const newline = data.indexOf(0x0a, start);
    start = newline === -1 ? data.length : newline + 1;
  }
  return [start, running ? completeLinesEnd(data, start) : data.length];
}

/** The end of the last complete line in `data` after `from` (`from` when there is none). */
export function completeLinesEnd(data: Buffer, from: number): number {
  const newline = data.lastIndexOf(0x0a);
  return newline < from ? from : newline + 1;
}

/** renderLogText's contract, wherever it runs (log-render-pool.ts renders on a worker thread). */
export type LogRenderer = (text: string, offset: number, from: LogState | null) => Promise<LogIncrement>;

/** The log's last MAX_SHOWN bytes, from a line's start, as HTML; `offset` is where `data` starts in the log. */
export async function renderJobLog(data: Buffer, options: { offset?: number; running?: boolean; slice?: number; render?: LogRenderer } = {}): Promise<RenderedLog> {
  const [start, end] = shownRange(data, options.running ?? false);
  const base = (options.offset ?? 0) + start;
  const text = data.subarray(start, end).toString('utf8');
  const rendered = options.render ? await options.render(text, base, null) : await renderLogText(text, base, null, options.slice);
  return { html: raw(rendered.appends.map((piece) => piece.markup).join('')), truncated: base, state: rendered.state };
}

/** The log block of the job page (escaped, classes only): `size` is the whole log's length. */
export function jobLogBlock(rendered: RenderedLog | null, size: number, rawUrl: string, outOfBand = false): Html {
  const content =
    !rendered || rendered.state.offset === rendered.truncated
      ? html`<p class="muted" id="job-log-empty">No log yet.</p>`
      : html`${rendered.truncated > 0 ? html`<p class="muted" id="job-log-truncated">Showing the last ${Math.round((size - rendered.truncated) / 1024)} KiB of the log. <a href="${rawUrl}">Complete raw log</a></p>` : ''}<div class="job-log" id="job-log" role="log" aria-label="Job log" tabindex="0">${rendered.html}</div>`;
  return html`<div id="job-log-block"${outOfBand ? html` hx-swap-oob="true"` : ''}>${content}</div>`;
}

/** An increment as htmx out-of-band swaps: appended to the log or to open sections' bodies, durations of closed sections filled in. */
export function jobLogIncrement(increment: LogIncrement): Html {
  return html`${increment.appends.map((piece) => html`<div hx-swap-oob="beforeend:#${piece.section === null ? 'job-log' : sectionBodyId(piece.section)}">${raw(piece.markup)}</div>`)}${increment.closed.map(
    (section) => html`<span class="log-duration" id="${sectionDurationId(section.section)}" hx-swap-oob="true">${section.duration}</span>`,
  )}`;
}

const SECTION_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const CLASS_NAME = /^[a-z-]{1,40}$/;

function colorOf(value: unknown): AnsiColor | null | undefined {
  if (value === null) return null;
  const color = value as AnsiColor;
  if (typeof color !== 'object' || !Array.isArray(color.rgb) || color.rgb.length !== 3 || typeof color.class_name !== 'string' || !CLASS_NAME.test(color.class_name)) return undefined;
  if (!color.rgb.every((part) => Number.isInteger(part) && part >= 0 && part <= 255)) return undefined;
  return { rgb: [color.rgb[0], color.rgb[1], color.rgb[2]], class_name: color.class_name };
}

/** The state as the page carries it (base64url JSON). */
export function encodeLogState(state: LogState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

/** A state the page sent back, checked field by field (it comes from the client): null when it is not one. */
export function decodeLogState(token: unknown): LogState | null {
  if (typeof token !== 'string' || token.length > 16_384) return null;
  let value: LogState;
  try {
    value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as LogState;
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || !Number.isSafeInteger(value.offset) || value.offset < 0) return null;
  const style = value.style as Partial<AnsiStyle> | undefined;
  if (typeof style !== 'object' || style === null) return null;
  const fg = colorOf(style.fg);
  const bg = colorOf(style.bg);
  const flags = [style.bold, style.faint, style.italic, style.underline];
  if (fg === undefined || bg === undefined || !flags.every((flag) => typeof flag === 'boolean')) return null;
  if (!Array.isArray(value.sections) || value.sections.length > MAX_OPEN_SECTIONS) return null;
  const sections: OpenSection[] = [];
  for (const section of value.sections as Partial<OpenSection>[]) {
    if (typeof section !== 'object' || section === null) return null;
    const { id, name, startedAt, collapsed } = section;
    if (!Number.isSafeInteger(id) || id! < 0 || id! >= value.offset || typeof name !== 'string' || !SECTION_NAME.test(name) || !Number.isSafeInteger(startedAt) || typeof collapsed !== 'boolean') return null;
    sections.push({ id: id!, name, startedAt: startedAt!, collapsed });
  }
  return { offset: value.offset, style: { fg, bg, bold: style.bold!, faint: style.faint!, italic: style.italic!, underline: style.underline! }, sections };
}
