// Contributors of a ref (GitLab's Repository#contributors): the authors of its last 2,000 commits
// without merges, one per e-mail address, named as in their latest commit.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { readCommits } from './object-reader.js';
import { revList } from './git-reads.js';
import { readableRepository } from './project-repository.js';

export const CONTRIBUTOR_COMMIT_LIMIT = 2000;

export interface Contributor {
  name: string;
  email: string;
  commits: number;
}

export async function findContributors(deps: Deps, access: ProjectAccess, query: { ref?: string; orderBy: string; sort: string }): Promise<Contributor[]> {
  const repoPath = await readableRepository(deps, access.project);
  // GitLab's empty repository has no contributors; Kiln's not-yet-made one neither.
  if (!repoPath) return [];
  const ids = await revList(repoPath, { revisions: [query.ref ?? access.project.default_branch], noMerges: true, maxCount: CONTRIBUTOR_COMMIT_LIMIT });
  const commits = await readCommits(repoPath, ids);
  const byEmail = new Map<string, Contributor>();
  for (const id of ids) {
    const author = commits.get(id)?.author;
    if (!author) continue;
    const contributor = byEmail.get(author.email) ?? { name: author.name, email: author.email, commits: 0 };
    contributor.commits += 1;
    byEmail.set(author.email, contributor);
  }
  const key = (contributor: Contributor) => (query.orderBy === 'commits' ? contributor.commits : query.orderBy === 'name' ? contributor.name : contributor.email);
  const contributors = [...byEmail.values()].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return query.sort === 'desc' ? contributors.reverse() : contributors;
}
