// What a diff version shows, read from git between its base and head (GitLab's
// MergeRequestDiff#commits and #diffs): its commits newest first and its files, with GitLab's
// overflow limits for `…/changes`.
import type { Deps } from '../platform/deps.js';
import { isoTime } from '../platform/clock.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { NotFoundError } from '../platform/errors.js';
import { diffBetween, readCommits, revList, type CommitObject, type FileDiff } from '../repositories/api.js';
import type { MergeRequestDiffRow, MergeRequestRow } from './rows.js';
import { DIFF_MAX_FILES, DIFF_MAX_LINES, readRepository } from './mr-repository.js';

/** GitLab's per-file patch limit (diff_max_patch_bytes, 200 KiB): past it the file is `too_large`. */
export const DIFF_MAX_PATCH_BYTES = 200 * 1024;

export async function versionRepository(deps: Deps, target: ProjectRow): Promise<string> {
  const repoPath = await readRepository(deps, target);
  if (repoPath === null) throw new NotFoundError('Repository');
  return repoPath;
}

/** The version's commits (start..head), newest first. */
export async function versionCommits(repoPath: string, diff: MergeRequestDiffRow): Promise<CommitObject[]> {
  if (!diff.head_commit_sha || !diff.start_commit_sha) return [];
  const ids = await revList(repoPath, { revisions: [diff.head_commit_sha, `^${diff.start_commit_sha}`] });
  const commits = await readCommits(repoPath, ids);
  return ids.flatMap((id) => (commits.has(id) ? [commits.get(id)!] : []));
}

export async function versionFiles(repoPath: string, diff: MergeRequestDiffRow, unidiff = false): Promise<FileDiff[]> {
  if (!diff.head_commit_sha || !diff.base_commit_sha) return [];
  return diffBetween(repoPath, diff.base_commit_sha, diff.head_commit_sha, unidiff);
}

/** GitLab 16's Diff entity of a merge request file: `collapsed` and `too_large` beside the patch. */
export function mergeRequestDiffEntity(file: FileDiff) {
  const bytes = Buffer.byteLength(file.diff);
  const tooLarge = bytes > DIFF_MAX_PATCH_BYTES;
  return {
    diff: tooLarge ? '' : file.diff,
    new_path: file.new_path,
    old_path: file.old_path,
    a_mode: file.a_mode,
    b_mode: file.b_mode,
    new_file: file.new_file,
    renamed_file: file.renamed_file,
    deleted_file: file.deleted_file,
    generated_file: file.generated_file,
    collapsed: !tooLarge && bytes > DIFF_MAX_PATCH_BYTES / 10,
    too_large: tooLarge,
  };
}

/** The files `…/changes` shows: cut at GitLab's hard limits (files, then lines) unless raw diffs are asked for. */
export function limitedChanges(files: FileDiff[], raw: boolean): { files: FileDiff[]; overflow: boolean } {
  if (raw) return { files, overflow: false };
  const kept: FileDiff[] = [];
  let lines = 0;
  for (const file of files) {
    const fileLines = file.diff === '' ? 0 : file.diff.split('\n').length;
    if (kept.length >= DIFF_MAX_FILES || lines + fileLines > DIFF_MAX_LINES) return { files: kept, overflow: true };
    kept.push(file);
    lines += fileLines;
  }
  return { files: kept, overflow: false };
}

export async function findVersion(deps: Deps, mr: MergeRequestRow, versionId: number): Promise<MergeRequestDiffRow> {
  const diff = await deps.db.selectFrom('merge_request_diffs').selectAll().where('merge_request_id', '=', Number(mr.id)).where('id', '=', versionId).executeTakeFirst();
  if (!diff) throw new NotFoundError('MergeRequestDiff');
  return diff;
}

export function versionEntity(diff: MergeRequestDiffRow) {
  return {
    id: Number(diff.id),
    head_commit_sha: diff.head_commit_sha,
    base_commit_sha: diff.base_commit_sha,
    start_commit_sha: diff.start_commit_sha,
    created_at: isoTime(diff.created_at),
    merge_request_id: Number(diff.merge_request_id),
    state: diff.state,
    real_size: diff.real_size,
  };
}
