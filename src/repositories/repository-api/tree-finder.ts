// A directory of the repository at a ref (GitLab's Repositories::TreeFinder), optionally recursive.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { findCommit } from './object-reader.js';
import { listTree } from './git-reads.js';
import { cleanRepositoryPath, type TreeEntry } from './tree-entries.js';
import { readableRepository } from './project-repository.js';

export async function findTree(deps: Deps, access: ProjectAccess, query: { ref?: string; path?: string; recursive: boolean }): Promise<TreeEntry[]> {
  const repoPath = await readableRepository(deps, access.project);
  const commit = repoPath ? await findCommit(repoPath, query.ref ?? access.project.default_branch) : null;
  const path = cleanRepositoryPath(query.path ?? '');
  if (!repoPath || !commit || path === null) throw new NotFoundError('Tree');
  const entries = await listTree(repoPath, commit.id, path, query.recursive);
  if (!entries) throw new NotFoundError('Tree');
  return entries;
}

/** Gitaly's keyset order for trees: directories first, each kind in git's order. */
export function treesFirst(entries: TreeEntry[]): TreeEntry[] {
  return [...entries.filter((entry) => entry.type === 'tree'), ...entries.filter((entry) => entry.type !== 'tree')];
}

/** The entries after the one whose id is `token` (Gitaly's page token); all of them without a token. */
export function afterToken(entries: TreeEntry[], token: string | undefined): TreeEntry[] | null {
  if (!token) return entries;
  const index = entries.findIndex((entry) => entry.id === token);
  return index < 0 ? null : entries.slice(index + 1);
}
