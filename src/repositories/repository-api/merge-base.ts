// The common ancestor of two or more refs (GitLab's Gitlab::Git::MergeBase), with its refusals.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { RepositoryApiError } from './errors.js';
import { findCommit } from './object-reader.js';
import { mergeBase } from './git-reads.js';
import type { CommitObject } from './git-objects.js';
import { readableRepository } from './project-repository.js';

export async function findMergeBase(deps: Deps, access: ProjectAccess, refs: string[]): Promise<CommitObject> {
  if (refs.length < 2) throw new RepositoryApiError('Provide at least 2 refs');
  const repoPath = await readableRepository(deps, access.project);
  const commits = await Promise.all(refs.map((ref) => (repoPath ? findCommit(repoPath, ref) : null)));
  const unknown = refs.filter((_, index) => !commits[index]);
  if (unknown.length > 0) throw new RepositoryApiError(`Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`);
  const id = await mergeBase(repoPath!, commits.map((commit) => commit!.id));
  const base = id ? await findCommit(repoPath!, id) : null;
  if (!base) throw new NotFoundError('Merge Base');
  return base;
}
