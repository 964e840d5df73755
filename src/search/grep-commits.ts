// Commit search in one project (GitLab's ProjectSearchResults#commits through Gitaly's
// CommitsByMessage): commits of the default branch or `ref` whose message contains the term
// (case-insensitive, literal, as `git log --grep -i -F`), newest first, and the commit the term
// names when it looks like a sha (Commit::COMMIT_SHA_PATTERN) ahead of them.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { commitDetailEntity, readableRepository, readCommits } from '../repositories/api.js';
import { git, resolvesToCommit } from './grep-blobs.js';

/** At most this many commits are found per search (a runaway search stays bounded). */
export const MAX_COMMITS = 1000;

/** Ids of the matching commits, newest first; none without download_code, a repository or the ref. */
export async function commitIdsMatching(deps: Deps, access: ProjectAccess, term: string, ref?: string): Promise<string[]> {
  if (!canOnProject(access, 'download_code')) return [];
  const repoPath = await readableRepository(deps, access.project);
  const revision = ref ?? access.project.default_branch;
  if (!repoPath || !(await resolvesToCommit(repoPath, revision))) return [];
  const byMessage = (await git(repoPath, ['log', '--format=%H', '--regexp-ignore-case', '--fixed-strings', `--max-count=${MAX_COMMITS}`, `--grep=${term}`, '--end-of-options', revision, '--']))
    .split('\n')
    .filter(Boolean);
  if (!/^[0-9a-f]{7,40}$/i.test(term) || !(await resolvesToCommit(repoPath, term))) return byMessage;
  const bySha = (await git(repoPath, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${term}^{commit}`])).trim();
  return [bySha, ...byMessage.filter((id) => id !== bySha)].slice(0, MAX_COMMITS);
}

/** GitLab's CommitDetail entities (no stats, as the search API shows them) of these commits, in order. */
export async function presentCommits(deps: Deps, access: ProjectAccess, ids: string[]) {
  const repoPath = await readableRepository(deps, access.project);
  if (!repoPath || ids.length === 0) return [];
  const commits = await readCommits(repoPath, ids);
  const context = { baseUrl: deps.config.baseUrl, project: access.project };
  return ids.flatMap((id) => {
    const commit = commits.get(id);
    return commit ? [commitDetailEntity(context, commit, null)] : [];
  });
}
