// The diff view's pure parts (repositories/diff-view): patches read into hunks with GitLab's line
// counters and line codes, side-by-side pairing, and GitLab's diff limits.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { pairLines, parsePatch, patchStats } from '../../src/repositories/diff-view/parse-patch.js';
import { lineCode } from '../../src/repositories/diff-view/line-code.js';
import { DIFF_LIMITS, DIFF_PAGE, pageNumbers, planDiff } from '../../src/repositories/diff-view/diff-limits.js';
import type { FileDiff } from '../../src/repositories/repository-api/diffs.js';

const PATCH = ['@@ -1,3 +1,4 @@ function a', ' one', '-two', '+TWO', '+two and a half', ' three', '@@ -10 +11,0 @@', '-ten', '\\ No newline at end of file', ''].join('\n');

describe('parsePatch', () => {
  it('counts both sides as GitLab does: an added line keeps the next old line as its old position', () => {
    const [first, second] = parsePatch(PATCH);
    expect(first).toMatchObject({ oldStart: 1, oldCount: 3, newStart: 1, newCount: 4, header: '@@ -1,3 +1,4 @@ function a' });
    expect(first.lines.map((line) => [line.type, line.text, line.oldLine, line.newLine, line.oldPosition, line.newPosition])).toEqual([
      ['context', 'one', 1, 1, 1, 1],
      ['del', 'two', 2, null, 2, 2],
      ['add', 'TWO', null, 2, 3, 2],
      ['add', 'two and a half', null, 3, 3, 3],
      ['context', 'three', 3, 4, 3, 4],
    ]);
    expect(second).toMatchObject({ oldStart: 10, oldCount: 1, newStart: 11, newCount: 0 });
    expect(second.lines[0]).toMatchObject({ type: 'del', oldLine: 10, noNewline: true });
  });

  it('gives a new file position 0 on the old side (`@@ -0,0 +1,2 @@`)', () => {
    const [hunk] = parsePatch('@@ -0,0 +1,2 @@\n+a\n+b\n');
    expect(hunk.lines.map((line) => [line.oldPosition, line.newPosition])).toEqual([[0, 1], [0, 2]]);
  });

  it('reads nothing from a binary notice or an empty patch', () => {
    expect(parsePatch('Binary files a/x.png and b/x.png differ\n')).toEqual([]);
    expect(parsePatch('')).toEqual([]);
  });

  it('counts additions and deletions', () => {
    expect(patchStats(parsePatch(PATCH))).toEqual({ additions: 2, deletions: 2 });
  });
});

describe('pairLines', () => {
  it('pairs removed lines with the added lines after them and keeps context on both sides', () => {
    const rows = pairLines(parsePatch(PATCH)[0].lines).map(({ left, right }) => [left?.text ?? null, right?.text ?? null]);
    expect(rows).toEqual([['one', 'one'], ['two', 'TWO'], [null, 'two and a half'], ['three', 'three']]);
  });
});

describe('lineCode', () => {
  it('is the sha1 of the path and both positions (Gitlab::Git.diff_line_code)', () => {
    expect(lineCode('src/app.ts', 3, 2)).toBe(`${createHash('sha1').update('src/app.ts').digest('hex')}_3_2`);
  });
});

describe('planDiff', () => {
  const file = (path: string, lines: number, width = 10): FileDiff => ({
    diff: `@@ -1,${lines} +1,${lines} @@\n${Array.from({ length: lines }, () => `+${'x'.repeat(width)}`).join('\n')}\n`,
    new_path: path, old_path: path, a_mode: '100644', b_mode: '100644', new_file: false, renamed_file: false, deleted_file: false, generated_file: false,
  });

  it('shows small files, collapses one over a tenth of the patch limit and marks one over it too large', () => {
    const plan = planDiff([file('a', 3), file('b', 300, 100), file('c', 3000, 100)]);
    expect(plan.files.map((entry) => entry.display)).toEqual(['shown', 'collapsed', 'too_large']);
    expect(plan.omitted).toBe(0);
  });

  it('collapses files past the safe totals and leaves out files past the hard ones', () => {
    const files = Array.from({ length: DIFF_LIMITS.maxFiles + 5 }, (_, index) => file(`f${index}`, 1));
    const plan = planDiff(files);
    expect(plan.files.filter((entry) => entry.display === 'shown')).toHaveLength(DIFF_LIMITS.safeFiles);
    expect(plan.files).toHaveLength(DIFF_LIMITS.maxFiles);
    expect(plan.omitted).toBe(5);
  });

  it('pages files by count and by lines, at least one file a page, a too-large file costing only its header', () => {
    const byCount = pageNumbers(planDiff(Array.from({ length: DIFF_PAGE.files * 2 + 1 }, (_, index) => file(`f${index}`, 1))).files);
    expect([byCount.filter((page) => page === 1).length, byCount.filter((page) => page === 2).length, byCount.filter((page) => page === 3).length]).toEqual([DIFF_PAGE.files, DIFF_PAGE.files, 1]);
    // Patch lines are the hunk header and each line: 700 + 1 twice fit in 1,500, a third does not.
    expect(pageNumbers(planDiff([file('a', 700), file('b', 700), file('c', 700), file('d', 3000, 100), file('e', 2000)]).files)).toEqual([1, 1, 2, 2, 3]);
    expect(pageNumbers([])).toEqual([]);
  });
});
