// GitLab's position tracing (lib/gitlab/diff/position_tracer.rb and its line strategy): where a diff
// note made on version A→B of a merge request is in the new version C→D. Three diffs are read for the
// paths involved: A→C (old base to new base, straight), B→D (old head to new head, straight) and C→D
// (the new version's diff). A line still in D and in the new diff keeps its thread current at its new
// numbers; a line the later push changed or removed makes it outdated (its change position says where).
// Pure over the diffs; trace-diff-threads.ts reads them and stores the answers.
import { filePath, type Position } from './position.js';
import { newToOld, oldToNew, withNewPath, withOldPath, type ParsedDiff } from './file-diffs.js';

export interface DiffRefs {
  base: string;
  start: string;
  head: string;
}

export interface TracerDiffs {
  ac: ParsedDiff[];
  bd: ParsedDiff[];
  cd: ParsedDiff[];
}

export interface TraceResult {
  /** Where the line is now (current) or where it changed (outdated); null when it can be shown nowhere. */
  position: Position | null;
  outdated: boolean;
}

/** The paths whose diffs a trace of these positions needs (GitLab passes `paths` to the compares). */
export function tracedPaths(positions: Position[]): string[] {
  return [...new Set(positions.flatMap((position) => [position.old_path, position.new_path]).filter((path): path is string => !!path))];
}

function at(refs: DiffRefs, diff: ParsedDiff | undefined, fallback: { old: string | null; new: string | null }, oldLine: number | null, newLine: number | null, from: Position): Position {
  return {
    base_sha: refs.base,
    start_sha: refs.start,
    head_sha: refs.head,
    old_path: diff ? diff.file.old_path : fallback.old,
    new_path: diff ? diff.file.new_path : fallback.new,
    position_type: 'text',
    old_line: oldLine,
    new_line: newLine,
    line_range: from.line_range ?? null,
    ignore_whitespace_change: false,
  };
}

/**
 * Whether a position at these numbers can be shown in the new diff (GitLab's valid_position?): its
 * file is in the diff, and the line is a line of it (any unchanged line, the diff unfolded).
 */
function shownIn(cd: ParsedDiff | undefined, oldLine: number | null, newLine: number | null): boolean {
  if (!cd) return false;
  if (oldLine !== null && newLine !== null) return oldToNew(cd, oldLine) === newLine;
  return cd.hunks.some((hunk) => hunk.lines.some((line) => line.oldLine === oldLine && line.newLine === newLine));
}

/** Trace a position from the old diff refs (A→B) to the new ones (C→D). */
export function tracePosition(position: Position, next: DiffRefs, diffs: TracerDiffs): TraceResult {
  if (position.position_type !== 'text') return traceFile(position, next, diffs);
  const oldLine = position.old_line ?? null;
  const newLine = position.new_line ?? null;
  if (newLine !== null && oldLine === null) return traceAdded(position, newLine, next, diffs);
  if (oldLine !== null && newLine === null) return traceRemoved(position, oldLine, next, diffs);
  return traceUnchanged(position, oldLine!, newLine!, next, diffs);
}

function traceAdded(position: Position, bLine: number, next: DiffRefs, { ac, bd, cd }: TracerDiffs): TraceResult {
  const bPath = position.new_path ?? filePath(position);
  const bdDiff = withOldPath(bd, bPath);
  const dPath = bdDiff?.file.new_path ?? bPath;
  const dLine = oldToNew(bdDiff, bLine);
  // Removed by the push: outdated, shown where B→D removed it.
  if (dLine === null) return { position: at(next, bdDiff, { old: bPath, new: bPath }, bLine, null, position), outdated: true };
  const cdDiff = withNewPath(cd, dPath);
  const cPath = cdDiff?.file.old_path ?? dPath;
  const cLine = newToOld(cdDiff, dLine);
  if (cLine === null) return { position: at(next, cdDiff, { old: cPath, new: dPath }, null, dLine, position), outdated: false };
  // Still in D and now also in C: an unchanged line, current if the new diff shows it.
  if (shownIn(cdDiff, cLine, dLine)) return { position: at(next, cdDiff, { old: cPath, new: dPath }, cLine, dLine, position), outdated: false };
  const acDiff = withNewPath(ac, cPath);
  return { position: at(next, acDiff, { old: cPath, new: cPath }, null, cLine, position), outdated: true };
}

function traceRemoved(position: Position, aLine: number, next: DiffRefs, { ac, bd, cd }: TracerDiffs): TraceResult {
  const aPath = position.old_path ?? filePath(position);
  const acDiff = withOldPath(ac, aPath);
  const cPath = acDiff?.file.new_path ?? aPath;
  const cLine = oldToNew(acDiff, aLine);
  if (cLine === null) return { position: at(next, acDiff, { old: aPath, new: aPath }, aLine, null, position), outdated: true };
  const cdDiff = withOldPath(cd, cPath);
  const dPath = cdDiff?.file.new_path ?? cPath;
  const dLine = oldToNew(cdDiff, cLine);
  // The removed line is back in D: it is no longer a removal of this merge request.
  if (dLine !== null) return { position: at(next, withNewPath(bd, dPath), { old: dPath, new: dPath }, null, dLine, position), outdated: true };
  return { position: at(next, cdDiff, { old: cPath, new: dPath }, cLine, null, position), outdated: false };
}

function traceUnchanged(position: Position, aLine: number, bLine: number, next: DiffRefs, { ac, bd, cd }: TracerDiffs): TraceResult {
  const aPath = position.old_path ?? filePath(position);
  const bPath = position.new_path ?? filePath(position);
  const acDiff = withOldPath(ac, aPath);
  const cPath = acDiff?.file.new_path ?? aPath;
  const cLine = oldToNew(acDiff, aLine);
  const bdDiff = withOldPath(bd, bPath);
  const dLine = oldToNew(bdDiff, bLine);
  const cdDiff = withOldPath(cd, cPath);
  const dPath = cdDiff?.file.new_path ?? bdDiff?.file.new_path ?? bPath;
  if (cLine !== null && dLine !== null) {
    if (shownIn(cdDiff, cLine, dLine)) return { position: at(next, cdDiff, { old: cPath, new: dPath }, cLine, dLine, position), outdated: false };
    return { position: null, outdated: true };
  }
  if (dLine !== null) return { position: at(next, cdDiff, { old: cPath, new: dPath }, null, dLine, position), outdated: false };
  return { position: at(next, bdDiff, { old: bPath, new: bPath }, bLine, null, position), outdated: true };
}

/**
 * Image and file positions (GitLab's image and file strategies): current while the push left the
 * file alone and the new diff still changes it, outdated otherwise.
 */
function traceFile(position: Position, next: DiffRefs, { bd, cd }: TracerDiffs): TraceResult {
  const bPath = position.new_path ?? filePath(position);
  if (withOldPath(bd, bPath)) return { position: null, outdated: true };
  const cdDiff = withNewPath(cd, bPath);
  if (!cdDiff) return { position: null, outdated: true };
  return { position: { ...position, base_sha: next.base, start_sha: next.start, head_sha: next.head, old_path: cdDiff.file.old_path, new_path: cdDiff.file.new_path }, outdated: false };
}

/** The three diffs of a trace from `old` to `next` for these paths (GitLab's ac, bd and cd compares). */
export async function tracerDiffs(read: (from: string, to: string, paths: string[]) => Promise<ParsedDiff[]>, old: DiffRefs, next: DiffRefs, paths: string[]): Promise<TracerDiffs> {
  const [ac, bd, cd] = await Promise.all([read(old.base, next.base, paths), read(old.head, next.head, paths), read(next.base, next.head, paths)]);
  return { ac, bd, cd };
}
