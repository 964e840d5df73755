// Where a comment of `POST …/commits/:sha/comments` sits: the line of the commit's diff of `path`
// whose new-side number is `line` and whose type is `line_type` (`new` added, `old` removed, none
// for context), as GitLab's diff parser numbers them. Pure.
import { createHash } from 'node:crypto';

export interface DiffLine {
  oldLine: number;
  newLine: number;
  type: 'new' | 'old' | null;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function findDiffLine(patch: string, line: number, lineType: string | null): DiffLine | null {
  let oldLine = 0;
  let newLine = 0;
  for (const text of patch.split('\n')) {
    const hunk = HUNK.exec(text);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      continue;
    }
    if (text.startsWith('\\')) continue; // "\ No newline at end of file"
    const type = text.startsWith('+') ? 'new' : text.startsWith('-') ? 'old' : text.startsWith(' ') ? null : undefined;
    if (type === undefined) continue;
    if (newLine === line && type === lineType) return { oldLine, newLine, type };
    if (type !== 'new') oldLine += 1;
    if (type !== 'old') newLine += 1;
  }
  return null;
}

/** Where a commit's note sits, as stored in its position column (with a line code), or null for a plain comment. */
export interface StoredLine {
  path: string;
  line: number;
  line_type: string | null;
}

export function storedLine(note: { line_code: string | null; position: string | null }): StoredLine | null {
  if (note.line_code === null || note.position === null) return null;
  try {
    return JSON.parse(note.position) as StoredLine;
  } catch {
    return null;
  }
}

/** GitLab's diff line code: the path's SHA-1, then the old and new line numbers. */
export function lineCode(path: string, found: DiffLine): string {
  return `${createHash('sha1').update(path).digest('hex')}_${found.oldLine}_${found.newLine}`;
}
