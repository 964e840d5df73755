// Commits of a project's repository: the log with GitLab's filters (ref_name, path, since, until,
// author, all, first_parent, order), one commit by sha or ref, its diff and the refs containing it.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import type { CommitObject } from './git-objects.js';
import { findCommit, readCommits } from './object-reader.js';
import { commitDiff, commitStats, refsContaining, revList } from './git-reads.js';
import type { FileDiff } from './diffs.js';
import { readableRepository } from './project-repository.js';
import { BRANCH_PREFIX, TAG_PREFIX } from './ref-names.js';
import type { CommitStats } from './entities.js';

export interface CommitFilters {
  refName?: string;
  path?: string;
  since?: Date;
  until?: Date;
  author?: string;
  all?: boolean;
  firstParent?: boolean;
  order?: string;
  withStats?: boolean;
}

export interface ListedCommit {
  commit: CommitObject;
  stats: CommitStats | null;
}

/** One page of the log (`offset`, `limit`); an empty repository or unknown ref has none. */
export async function listCommits(deps: Deps, access: ProjectAccess, filters: CommitFilters, page: { offset: number; limit: number }): Promise<ListedCommit[]> {
  const repoPath = await readableRepository(deps, access.project);
  if (!repoPath) return [];
  const ids = await revList(repoPath, {
    revisions: filters.all ? [] : [filters.refName ?? access.project.default_branch],
    all: filters.all,
    path: filters.path,
    since: filters.since,
    until: filters.until,
    author: filters.author,
    firstParent: filters.firstParent,
    topoOrder: filters.order === 'topo',
    skip: page.offset,
    maxCount: page.limit,
  });
  const commits = await readCommits(repoPath, ids);
  return Promise.all(
    ids.flatMap((id) => {
      const commit = commits.get(id);
      return commit ? [(async () => ({ commit, stats: filters.withStats ? await commitStats(repoPath, commit) : null }))()] : [];
    }),
  );
}

export interface FoundCommit {
  repoPath: string;
  commit: CommitObject;
}

/** A commit by sha, branch or tag; "404 Commit Not Found" otherwise. */
export async function findProjectCommit(deps: Deps, access: ProjectAccess, revision: string): Promise<FoundCommit> {
  const repoPath = await readableRepository(deps, access.project);
  const commit = repoPath ? await findCommit(repoPath, revision) : null;
  if (!repoPath || !commit) throw new NotFoundError('Commit');
  return { repoPath, commit };
}

export function statsOf(found: FoundCommit): Promise<CommitStats> {
  return commitStats(found.repoPath, found.commit);
}

export function diffOf(found: FoundCommit, unidiff = false): Promise<FileDiff[]> {
  return commitDiff(found.repoPath, found.commit, unidiff);
}

/** The branches and tags that contain the commit (`type`: branch, tag or all). */
export async function refsOf(found: FoundCommit, type: string): Promise<{ type: 'branch' | 'tag'; name: string }[]> {
  const prefixes = type === 'branch' ? [BRANCH_PREFIX] : type === 'tag' ? [TAG_PREFIX] : [BRANCH_PREFIX, TAG_PREFIX];
  const refs = await refsContaining(found.repoPath, found.commit.id, prefixes);
  const branches = refs.filter((ref) => ref.startsWith(BRANCH_PREFIX)).map((ref) => ({ type: 'branch' as const, name: ref.slice(BRANCH_PREFIX.length) }));
  const tags = refs.filter((ref) => ref.startsWith(TAG_PREFIX)).map((ref) => ({ type: 'tag' as const, name: ref.slice(TAG_PREFIX.length) }));
  return [...branches, ...tags];
}
