// The mergeability check (GitLab's MergeRequests::MergeabilityCheckService), run as a job after every
// change that may change the answer: creation, a push to either branch, a retarget, a reopen, a
// change of merge method. merge_status goes unchecked → checking → can_be_merged/cannot_be_merged
// (cannot_be_merged_recheck → cannot_be_merged_rechecking → …), and the test merge is written to
// `refs/merge-requests/<iid>/merge` for the merge methods that make a merge commit.
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { Tx } from '../platform/db/statements.js';
import { enqueue } from '../platform/jobs/queue.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { MergeStatus } from '../platform/db/tables/merge-requests.js';
import { gitBytes, isAncestor } from '../repositories/api.js';
import type { MergeRequestRow } from './entities.js';
import { findMergeRequestById, fullProject, latestDiffOf } from './finder.js';
import { branchHead, sourceHead, readRepository, testMerge } from './mr-repository.js';
import { recordDiffVersion } from './record-diff-version.js';

export const CHECK_JOB = 'merge_requests.check_mergeability';

const CHECK_STATES: MergeStatus[] = ['unchecked', 'checking', 'cannot_be_merged_recheck', 'cannot_be_merged_rechecking'];

export function scheduleMergeabilityCheck(target: Tx | Executor, deps: Deps, mergeRequestId: number): Promise<number> {
  return enqueue(target, deps.clock, CHECK_JOB, { mergeRequestId });
}

/**
 * The open merge requests' answers are stale (a branch moved): back to a check state
 * (can_be_merged/checking → unchecked, cannot_be_merged* → cannot_be_merged_recheck).
 */
export async function markUnchecked(executor: Executor, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await executor
    .updateTable('merge_requests')
    .set((eb) => ({
      merge_status: eb.case().when('merge_status', 'in', ['cannot_be_merged', 'cannot_be_merged_recheck', 'cannot_be_merged_rechecking']).then(eb.val<MergeStatus>('cannot_be_merged_recheck')).else(eb.val<MergeStatus>('unchecked')).end(),
    }))
    .where('id', 'in', ids)
    .where('state', '=', 'opened')
    .execute();
}

interface CheckResult {
  status: 'can_be_merged' | 'cannot_be_merged';
  reason: MergeRequestRow['merge_check_reason'];
}

async function evaluate(deps: Deps, mr: MergeRequestRow, target: ProjectRow): Promise<CheckResult> {
  const repoPath = await readRepository(deps, target);
  const [start, head] = await Promise.all([branchHead(repoPath, mr.target_branch), sourceHead(deps, repoPath, mr)]);
  if (repoPath === null || start === null || head === null) return { status: 'cannot_be_merged', reason: 'broken_status' };
  const merged = await testMerge(repoPath, start, head);
  if (merged.conflict) return { status: 'cannot_be_merged', reason: 'conflict' };
  const latest = await latestDiffOf(deps.db, mr);
  if (latest && latest.head_commit_sha === head && Number(latest.commits_count) === 0) return { status: 'can_be_merged', reason: 'broken_status' };
  const fastForwardOnly = target.merge_method === 'ff' || target.merge_method === 'rebase_merge';
  if (fastForwardOnly && !(await isAncestor(repoPath, start, head))) return { status: 'can_be_merged', reason: 'need_rebase' };
  if (target.merge_method !== 'ff') await writeMergeRef(deps, repoPath, mr, merged.tree!, start, head);
  return { status: 'can_be_merged', reason: null };
}

/** The test merge GitLab keeps for `GET …/merge_ref` and pipelines: parents target head, source head. */
async function writeMergeRef(deps: Deps, repoPath: string, mr: MergeRequestRow, tree: string, start: string, head: string): Promise<void> {
  const author = await deps.db.selectFrom('users').select(['name', 'email']).where('id', '=', Number(mr.author_id)).executeTakeFirst();
  const who = { name: (author?.name ?? 'Kiln').replace(/[<>\n\r\0]/g, ''), email: (author?.email ?? 'noreply@kiln.invalid').replace(/[<>\n\r\0]/g, '') };
  const when = `@${Math.floor(deps.clock.now() / 1000)} +0000`;
  const env = { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_AUTHOR_DATE: when, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email, GIT_COMMITTER_DATE: when };
  const message = `Merge branch '${mr.source_branch}' into '${mr.target_branch}'\n`;
  const commit = (await gitBytes(repoPath, ['commit-tree', tree, '-p', start, '-p', head, '-F', '-'], { input: message, env })).toString().trim();
  await gitBytes(repoPath, ['update-ref', `refs/merge-requests/${mr.iid}/merge`, commit]);
}

export async function checkMergeability(deps: Deps, mergeRequestId: number): Promise<void> {
  const mr = await findMergeRequestById(deps.db, mergeRequestId);
  if (!mr || mr.state !== 'opened' || !CHECK_STATES.includes(mr.merge_status)) return;
  const checking: MergeStatus = mr.merge_status.startsWith('cannot_be_merged') ? 'cannot_be_merged_rechecking' : 'checking';
  const claimed = await deps.db.updateTable('merge_requests').set({ merge_status: checking }).where('id', '=', mergeRequestId).where('merge_status', 'in', CHECK_STATES).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return;
  const target = await fullProject(deps.db, Number(mr.target_project_id));
  if (!target) return;
  // The creation's first version, if its process died before recording it.
  if (mr.latest_merge_request_diff_id === null) await recordDiffVersion(deps, mr, target);
  const result = await evaluate(deps, mr, target);
  // A push while this ran put it back to unchecked and queued another check: that one answers.
  await deps.db
    .updateTable('merge_requests')
    .set({ merge_status: result.status, merge_check_reason: result.reason })
    .where('id', '=', mergeRequestId)
    .where('merge_status', '=', checking)
    .execute();
}

export function checkMergeabilityJob(deps: Deps, payload: { mergeRequestId: number }): Promise<void> {
  return checkMergeability(deps, Number(payload.mergeRequestId));
}
