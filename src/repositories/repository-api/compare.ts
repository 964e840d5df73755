// Two refs compared (GitLab's CompareService and Gitlab::Git::Compare): the commits of `from..to`
// oldest first, and the diff from their merge base (`from...to`), or from `from` itself when
// `straight` is true.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { findCommit, readCommits } from './object-reader.js';
import { diffBetween, mergeBase, revList } from './git-reads.js';
import type { CommitObject } from './git-objects.js';
import type { FileDiff } from './diffs.js';
import { readableRepository } from './project-repository.js';

export interface Comparison {
  commits: CommitObject[];
  diffs: FileDiff[];
  same: boolean;
  fromId: string;
  toId: string;
  /** What the diff starts from: the merge base, or `from` itself (straight, or no common ancestor). */
  baseId: string;
}

export async function compareRefs(deps: Deps, access: ProjectAccess, query: { from: string; to: string; straight: boolean; unidiff: boolean }): Promise<Comparison> {
  const repoPath = await readableRepository(deps, access.project);
  const [from, to] = repoPath ? await Promise.all([findCommit(repoPath, query.from.trim()), findCommit(repoPath, query.to.trim())]) : [null, null];
  if (!repoPath || !from || !to) throw new NotFoundError('Ref');
  const ids = await revList(repoPath, { revisions: [`^${from.id}`, to.id], reverse: true });
  const commits = await readCommits(repoPath, ids);
  // Without a common ancestor there is nothing to start from but `from` itself.
  const base = query.straight ? from.id : ((await mergeBase(repoPath, [from.id, to.id])) ?? from.id);
  return {
    commits: ids.flatMap((id) => (commits.has(id) ? [commits.get(id)!] : [])),
    diffs: await diffBetween(repoPath, base, to.id, query.unidiff),
    same: from.id === to.id,
    fromId: from.id,
    toId: to.id,
    baseId: base,
  };
}
