// What a page tells the diff view (see index.ts for how to use it).
import type { Html } from '../../platform/web/html.js';
import type { FileDiff } from '../repository-api/diffs.js';

export type DiffMode = 'inline' | 'parallel';

/** Where a diff line is, in the terms of a GitLab diff note's `position`. */
export interface DiffLinePosition {
  oldPath: string;
  newPath: string;
  /** The line's number in the old file; null for an added line. */
  oldLine: number | null;
  /** The line's number in the new file; null for a removed line. */
  newLine: number | null;
  /** GitLab's `line_range.*.type`: 'new' added, 'old' removed, null unchanged. */
  type: 'new' | 'old' | null;
  /** `<sha1(new path)>_<old position>_<new position>` (Gitlab::Git.diff_line_code); also the line's anchor. */
  lineCode: string;
}

export interface DiffComments {
  /**
   * Markup under a line (its threads), or null. Called once for every rendered line of every shown
   * file, so it must be a look-up in what the page read before (a Map by line code), not a query.
   */
  threadsFor?(position: DiffLinePosition): Html | null;
  /**
   * Where a line's "comment" button GETs its form (htmx). The answer is swapped in right after the
   * line's row, so it must be one or more `<tr>`: `<tr class="slot"><td colspan="3|4">…</td></tr>`
   * (3 columns inline, 4 side by side: the request carries `view`). When the reader chose a range
   * first (clicked a line number, then shift-clicked another), the request also carries
   * `line_range_start=<line code of the first line>`. Null or absent: no button on that line.
   */
  formUrl?(position: DiffLinePosition): string | null;
}

export interface DiffViewOptions {
  /** The project's path, `group/project`, without slashes around it. */
  projectPath: string;
  /** The commit of the old side (null: the new side is a root commit) and of the new side. */
  oldSha: string | null;
  newSha: string;
  mode: DiffMode;
  /**
   * The URL of one file's diff as a fragment (a page answering `renderDiffFile(file, options,
   * { open: true })`): collapsed files load their body from it when opened. Absent: collapsed files
   * carry their body with them, closed, and too-large files only link to the file.
   */
  fileUrl?(file: FileDiff): string;
  /** The same page in the other mode (the "Inline | Side-by-side" switch); absent: no switch. */
  modeUrl?(mode: DiffMode): string;
  /** The whole diff as plain text, offered when files were left out (`/-/commit/<sha>.diff`). */
  rawDiffUrl?: string;
  /**
   * Show the files a page at a time (DIFF_PAGE: 20 files or 1,500 lines): `page` is the one asked
   * (out of range: the nearest), `url(page)` a link to another. The summary, the changed files list
   * and the limits are the whole diff's; only the page's files are rendered, the safe totals do not
   * collapse files (a page stays within them). Absent: every file on one page.
   */
  paging?: { page: number; url(page: number): string };
  /** Prefixed to element ids when a page shows two views. */
  idPrefix?: string;
  comments?: DiffComments;
}
