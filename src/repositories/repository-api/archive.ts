// Repository archives (GitLab's GET /projects/:id/repository/archive[.format], served by Workhorse):
// every format GitLab accepts, named and laid out as GitLab names them
// (`<project path>-<ref>-<sha>[-<path>]`), streamed from `git archive`.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { spawnGit } from '../git.js';
import type { ThreadProcess } from '../git-threads.js';
import { findCommit } from './object-reader.js';
import { entryAt } from './git-reads.js';
import { cleanRepositoryPath } from './tree-entries.js';
import { readableRepository } from './project-repository.js';
import { archiveLfsFilter } from '../lfs/archive-filter.js';

/** The formats of Gitlab::PathRegex.archive_formats_regex. */
export const ARCHIVE_FORMATS = ['zip', 'tar', 'tar.gz', 'tgz', 'gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'] as const;

/** Repository#archive_file_path: the extension each requested format is served as. */
export function archiveExtension(format: string): 'zip' | 'tar' | 'tar.gz' | 'tar.bz2' {
  if (['tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'].includes(format)) return 'tar.bz2';
  if (format === 'tar' || format === 'zip') return format;
  return 'tar.gz';
}

/** Repository#archive_prefix with append_sha, as the API asks: `app-main-<sha>[-docs-guide]`. */
export function archivePrefix(projectPath: string, ref: string, sha: string, path: string): string {
  const segments = [projectPath, ref.replace(/\//g, '-'), sha];
  if (path !== '') segments.push(path.replace(/\//g, '-'));
  return segments.join('-');
}

export interface Archive {
  fileName: string;
  process: ThreadProcess;
}

/** The pathspecs of an archive: the path (or everything), less each excluded path, all taken literally. */
export function archivePathspecs(path: string, exclude: readonly string[]): string[] {
  if (exclude.length === 0) return path === '' ? [] : [`:(literal)${path}`];
  return [`:(literal)${path === '' ? '.' : path}`, ...exclude.map((excluded) => `:(exclude,literal)${excluded}`)];
}

export async function openArchive(deps: Deps, access: ProjectAccess, query: { sha?: string; format: string; path?: string; excludePaths?: string[]; includeLfsBlobs?: boolean }): Promise<Archive> {
  const repoPath = await readableRepository(deps, access.project);
  const ref = query.sha ?? access.project.default_branch;
  const commit = repoPath ? await findCommit(repoPath, ref) : null;
  const path = cleanRepositoryPath(query.path ?? '');
  // GitLab answers every failure to archive as "404 File Not Found".
  if (!repoPath || !commit || path === null || (path !== '' && !(await entryAt(repoPath, commit.id, path)))) throw new NotFoundError('File');
  const extension = archiveExtension(query.format);
  const prefix = archivePrefix(access.project.path, ref, commit.id, path);
  // The filters of every compressed format are Kiln's, given on the command line (which wins over any
  // configuration; `git archive gzip` is git's own gzip, as by default): a repository's own
  // `tar.<format>.command` never chooses what runs.
  const compression = ['-c', 'tar.tar.gz.command=git archive gzip', '-c', 'tar.tgz.command=git archive gzip', '-c', 'tar.tar.bz2.command=bzip2 -c'];
  const exclude = (query.excludePaths ?? []).map(cleanRepositoryPath).filter((excluded): excluded is string => excluded !== null && excluded !== '');
  const pathspecs = archivePathspecs(path, exclude);
  // GitLab's include_lfs_blobs (true unless asked otherwise): LFS files as their content.
  const lfs = query.includeLfsBlobs === false ? null : await archiveLfsFilter(deps, access.project);
  const args = [...compression, ...(lfs?.gitOptions ?? []), 'archive', `--format=${extension}`, `--prefix=${prefix}/`, commit.id, ...(pathspecs.length > 0 ? ['--', ...pathspecs] : [])];
  const process = spawnGit(repoPath, args);
  if (lfs) process.once('close', () => void lfs.dispose());
  return { fileName: `${prefix}.${extension}`, process };
}
