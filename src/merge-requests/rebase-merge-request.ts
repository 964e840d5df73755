// The rebase endpoint's work (GitLab's MergeRequests::RebaseService), as a job: each non-merge commit
// of the source branch that the target lacks is replayed onto the target's head without a work tree
// (in the fork's repository for a merge request from a fork) and the source branch is moved to the
// result with a compare-and-swap; each pick is the repository's applyChange (three-way.ts).
import type { Deps } from '../platform/deps.js';
import { enqueue } from '../platform/jobs/queue.js';
import { toAuthUser } from '../accounts/api.js';
import { applyChange, findCommit, gitBytes, moveRef, revList, BRANCH_PREFIX, EMPTY_TREE } from '../repositories/api.js';
import { findMergeRequestById, fullProject } from './finder.js';
import { branchHead, readRepository, targetCommitIn } from './mr-repository.js';
import { sourceProjectOf } from './source-branch-access.js';
import { refreshSourceNow } from './refresh-merge-requests.js';

export const REBASE_JOB = 'merge_requests.rebase';
export const REBASE_FAILED = 'Rebase failed. Please rebase locally';

export async function scheduleRebase(deps: Deps, mergeRequestId: number, userId: number, skipCi: boolean): Promise<boolean> {
  const jid = `rebase-${mergeRequestId}-${deps.clock.now()}`;
  // Taken only when no rebase is in progress: two requests enqueue one rebase.
  const taken = await deps.db.updateTable('merge_requests').set({ rebase_jid: jid, merge_error: null }).where('id', '=', mergeRequestId).where('rebase_jid', 'is', null).executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) return false;
  await enqueue(deps.db, deps.clock, REBASE_JOB, { mergeRequestId, userId, skipCi, jid });
  deps.pokeWorker();
  return true;
}

async function commitTree(repoPath: string, tree: string, parents: string[], message: string, env: Record<string, string>): Promise<string> {
  return (await gitBytes(repoPath, ['commit-tree', tree, ...parents.flatMap((parent) => ['-p', parent]), '-F', '-'], { input: message, env })).toString().trim();
}

export async function rebaseJob(deps: Deps, payload: { mergeRequestId: number; userId: number; jid: string; skipCi?: boolean }): Promise<void> {
  const mr = await findMergeRequestById(deps.db, Number(payload.mergeRequestId));
  if (!mr || mr.rebase_jid !== payload.jid) return;
  const finish = (error: string | null) =>
    deps.db.updateTable('merge_requests').set({ rebase_jid: null, ...(error ? { merge_error: error } : {}) }).where('id', '=', Number(mr.id)).where('rebase_jid', '=', payload.jid).execute();
  const target = await fullProject(deps.db, Number(mr.target_project_id));
  const user = await deps.db.selectFrom('users').selectAll().where('id', '=', Number(payload.userId)).executeTakeFirst();
  const source = target ? await sourceProjectOf(deps, mr, target) : null;
  const targetRepoPath = target ? await readRepository(deps, target) : null;
  // The replay happens where the source branch lives: a fork's branch in the fork's repository.
  const repoPath = source && source !== target ? await readRepository(deps, source) : targetRepoPath;
  if (!target || !source || !user || !repoPath || !targetRepoPath) return void (await finish(REBASE_FAILED));
  const [start, head] = await Promise.all([branchHead(targetRepoPath, mr.target_branch), branchHead(repoPath, mr.source_branch)]);
  if (!start || !head || !(await targetCommitIn(repoPath, targetRepoPath, mr.target_branch, start))) return void (await finish(REBASE_FAILED));
  const ids = await revList(repoPath, { revisions: [head, `^${start}`], reverse: true, topoOrder: true, noMerges: true });
  let onto = start;
  const seconds = Math.floor(deps.clock.now() / 1000);
  const committer = { GIT_COMMITTER_NAME: user.name.replace(/[<>\n\r\0]/g, ''), GIT_COMMITTER_EMAIL: user.email.replace(/[<>\n\r\0]/g, ''), GIT_COMMITTER_DATE: `@${seconds} +0000` };
  for (const id of ids) {
    const commit = (await findCommit(repoPath, id))!;
    const parentTree = commit.parents[0] ? (await findCommit(repoPath, commit.parents[0]))!.tree : EMPTY_TREE;
    const tree = await applyChange(repoPath, onto, { before: parentTree, after: commit.tree });
    if (tree === null) return void (await finish(REBASE_FAILED));
    const author = { GIT_AUTHOR_NAME: commit.author.name, GIT_AUTHOR_EMAIL: commit.author.email, GIT_AUTHOR_DATE: `@${commit.author.seconds} ${commit.author.offset}` };
    onto = await commitTree(repoPath, tree, [onto], commit.message, { ...author, ...committer });
  }
  if (onto !== head) {
    const moved = await moveRef(deps, { project: source, user: toAuthUser(user), repoPath, ref: `${BRANCH_PREFIX}${mr.source_branch}`, oldId: head, newId: onto, skipCi: payload.skipCi === true });
    if (!moved) return void (await finish(REBASE_FAILED));
    // In progress until the merge request shows the rebased head as its new version.
    await refreshSourceNow(deps, Number(mr.id), user.id);
  }
  await finish(null);
}
