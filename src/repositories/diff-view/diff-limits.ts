// How much of a diff a page renders, with GitLab's limits (Gitlab::Git::DiffCollection and the
// application settings diff_max_patch_bytes, diff_max_files, diff_max_lines; doc/administration/
// diff_limits.md): a file whose patch is over diff_max_patch_bytes is "too large" and not shown; one
// over a tenth of it is collapsed; past the safe totals (100 files, 5,000 lines, 500 KB) files are
// collapsed, each fetched when opened; past the hard totals (1,000 files, 50,000 lines, 5 MB)
// nothing more is rendered and the page says how much was left out.
import type { FileDiff } from '../repository-api/diffs.js';

export const DIFF_LIMITS = {
  maxPatchBytes: 200 * 1024,
  collapseBytes: 20 * 1024,
  safeFiles: 100,
  safeLines: 5000,
  safeBytes: 500 * 1024,
  maxFiles: 1000,
  maxLines: 50000,
  maxBytes: 5 * 1024 * 1024,
} as const;

export type FileDisplay = 'shown' | 'collapsed' | 'too_large';

export interface DiffPlan {
  /** One entry per file that is rendered at all, in order. */
  files: { file: FileDiff; display: FileDisplay }[];
  /** Files past the hard limits, not rendered. */
  omitted: number;
}

function lineCount(patch: string): number {
  let count = 0;
  for (let index = patch.indexOf('\n'); index >= 0; index = patch.indexOf('\n', index + 1)) count += 1;
  return count;
}

/** Pure: which files are shown, collapsed, too large, or left out. */
export function planDiff(files: readonly FileDiff[], limits: typeof DIFF_LIMITS = DIFF_LIMITS): DiffPlan {
  const planned: DiffPlan['files'] = [];
  let lines = 0;
  let bytes = 0;
  for (const file of files) {
    const size = Buffer.byteLength(file.diff);
    if (size > limits.maxPatchBytes && planned.length < limits.maxFiles) {
      // Not rendered either way: it costs the page nothing but its header.
      planned.push({ file, display: 'too_large' });
      continue;
    }
    const count = lineCount(file.diff);
    if (planned.length >= limits.maxFiles || lines + count > limits.maxLines || bytes + size > limits.maxBytes) break;
    const overSafe = planned.length >= limits.safeFiles || lines + count > limits.safeLines || bytes + size > limits.safeBytes;
    lines += count;
    bytes += size;
    const display: FileDisplay = size > limits.collapseBytes || overSafe ? 'collapsed' : 'shown';
    planned.push({ file, display });
  }
  return { files: planned, omitted: files.length - planned.length };
}

/** How much of a paginated diff one page shows: files until one would pass either figure (at least one file a page). */
export const DIFF_PAGE = { files: 20, lines: 1500 } as const;

/**
 * Pure: the page (1-based) of each planned file of a paginated view, in order. A file's lines are
 * its patch's; a too-large file costs a page nothing but its header.
 */
export function pageNumbers(planned: DiffPlan['files'], page: { files: number; lines: number } = DIFF_PAGE): number[] {
  const numbers: number[] = [];
  let current = 1;
  let files = 0;
  let lines = 0;
  for (const entry of planned) {
    const count = entry.display === 'too_large' ? 0 : lineCount(entry.file.diff);
    if (files > 0 && (files + 1 > page.files || lines + count > page.lines)) {
      current += 1;
      files = 0;
      lines = 0;
    }
    files += 1;
    lines += count;
    numbers.push(current);
  }
  return numbers;
}
