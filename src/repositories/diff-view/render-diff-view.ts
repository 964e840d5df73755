// The diff view: every changed file with its header and its hunks, highlighted, inline or side by
// side, within GitLab's limits (diff-limits.ts). index.ts documents it for the pages that use it.
import { encodePathSegments as encodePath } from '../../platform/web/url-paths.js';
import { createHash } from 'node:crypto';
import { html, escapeHtml, type Html } from '../../platform/web/html.js';
import { highlightTexts, type Highlighted } from '../../platform/web/highlight/highlighter.js';
import type { FileDiff } from '../repository-api/diffs.js';
import type { DiffViewOptions, DiffMode } from './options.js';
import { parsePatch, patchStats, type DiffHunk, type DiffLine } from './parse-patch.js';
import { DIFF_LIMITS, pageNumbers, planDiff, type FileDisplay } from './diff-limits.js';
import { markup, renderRows, spanningRow, type RowContext } from './render-rows.js';
import { expanderRow, type ExpanderContext } from './expander.js';

function pathHash(path: string): string {
  return createHash('sha1').update(path).digest('hex');
}


function isBinaryPatch(file: FileDiff): boolean {
  return file.diff.startsWith('Binary files ');
}

/** Old-side and new-side texts of the hunks, each line where highlighting puts it. */
function sidesOf(hunks: readonly DiffHunk[]): { old: DiffLine[]; new: DiffLine[] } {
  const sides = { old: [] as DiffLine[], new: [] as DiffLine[] };
  for (const hunk of hunks) for (const line of hunk.lines) {
    if (line.type !== 'add') sides.old.push(line);
    if (line.type !== 'del') sides.new.push(line);
  }
  return sides;
}

interface PreparedFile {
  file: FileDiff;
  display: FileDisplay;
  hunks: DiffHunk[];
  stats: { additions: number; deletions: number };
  /** Highlighted markup by line number, per side (empty when shown plain). */
  oldMarkup: Map<number, string>;
  newMarkup: Map<number, string>;
}

function markupByLine(lines: readonly DiffLine[], highlighted: Highlighted, side: 'old' | 'new'): Map<number, string> {
  const map = new Map<number, string>();
  if (!highlighted) return map;
  lines.forEach((line, index) => {
    const number = side === 'old' ? line.oldLine : line.newLine;
    if (number !== null && highlighted[index] !== undefined) map.set(number, highlighted[index]);
  });
  return map;
}

/** Parse every file, and highlight the ones whose bodies are rendered, in one batch. */
async function prepare(entries: { file: FileDiff; display: FileDisplay; withBody: boolean }[]): Promise<PreparedFile[]> {
  const parsed = entries.map((entry) => ({ ...entry, hunks: parsePatch(entry.file.diff) }));
  const inputs: { path: string; text: string }[] = [];
  const sides = parsed.map((entry) => {
    if (!entry.withBody || entry.display === 'too_large') return null;
    const side = sidesOf(entry.hunks);
    inputs.push({ path: entry.file.old_path, text: side.old.map((line) => line.text).join('\n') });
    inputs.push({ path: entry.file.new_path, text: side.new.map((line) => line.text).join('\n') });
    return side;
  });
  const highlighted = await highlightTexts(inputs);
  let next = 0;
  return parsed.map((entry, index) => {
    const side = sides[index];
    const [oldLines, newLines] = side ? [highlighted[next++], highlighted[next++]] : [null, null];
    return {
      file: entry.file,
      display: entry.display,
      hunks: entry.hunks,
      stats: patchStats(entry.hunks),
      oldMarkup: side ? markupByLine(side.old, oldLines, 'old') : new Map(),
      newMarkup: side ? markupByLine(side.new, newLines, 'new') : new Map(),
    };
  });
}

function kindBadge(file: FileDiff): Html {
  if (file.new_file) return html`<span class="badge">added</span>`;
  if (file.deleted_file) return html`<span class="badge">deleted</span>`;
  if (file.renamed_file) return html`<span class="badge">renamed</span>`;
  return html``;
}

function fileTitle(file: FileDiff): string {
  return file.renamed_file ? `${file.old_path} → ${file.new_path}` : file.new_path;
}

function modeChange(file: FileDiff): Html {
  if (file.new_file || file.deleted_file || file.a_mode === file.b_mode) return html``;
  return html` <span class="muted">mode ${file.a_mode} → ${file.b_mode}</span>`;
}

function tableOf(prepared: PreparedFile, options: DiffViewOptions, idPrefix: string): Html {
  const { file, hunks } = prepared;
  const mode = options.mode;
  const rows: RowContext = {
    mode,
    oldPath: file.old_path,
    newPath: file.new_path,
    idPrefix,
    rangeInputId: `${idPrefix}range-${pathHash(file.new_path)}`,
    code: (line, side) => {
      const number = side === 'old' ? line.oldLine : line.newLine;
      const found = number === null ? undefined : (side === 'old' ? prepared.oldMarkup : prepared.newMarkup).get(number);
      return markup(found ?? escapeHtml(line.text));
    },
    comments: options.comments,
  };
  // Expanding reads the new side's file: not there for a deleted file, nothing hidden in a new one.
  const expandable = !file.deleted_file && !file.new_file;
  const expander: ExpanderContext = { projectPath: options.projectPath, newSha: options.newSha, newPath: file.new_path, mode, idPrefix };
  const parts: Html[] = [];
  let previousNewEnd = 0;
  let previousOldEnd = 0;
  for (const hunk of hunks) {
    if (expandable) parts.push(expanderRow(expander, { from: previousNewEnd + 1, to: hunk.newStart - 1, offset: hunk.newStart - hunk.oldStart }));
    parts.push(spanningRow(mode, 'hunk', html`${hunk.header}`));
    parts.push(renderRows(rows, hunk.lines));
    previousNewEnd = hunk.newStart + hunk.newCount - 1;
    previousOldEnd = hunk.oldStart + hunk.oldCount - 1;
  }
  if (expandable && hunks.length > 0) parts.push(expanderRow(expander, { from: previousNewEnd + 1, to: null, offset: previousNewEnd - previousOldEnd }));
  return html`<input type="hidden" id="${rows.rangeInputId}" name="line_range_start" value=""><div class="code-scroll"><table class="code diff ${mode}" aria-label="Changes to ${file.new_path}"><tbody>${parts}</tbody></table></div>`;
}

function bodyOf(prepared: PreparedFile, options: DiffViewOptions, idPrefix: string): Html {
  const { file } = prepared;
  if (prepared.display === 'too_large') return html`<p class="diff-notice">This diff is too large to show.${file.deleted_file ? '' : html` <a href="/${options.projectPath}/-/blob/${options.newSha}/${encodePath(file.new_path)}">View the file</a>.`}</p>`;
  if (isBinaryPatch(file)) return html`<p class="diff-notice">Binary file${file.deleted_file ? ' deleted' : file.new_file ? ' added' : ' changed'}.</p>`;
  if (prepared.hunks.length === 0) {
    const what = file.renamed_file ? 'File moved without changes.' : file.a_mode !== file.b_mode ? 'File mode changed.' : file.new_file ? 'Empty file added.' : file.deleted_file ? 'Empty file deleted.' : 'No textual change.';
    return html`<p class="diff-notice">${what}</p>`;
  }
  return tableOf(prepared, options, idPrefix);
}

function fileSection(prepared: PreparedFile, options: DiffViewOptions, open: boolean): Html {
  const { file, stats } = prepared;
  const idPrefix = options.idPrefix ?? '';
  const lazy = prepared.display === 'collapsed' && !open && options.fileUrl !== undefined;
  const viewSha = file.deleted_file ? options.oldSha : options.newSha;
  const viewPath = file.deleted_file ? file.old_path : file.new_path;
  return html`<section class="diff-file" id="${idPrefix}file-${pathHash(file.new_path)}" data-path="${file.new_path}">
<details${prepared.display === 'shown' || open ? html` open` : ''}${lazy ? html` hx-get="${options.fileUrl!(file)}" hx-trigger="toggle once" hx-target="find .diff-body" hx-swap="innerHTML"` : ''}>
<summary><span class="diff-path">${fileTitle(file)}</span> ${kindBadge(file)}${modeChange(file)} <span class="diff-stats"><span class="added">+${stats.additions}</span> <span class="removed">−${stats.deletions}</span></span>${prepared.display === 'collapsed' && !open ? html` <span class="muted">(collapsed: open to load)</span>` : ''}</summary>
${viewSha ? html`<p class="file-actions"><a href="/${options.projectPath}/-/blob/${viewSha}/${encodePath(viewPath)}">View file @ <code>${viewSha.slice(0, 8)}</code></a></p>` : ''}
<div class="diff-body">${lazy ? html`<p class="diff-notice">Loading…</p>` : bodyOf(prepared, options, idPrefix)}</div>
</details>
</section>`;
}

function modeSwitch(options: DiffViewOptions): Html {
  if (!options.modeUrl) return html``;
  const link = (mode: DiffMode, label: string) => (options.mode === mode ? html`<strong aria-current="true">${label}</strong>` : html`<a href="${options.modeUrl!(mode)}">${label}</a>`);
  return html`<span class="diff-mode">${link('inline', 'Inline')} | ${link('parallel', 'Side-by-side')}</span>`;
}

/** Files a–b of n, and links to the other pages (the diff view's `paging`). */
function pager(paging: NonNullable<DiffViewOptions['paging']>, current: number, count: number, first: number, last: number, total: number, idPrefix: string, label: string): Html {
  if (count < 2) return html``;
  const link = (page: number) => (page === current ? html`<strong aria-current="page">${page}</strong>` : html`<a href="${paging.url(page)}">${page}</a>`);
  return html`<nav class="pagination diff-pages" id="${idPrefix}diff-pages" aria-label="${label}"><span class="muted">Files ${first}–${last} of ${total}</span> ${current > 1 ? html`<a href="${paging.url(current - 1)}" rel="prev">Previous</a>` : ''} ${Array.from({ length: count }, (_, index) => link(index + 1))} ${current < count ? html`<a href="${paging.url(current + 1)}" rel="next">Next</a>` : ''}</nav>`;
}

/** Every file of a diff, in GitLab's limits (a page of them with `paging`). */
export async function renderDiffView(files: readonly FileDiff[], options: DiffViewOptions): Promise<Html> {
  if (files.length === 0) return html`<p class="empty">No changes.</p>`;
  const plan = planDiff(files);
  const paging = options.paging;
  const pages = paging ? pageNumbers(plan.files) : plan.files.map(() => 1);
  const pageCount = pages.length ? pages[pages.length - 1] : 1;
  const current = paging ? Math.min(Math.max(1, Math.trunc(paging.page) || 1), pageCount) : 1;
  // A page stays within the safe totals: only a file's own size collapses it there.
  const entries = plan.files.map((entry) => (paging && entry.display === 'collapsed' && Buffer.byteLength(entry.file.diff) <= DIFF_LIMITS.collapseBytes ? { ...entry, display: 'shown' as const } : entry));
  const prepared = await prepare(entries.map((entry, index) => ({ ...entry, withBody: pages[index] === current && (entry.display === 'shown' || (entry.display === 'collapsed' && !options.fileUrl)) })));
  const additions = prepared.reduce((sum, entry) => sum + entry.stats.additions, 0);
  const deletions = prepared.reduce((sum, entry) => sum + entry.stats.deletions, 0);
  const idPrefix = options.idPrefix ?? '';
  const anchor = (entry: PreparedFile, index: number) => `${pages[index] === current ? '' : paging!.url(pages[index])}#${idPrefix}file-${pathHash(entry.file.new_path)}`;
  const first = pages.indexOf(current) + 1;
  const last = pages.lastIndexOf(current) + 1;
  const nav = paging ? pager(paging, current, pageCount, first, last, prepared.length, idPrefix, 'Pages of changed files') : html``;
  return html`<div class="diff-view" data-mode="${options.mode}">
<p class="diff-summary">${files.length} changed ${files.length === 1 ? 'file' : 'files'} with <span class="diff-stats"><span class="added">${additions} ${additions === 1 ? 'addition' : 'additions'}</span> and <span class="removed">${deletions} ${deletions === 1 ? 'deletion' : 'deletions'}</span></span> ${modeSwitch(options)}</p>
${files.length > 1 ? html`<details class="diff-files-list"><summary>Changed files</summary><ol>${prepared.map((entry, index) => html`<li><a href="${anchor(entry, index)}">${fileTitle(entry.file)}</a></li>`)}</ol></details>` : ''}
${nav}
${prepared.filter((_, index) => pages[index] === current).map((entry) => fileSection(entry, options, false))}
${pageCount > 1 ? html`${pager(paging!, current, pageCount, first, last, prepared.length, `${idPrefix}bottom-`, 'Pages of changed files, at the end')}` : ''}
${plan.omitted > 0 && current === pageCount ? html`<p class="error" id="${idPrefix}diff-overflow">Too many changes to show: ${plan.omitted} more ${plan.omitted === 1 ? 'file is' : 'files are'} not shown.${options.rawDiffUrl ? html` <a href="${options.rawDiffUrl}">Download the plain diff</a>.` : ''}</p>` : ''}
</div>`;
}

/** One file's body (what a collapsed file loads from `fileUrl`), short of "too large" whatever its size. */
export async function renderDiffFileBody(file: FileDiff, options: DiffViewOptions): Promise<Html> {
  const [prepared] = await prepare([{ file, display: Buffer.byteLength(file.diff) > DIFF_LIMITS.maxPatchBytes ? 'too_large' : 'shown', withBody: true }]);
  return bodyOf(prepared, options, options.idPrefix ?? '');
}
