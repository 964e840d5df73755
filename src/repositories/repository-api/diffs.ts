// The diff of two trees as GitLab's Diff entity has it: one entry per changed path (renames found as
// git finds them), with the patch from its first hunk on. Built from `git diff --raw -z` (paths,
// modes, status) and the patch text, whose file sections come in the same order.

export interface FileDiff {
  diff: string;
  new_path: string;
  old_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  generated_file: boolean;
}

interface RawChange {
  oldMode: string;
  newMode: string;
  status: string;
  oldPath: string;
  newPath: string;
}

/** Pure: `git diff --raw -z` records (`:<old mode> <new mode> <old> <new> <status>\0<path>[\0<path>]\0`). */
export function parseRawDiff(output: string): RawChange[] {
  const fields = output.split('\0');
  const changes: RawChange[] = [];
  for (let index = 0; index < fields.length; ) {
    const meta = fields[index];
    if (!meta.startsWith(':')) {
      index += 1;
      continue;
    }
    const [oldMode, newMode, , , status] = meta.slice(1).split(' ');
    const copyOrRename = status.startsWith('R') || status.startsWith('C');
    const oldPath = fields[index + 1];
    const newPath = copyOrRename ? fields[index + 2] : oldPath;
    changes.push({ oldMode, newMode, status: status[0], oldPath, newPath });
    index += copyOrRename ? 3 : 2;
  }
  return changes;
}

/** Pure: the patch of each file section, from its first `@@` (or `Binary files`) line; '' when there is none. */
export function splitPatches(patch: string): string[] {
  const sections = patch.split(/^(?=diff --git )/m).filter((section) => section.startsWith('diff --git '));
  return sections.map((section) => {
    const lines = section.split('\n');
    const start = lines.findIndex((line) => line.startsWith('@@') || line.startsWith('Binary files '));
    return start < 0 ? '' : lines.slice(start).join('\n');
  });
}

/** GitLab writes a missing side's mode as `0`. */
function mode(value: string): string {
  return /^0+$/.test(value) ? '0' : value;
}

export function fileDiffs(raw: string, patch: string, unidiff = false): FileDiff[] {
  const changes = parseRawDiff(raw);
  const patches = splitPatches(patch);
  return changes.map((change, index) => {
    const created = change.status === 'A';
    const deleted = change.status === 'D';
    let diff = patches[index] ?? '';
    // `unidiff=true`: the patch with its file header lines, as GitLab's Helpers::Unidiff adds them.
    if (unidiff && diff !== '') diff = `--- ${created ? '/dev/null' : `a/${change.oldPath}`}\n+++ ${deleted ? '/dev/null' : `b/${change.newPath}`}\n${diff}`;
    return {
      diff,
      new_path: change.newPath,
      old_path: change.oldPath,
      a_mode: mode(change.oldMode),
      b_mode: mode(change.newMode),
      new_file: created,
      renamed_file: change.status === 'R',
      deleted_file: deleted,
      generated_file: false,
    };
  });
}

/** Pure: additions and deletions of `git diff --numstat -z` (binary files count as nothing, as GitLab's stats). */
export function parseNumstat(output: string): { additions: number; deletions: number; total: number } {
  let additions = 0;
  let deletions = 0;
  for (const record of output.split('\0')) {
    const match = /^(\d+|-)\t(\d+|-)\t/.exec(record);
    if (!match) continue;
    additions += match[1] === '-' ? 0 : Number(match[1]);
    deletions += match[2] === '-' ? 0 : Number(match[2]);
  }
  return { additions, deletions, total: additions + deletions };
}
