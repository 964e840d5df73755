// The git side of a merge request, in the target project's bare repository (no work tree anywhere):
// branch heads, the refs GitLab keeps (`refs/merge-requests/<iid>/head`, the test merge at
// `…/merge`, `refs/keep-around/<sha>` for every head a version had, so a force-push never loses a
// version's commits), and the facts of a diff version. The plumbing is the repository feature's.
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { findCommit, gitBytes, gitCall, mergeBase, readableRepository, writableRepository, BRANCH_PREFIX } from '../repositories/api.js';

/** GitLab's hard diff limits (Gitlab::Git::DiffCollection defaults): past them a version overflows. */
export const DIFF_MAX_FILES = 1000;
export const DIFF_MAX_LINES = 50_000;

export function readRepository(deps: Deps, project: ProjectRow): Promise<string | null> {
  return readableRepository(deps, project);
}

export function writeRepository(deps: Deps, project: ProjectRow): Promise<string> {
  return writableRepository(deps, project);
}

/** The commit a branch points at, or null when the branch (or the repository) does not exist. */
export async function branchHead(repoPath: string | null, branch: string): Promise<string | null> {
  if (repoPath === null || branch === '') return null;
  const commit = await findCommit(repoPath, `${BRANCH_PREFIX}${branch}`);
  return commit?.id ?? null;
}

/**
 * The head of a merge request's source branch, as a commit in the target's repository. From a fork
 * (another source project) the branch is fetched into the target's `refs/merge-requests/<iid>/head`
 * first, as GitLab fetches a fork's branch, so that every git read of the merge request (versions,
 * the test merge, merging) happens in the target's repository alone.
 */
export async function sourceHead(deps: Deps, targetRepoPath: string | null, mr: { iid: number; source_project_id: number | null; target_project_id: number; source_branch: string }): Promise<string | null> {
  if (targetRepoPath === null) return null;
  if (mr.source_project_id === null || Number(mr.source_project_id) === Number(mr.target_project_id)) return branchHead(targetRepoPath, mr.source_branch);
  const source = await deps.db.selectFrom('projects').selectAll().where('id', '=', Number(mr.source_project_id)).executeTakeFirst();
  const sourcePath = source ? await readableRepository(deps, source) : null;
  const head = await branchHead(sourcePath, mr.source_branch);
  if (sourcePath === null || head === null) return null;
  if ((await findCommit(targetRepoPath, head)) === null) {
    const fetched = await gitCall(targetRepoPath, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', sourcePath, `+${BRANCH_PREFIX}${mr.source_branch}:refs/merge-requests/${mr.iid}/head`]);
    if (fetched.code !== 0) throw new Error(`git fetch from the fork failed: ${fetched.stderr.trim()}`);
  }
  return (await findCommit(targetRepoPath, head)) === null ? null : head;
}

/**
 * `sha` (the head of the target's `targetBranch`) in the source's repository: a fork lacks the commits
 * its upstream gained since the fork, so they are fetched — objects only, no ref of the fork moves.
 */
export async function targetCommitIn(repoPath: string, targetRepoPath: string, targetBranch: string, sha: string): Promise<boolean> {
  if (repoPath === targetRepoPath || (await findCommit(repoPath, sha))) return true;
  await gitCall(repoPath, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', targetRepoPath, `${BRANCH_PREFIX}${targetBranch}`]);
  return (await findCommit(repoPath, sha)) !== null;
}

export interface VersionFacts {
  baseSha: string | null;
  filesCount: number;
  linesCount: number;
  commitsCount: number;
}

/** What a version between the target's head (`start`) and the source's head shows. */
export async function versionFacts(repoPath: string, startSha: string, headSha: string): Promise<VersionFacts> {
  const baseSha = await mergeBase(repoPath, [startSha, headSha]);
  const [count, numstat] = await Promise.all([
    gitBytes(repoPath, ['rev-list', '--count', headSha, `^${startSha}`]),
    baseSha ? gitBytes(repoPath, ['diff-tree', '-r', '-z', '--numstat', '--find-renames', baseSha, headSha]) : Promise.resolve(Buffer.alloc(0)),
  ]);
  let filesCount = 0;
  let linesCount = 0;
  // -z numstat: `added\tdeleted\tpath\0`, or `added\tdeleted\t\0old\0new\0` for a rename.
  const fields = numstat.toString().split('\0');
  for (let index = 0; index < fields.length; index += 1) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/.exec(fields[index]);
    if (!match) continue;
    filesCount += 1;
    linesCount += (match[1] === '-' ? 0 : Number(match[1])) + (match[2] === '-' ? 0 : Number(match[2]));
    if (match[3] === '') index += 2;
  }
  return { baseSha, filesCount, linesCount, commitsCount: Number(count.toString().trim()) || 0 };
}

/** `refs/merge-requests/<iid>/head` at the source head, and the head kept around for its version. */
export async function keepHead(repoPath: string, iid: number, headSha: string): Promise<void> {
  // One process, one transaction for both refs.
  await gitBytes(repoPath, ['update-ref', '--stdin'], { input: `update refs/merge-requests/${iid}/head ${headSha}\nupdate refs/keep-around/${headSha} ${headSha}\n` });
}

export { testMerge, type TestMerge } from '../repositories/api.js';

/** Remove a merge request's refs (a deleted merge request); keep-around refs stay for other versions. */
export async function dropMergeRequestRefs(repoPath: string, iid: number): Promise<void> {
  await gitCall(repoPath, ['update-ref', '-d', `refs/merge-requests/${iid}/head`]);
  await gitCall(repoPath, ['update-ref', '-d', `refs/merge-requests/${iid}/merge`]);
}
