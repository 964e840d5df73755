// A file's patch (from its first `@@`, as FileDiff.diff holds it) read into hunks and lines, with the
// line numbers of both sides counted as GitLab's Gitlab::Diff::Parser counts them: an added line has
// the old side's next line number as its "old position", a removed line the new side's.

export type DiffLineType = 'context' | 'add' | 'del';

export interface DiffLine {
  type: DiffLineType;
  /** The line without its leading ` `, `+` or `-`. */
  text: string;
  /** The line's number in the old file; null for an added line. */
  oldLine: number | null;
  /** The line's number in the new file; null for a removed line. */
  newLine: number | null;
  /** GitLab's counters at this line (both always set): what line codes are made of. */
  oldPosition: number;
  newPosition: number;
  /** `\ No newline at end of file` followed this line. */
  noNewline?: boolean;
}

export interface DiffHunk {
  /** The `@@ -a,b +c,d @@ section` line. */
  header: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: DiffLine[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Pure: the hunks of a patch; a binary notice or an empty patch has none. */
export function parsePatch(patch: string): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let hunk: DiffHunk | null = null;
  let oldPosition = 0;
  let newPosition = 0;
  const lines = patch.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    const header = HUNK.exec(line);
    if (header) {
      hunk = {
        header: line,
        oldStart: Number(header[1]),
        oldCount: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newCount: header[4] === undefined ? 1 : Number(header[4]),
        lines: [],
      };
      hunks.push(hunk);
      // An empty side (`-0,0` of a new file) keeps position 0, as GitLab's parser does.
      oldPosition = hunk.oldStart;
      newPosition = hunk.newStart;
      continue;
    }
    if (!hunk) continue;
    const sign = line[0];
    if (sign === '\\') {
      const previous = hunk.lines[hunk.lines.length - 1];
      if (previous) previous.noNewline = true;
      continue;
    }
    const text = line.slice(1);
    if (sign === '+') {
      hunk.lines.push({ type: 'add', text, oldLine: null, newLine: newPosition, oldPosition, newPosition });
      newPosition += 1;
    } else if (sign === '-') {
      hunk.lines.push({ type: 'del', text, oldLine: oldPosition, newLine: null, oldPosition, newPosition });
      oldPosition += 1;
    } else {
      hunk.lines.push({ type: 'context', text, oldLine: oldPosition, newLine: newPosition, oldPosition, newPosition });
      oldPosition += 1;
      newPosition += 1;
    }
  }
  return hunks;
}

/** Lines added and removed by a patch. */
export function patchStats(hunks: readonly DiffHunk[]): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const hunk of hunks) for (const line of hunk.lines) {
    if (line.type === 'add') additions += 1;
    else if (line.type === 'del') deletions += 1;
  }
  return { additions, deletions };
}

/** Side-by-side rows: removed lines paired with the added lines that follow them, context on both sides. */
export function pairLines(lines: readonly DiffLine[]): { left: DiffLine | null; right: DiffLine | null }[] {
  const rows: { left: DiffLine | null; right: DiffLine | null }[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index];
    if (line.type === 'context') {
      rows.push({ left: line, right: line });
      index += 1;
      continue;
    }
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (index < lines.length && lines[index].type === 'del') removed.push(lines[index++]);
    while (index < lines.length && lines[index].type === 'add') added.push(lines[index++]);
    for (let row = 0; row < Math.max(removed.length, added.length); row += 1) rows.push({ left: removed[row] ?? null, right: added[row] ?? null });
  }
  return rows;
}
