// One file of the repository at a ref (GitLab's Files API: the blob, its last commit, its sha256),
// its blame, and blobs by id.
import { createHash } from 'node:crypto';
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { RepositoryApiError } from './errors.js';
import { findCommit, readCommits, readObject } from './object-reader.js';
import { blamePorcelain, entryAt, lastCommitFor } from './git-reads.js';
import { parseBlame } from './blame.js';
import { baseName } from './tree-entries.js';
import type { CommitObject } from './git-objects.js';
import { blameRangeEntity } from './entities.js';
import { readableRepository } from './project-repository.js';

export interface RepositoryFile {
  repoPath: string;
  commit: CommitObject;
  path: string;
  mode: string;
  blobId: string;
  content: Buffer;
}

/** The file at `path` in the commit `ref` names: "404 Commit Not Found", then "404 File Not Found". */
export async function findFile(deps: Deps, access: ProjectAccess, path: string, ref: string | undefined): Promise<RepositoryFile> {
  const repoPath = await readableRepository(deps, access.project);
  const commit = repoPath ? await findCommit(repoPath, ref ?? access.project.default_branch) : null;
  if (!repoPath || !commit) throw new NotFoundError('Commit');
  const entry = await entryAt(repoPath, commit.id, path);
  const blob = entry?.type === 'blob' ? await readObject(repoPath, entry.id) : null;
  if (!entry || !blob) throw new NotFoundError('File');
  return { repoPath, commit, path, mode: entry.mode, blobId: entry.id, content: blob.content };
}

/** The file's metadata as the API shows it (without content) and sends as X-Gitlab-* headers. */
export async function fileMetadata(file: RepositoryFile, ref: string | undefined) {
  return {
    file_name: baseName(file.path),
    file_path: file.path,
    size: file.content.length,
    encoding: 'base64',
    content_sha256: createHash('sha256').update(file.content).digest('hex'),
    ref: ref ?? null,
    blob_id: file.blobId,
    commit_id: file.commit.id,
    last_commit_id: await lastCommitFor(file.repoPath, file.commit.id, file.path),
    execute_filemode: file.mode === '100755',
  };
}

/** git's binary heuristic: a NUL in the first 8000 bytes. */
export function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

/** Blame ranges of the file (Gitlab::Blame#groups), lines `range.start`…`range.end` when given. */
export async function blameFile(deps: Deps, access: ProjectAccess, file: RepositoryFile, range?: { start: number; end: number }) {
  if (range && range.start > range.end) throw new RepositoryApiError('range[start] must be less than or equal to range[end]');
  if (file.content.length === 0) return [];
  const lineCount = file.content.toString().split('\n').length - (file.content.toString().endsWith('\n') ? 1 : 0);
  // git refuses a range past the end; GitLab answers the lines that exist.
  const bounded = range ? { start: Math.min(range.start, Math.max(lineCount, 1)), end: Math.min(range.end, Math.max(lineCount, 1)) } : undefined;
  const output = await blamePorcelain(file.repoPath, file.commit.id, file.path, bounded);
  if (output === null) throw new NotFoundError('File');
  const groups = parseBlame(output);
  const commits = await readCommits(file.repoPath, groups.map((group) => group.commitId));
  const context = { baseUrl: deps.config.baseUrl, project: access.project };
  return groups.flatMap((group) => {
    const commit = commits.get(group.commitId);
    return commit ? [blameRangeEntity(context, commit, group.lines)] : [];
  });
}

/** A blob by its id (the repository blobs API); "404 Blob Not Found" otherwise. */
export async function findBlob(deps: Deps, access: ProjectAccess, sha: string): Promise<{ id: string; content: Buffer }> {
  const repoPath = await readableRepository(deps, access.project);
  const blob = repoPath && /^[0-9a-fA-F]{4,40}$/.test(sha) ? await readObject(repoPath, sha) : null;
  if (!blob || blob.type !== 'blob') throw new NotFoundError('Blob');
  return { id: blob.id, content: blob.content };
}
