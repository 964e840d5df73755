// Diffs of a few files between two commits, read into lines, and GitLab's LineMapper
// (lib/gitlab/diff/line_mapper.rb): where a line of one side of a diff is on the other side. A line
// the diff leaves alone moves by the lines added and removed above it; a line the diff removes (or
// adds) has no counterpart.
import { diffBetween, parsePatch, type FileDiff } from '../../repositories/api.js';

type Hunk = ReturnType<typeof parsePatch>[number];

export interface ParsedDiff {
  file: FileDiff;
  hunks: Hunk[];
}

/** The diff of `paths` between two commits (renames among them found), each file with its hunks. */
export async function fileDiffsBetween(repoPath: string, from: string, to: string, paths: string[]): Promise<ParsedDiff[]> {
  const wanted = [...new Set(paths.filter((path) => path !== ''))];
  if (wanted.length === 0 || from === to) return [];
  const files = await diffBetween(repoPath, from, to, false, wanted);
  return files.map((file) => ({ file, hunks: parsePatch(file.diff) }));
}

export function withOldPath(diffs: ParsedDiff[], path: string | null): ParsedDiff | undefined {
  return path === null ? undefined : diffs.find((diff) => !diff.file.new_file && diff.file.old_path === path);
}

export function withNewPath(diffs: ParsedDiff[], path: string | null): ParsedDiff | undefined {
  return path === null ? undefined : diffs.find((diff) => !diff.file.deleted_file && diff.file.new_path === path);
}

/** A side's hunk range, 1-based and inclusive; an empty side (`-5,0`) starts after the line it names. */
function range(start: number, count: number): { first: number; end: number } {
  const first = count === 0 ? start + 1 : start;
  return { first, end: first + count };
}

/**
 * The line on the other side of `diff` for `line` on side `from`, or null when the diff removed (or
 * added) it. No diff: the file did not change, the line stays.
 */
export function mapLine(diff: ParsedDiff | undefined, line: number, from: 'old' | 'new'): number | null {
  if (!diff) return line;
  let delta = 0;
  for (const hunk of diff.hunks) {
    const source = from === 'old' ? range(hunk.oldStart, hunk.oldCount) : range(hunk.newStart, hunk.newCount);
    const target = from === 'old' ? range(hunk.newStart, hunk.newCount) : range(hunk.oldStart, hunk.oldCount);
    if (line < source.first) return line + delta;
    if (line < source.end) {
      const match = hunk.lines.find((row) => (from === 'old' ? row.oldLine : row.newLine) === line);
      if (!match) return null;
      return from === 'old' ? match.newLine : match.oldLine;
    }
    delta = target.end - source.end;
  }
  return line + delta;
}

export const oldToNew = (diff: ParsedDiff | undefined, line: number) => mapLine(diff, line, 'old');
export const newToOld = (diff: ParsedDiff | undefined, line: number) => mapLine(diff, line, 'new');
