// Whether a diff position is in the merge request's diff (GitLab's DiffNote validations: the position
// complete, its line code found in the diff file, SHAs of a version of the merge request), and the
// position as stored: both paths from the diff file, the line code of the line. A position on an older
// version is accepted (its thread starts outdated, or is traced forward: trace-positions.ts). An
// unchanged line outside the hunks is a line of the file too (GitLab unfolds the diff for it).
import { gitCall, lineCode } from '../../repositories/api.js';
import type { MergeRequestDiffRow } from '../rows.js';
import { filePath, isComplete, type LineRangeEnd, type Position } from './position.js';
import { fileDiffsBetween, oldToNew, withNewPath, withOldPath, type ParsedDiff } from './file-diffs.js';
import { LINE_CODE_ERRORS, noteInvalid } from './diff-position-errors.js';

/** A diff the merge request shows: one of its versions, or one of its commits (a note with `commit_id`). */
export type VersionRefs = Pick<MergeRequestDiffRow, 'id' | 'base_commit_sha' | 'start_commit_sha' | 'head_commit_sha'>;

export interface PlacedPosition {
  position: Position;
  lineCode: string | null;
  version: VersionRefs;
}

/** The version of the merge request whose refs the position names. */
export function versionOf<V extends VersionRefs>(versions: V[], position: Pick<Position, 'base_sha' | 'start_sha' | 'head_sha'>): V | undefined {
  return versions.find((version) => version.head_commit_sha === position.head_sha && version.base_commit_sha === position.base_sha && version.start_commit_sha === position.start_sha);
}

/** Lines in a file at a commit, or null when it is not a file there. */
async function lineCount(repoPath: string, commit: string, path: string): Promise<number | null> {
  const outcome = await gitCall(repoPath, ['cat-file', 'blob', `${commit}:${path}`]);
  if (outcome.code !== 0) return null;
  const text = outcome.stdout;
  if (text.length === 0) return 0;
  let lines = 0;
  for (const byte of text) if (byte === 0x0a) lines += 1;
  return text[text.length - 1] === 0x0a ? lines : lines + 1;
}

export interface DiffLineAt {
  oldLine: number | null;
  newLine: number | null;
  lineCode: string;
}

/** The line of `diff` at these numbers: a line of a hunk, or an unchanged line between hunks. */
export async function lineAt(repoPath: string, headSha: string, diff: ParsedDiff, oldLine: number | null, newLine: number | null): Promise<DiffLineAt | null> {
  const path = diff.file.new_path || diff.file.old_path;
  for (const hunk of diff.hunks) {
    const line = hunk.lines.find((row) => row.oldLine === oldLine && row.newLine === newLine);
    if (line) return { oldLine, newLine, lineCode: lineCode(path, line.oldPosition, line.newPosition) };
  }
  // Unfolded: both numbers of an unchanged line that the hunks do not show.
  if (oldLine === null || newLine === null || oldLine < 1 || newLine < 1 || diff.file.new_file || diff.file.deleted_file) return null;
  const inHunk = diff.hunks.some((hunk) => hunk.lines.some((row) => row.oldLine === oldLine || row.newLine === newLine));
  if (inHunk || oldToNew(diff, oldLine) !== newLine) return null;
  const lines = await lineCount(repoPath, headSha, diff.file.new_path);
  if (lines === null || newLine > lines) return null;
  return { oldLine, newLine, lineCode: lineCode(path, oldLine, newLine) };
}

/** A `line_range` end: by its line code when it names one of the diff's lines, else by its numbers. */
async function rangeEndAt(repoPath: string, headSha: string, diff: ParsedDiff, end: LineRangeEnd): Promise<DiffLineAt | null> {
  const byNumbers = end.old_line !== null || end.new_line !== null ? await lineAt(repoPath, headSha, diff, end.old_line, end.new_line) : null;
  if (end.line_code === null || end.line_code === '') return byNumbers;
  if (byNumbers && byNumbers.lineCode === end.line_code) return byNumbers;
  const match = /^[0-9a-f]{40}_(\d{1,9})_(\d{1,9})$/.exec(end.line_code);
  if (!match) return null;
  for (const hunk of diff.hunks) {
    const line = hunk.lines.find((row) => lineCode(diff.file.new_path || diff.file.old_path, row.oldPosition, row.newPosition) === end.line_code);
    if (line) return { oldLine: line.oldLine, newLine: line.newLine, lineCode: end.line_code };
  }
  const unfolded = await lineAt(repoPath, headSha, diff, Number(match[1]), Number(match[2]));
  return unfolded && unfolded.lineCode === end.line_code ? unfolded : null;
}

function order(line: DiffLineAt): number {
  return line.newLine ?? line.oldLine ?? 0;
}

/**
 * Place a parsed position in the merge request's diff, or refuse it as GitLab refuses the note:
 * `Note {:line_code=>["can't be blank", "must be a valid line code"], :position=>["is incomplete"]}`
 * (`position` also when its SHAs are not a version of this merge request, `line_range` when a range
 * end is not a line of the file's diff).
 */
export async function placePosition(repoPath: string, versions: VersionRefs[], input: Position): Promise<PlacedPosition> {
  const text = input.position_type === 'text';
  if (!isComplete(input)) throw noteInvalid(text ? { line_code: LINE_CODE_ERRORS, position: ['is incomplete'] } : { position: ['is incomplete'] });
  const version = versionOf(versions, input);
  if (!version) throw noteInvalid({ position: ['does not match a version of the merge request diff (base_sha, start_sha, head_sha)'] });
  const diffs = await fileDiffsBetween(repoPath, input.base_sha, input.head_sha, [input.old_path ?? '', input.new_path ?? '']);
  const diff = (input.new_path ? withNewPath(diffs, input.new_path) : undefined) ?? withOldPath(diffs, input.old_path) ?? diffs.find((row) => row.file.old_path === filePath(input) || row.file.new_path === filePath(input));
  if (!diff) throw noteInvalid(text ? { line_code: LINE_CODE_ERRORS } : { position: [`is not in the diff: ${filePath(input)} is not changed`] });
  const position: Position = { ...input, old_path: diff.file.old_path, new_path: diff.file.new_path };
  if (!text) return { position, lineCode: null, version };
  const line = await lineAt(repoPath, input.head_sha, diff, input.old_line ?? null, input.new_line ?? null);
  if (!line) throw noteInvalid({ line_code: LINE_CODE_ERRORS });
  if (input.line_range) {
    const [start, end] = await Promise.all([rangeEndAt(repoPath, input.head_sha, diff, input.line_range.start), rangeEndAt(repoPath, input.head_sha, diff, input.line_range.end)]);
    if (!start || !end || order(start) > order(end)) throw noteInvalid({ line_range: ['is not a range of lines of the diff'] });
    position.line_range = {
      start: { line_code: start.lineCode, type: input.line_range.start.type, old_line: start.oldLine, new_line: start.newLine },
      end: { line_code: end.lineCode, type: input.line_range.end.type, old_line: end.oldLine, new_line: end.newLine },
    };
  }
  return { position, lineCode: line.lineCode, version };
}
