// What a push to a branch does to merge requests (GitLab's MergeRequests::RefreshService), run as a
// job for each pushed branch (git over HTTP and the repository API both publish `push`):
//   - open merge requests FROM the branch get a new diff version, the `added N commits` system note,
//     their approvals reset (reset_approvals_on_push) and a recheck;
//   - open merge requests INTO the branch are rechecked (a new version when the target was
//     force-pushed), and those whose head the push brought into the branch are marked merged, as
//     GitLab marks a merge request merged that was merged by hand.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { recordEvent } from '../platform/events/record-event.js';
import { publishMergeRequestEvent, publishMergeRequestUpdate } from './publish-events.js';
import { enqueue } from '../platform/jobs/queue.js';
import type { EventTx } from '../platform/domain-events.js';
import { BRANCH_PREFIX, isAncestor, readCommits, revList } from '../repositories/api.js';
import type { MergeRequestRow } from './rows.js';
import { findMergeRequestById, fullProject } from './finder.js';
import { closeIssuesByPush, syncClosingIssues } from './closing-issues.js';
import { markUnchecked, scheduleMergeabilityCheck } from './check-mergeability.js';
import { recordDiffVersion } from './record-diff-version.js';
import { readRepository } from './mr-repository.js';
import { addSystemNote } from './system-notes.js';
import { mergeRequestWebUrl } from './entities.js';
import { crossReferenceCommits } from '../issues/api.js';
import type { ProjectRow } from '../platform/auth/subjects.js';

export const REFRESH_JOB = 'merge_requests.refresh';

interface RefreshPayload {
  projectId: number;
  actorId: number | null;
  branch: string;
  before: string | null;
  after: string | null;
}

export function enqueueRefresh(tx: EventTx, deps: Deps, event: { projectId: number; actorId: number | null; ref: string; before: string | null; after: string | null }): Promise<unknown> {
  if (!event.ref.startsWith(BRANCH_PREFIX)) return Promise.resolve();
  const payload: RefreshPayload = { projectId: event.projectId, actorId: event.actorId, branch: event.ref.slice(BRANCH_PREFIX.length), before: event.before, after: event.after };
  return enqueue(tx, deps.clock, REFRESH_JOB, { ...payload });
}

function openMergeRequests(deps: Deps, side: 'source' | 'target', projectId: number, branch: string): Promise<MergeRequestRow[]> {
  return deps.db
    .selectFrom('merge_requests')
    .selectAll()
    .where(side === 'source' ? 'source_project_id' : 'target_project_id', '=', projectId)
    .where(side === 'source' ? 'source_branch' : 'target_branch', '=', branch)
    .where('state', '=', 'opened')
    .orderBy('id')
    .execute();
}

/** GitLab's `added N commits` note: the new commits listed (at most 20 shown), and the version link. */
async function commitsNote(repoPath: string, ids: string[], compareUrl: string | null): Promise<string> {
  const shown = ids.slice(0, 20);
  const commits = await readCommits(repoPath, shown);
  const items = shown.map((id) => `<li>${id.slice(0, 8)} - ${(commits.get(id)?.message.split('\n', 1)[0] ?? '').replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}</li>`);
  if (ids.length > shown.length) items.push(`<li>${ids.length - shown.length} more commits</li>`);
  const count = `added ${ids.length} commit${ids.length === 1 ? '' : 's'}`;
  return [count, `<ul>${items.join('')}</ul>`, ...(compareUrl ? [`[Compare with previous version](${compareUrl})`] : [])].join('\n\n');
}

async function refreshSource(deps: Deps, payload: Pick<RefreshPayload, 'actorId'>, mr: MergeRequestRow): Promise<void> {
  const target = await fullProject(deps.db, Number(mr.target_project_id));
  if (!target) return;
  const version = await recordDiffVersion(deps, mr, target, { actorId: payload.actorId });
  const now = deps.clock.now();
  const repoPath = await readRepository(deps, target);
  let note: string | null = null;
  if (version.kind === 'recorded' && version.previous && repoPath && version.diff.head_commit_sha && version.previous.head_commit_sha) {
    const added = await revList(repoPath, { revisions: [version.diff.head_commit_sha, `^${version.previous.head_commit_sha}`] });
    const url = `${mergeRequestWebUrl(deps.config.baseUrl, target, mr.iid)}/diffs?diff_id=${version.diff.id}&start_sha=${version.previous.head_commit_sha}`;
    if (added.length > 0) note = await commitsNote(repoPath, added, url);
  }
  await inTransaction(deps.db, async (trx) => {
    await markUnchecked(trx, [Number(mr.id)]);
    if (version.kind === 'recorded') {
      // GitLab's push update: a Merge Request Hook `update` with `oldrev`, e-mail push_to_merge_request.
      if (version.previous) await publishMergeRequestUpdate(deps, trx, mr, payload.actorId, { changes: [], previous: {}, current: {}, oldrev: version.previous.head_commit_sha });
      if (note && payload.actorId !== null) await addSystemNote(trx, mr, payload.actorId, note, now);
      if (Number(target.reset_approvals_on_push) === 1) await trx.deleteFrom('merge_request_approvals').where('merge_request_id', '=', Number(mr.id)).execute();
      // A moved head disarms an automatic merge (GitLab: "aborted the automatic merge because source branch was updated").
      if (Number(mr.merge_when_pipeline_succeeds) === 1) {
        await trx.updateTable('merge_requests').set({ merge_when_pipeline_succeeds: 0, merge_user_id: null, merge_params: null }).where('id', '=', Number(mr.id)).execute();
        if (payload.actorId !== null) await addSystemNote(trx, mr, payload.actorId, 'aborted the automatic merge because source branch was updated', now);
      }
    }
    await scheduleMergeabilityCheck(trx, deps, Number(mr.id));
  });
  if (version.kind === 'recorded') await syncClosingIssues(deps, (await findMergeRequestById(deps.db, Number(mr.id)))!);
}

/**
 * The refresh of one merge request's source at once, where the request that moved its branch answers
 * only after the new version is recorded (applying a suggestion, the rebase job): what the reader
 * sees next is the new head, and the push's job finds the version already made.
 */
export async function refreshSourceNow(deps: Deps, mergeRequestId: number, actorId: number | null): Promise<void> {
  const mr = await findMergeRequestById(deps.db, mergeRequestId);
  if (!mr || mr.state !== 'opened') return;
  try {
    await refreshSource(deps, { actorId }, mr);
  } catch (error) {
    // The branch has moved: the push's own job refreshes it again.
    deps.log.error({ err: error, merge_request_id: mergeRequestId }, 'refreshing a merge request after its branch moved failed');
  }
}

async function refreshTarget(deps: Deps, payload: RefreshPayload, mr: MergeRequestRow): Promise<void> {
  const target = await fullProject(deps.db, Number(mr.target_project_id));
  if (!target) return;
  const repoPath = await readRepository(deps, target);
  const forced = repoPath !== null && payload.before !== null && payload.after !== null && !(await isAncestor(repoPath, payload.before, payload.after));
  const latest = mr.latest_merge_request_diff_id === null ? null : await deps.db.selectFrom('merge_request_diffs').selectAll().where('id', '=', Number(mr.latest_merge_request_diff_id)).executeTakeFirst();
  const head = latest?.head_commit_sha ?? null;
  // Merged by hand: the branch now contains the merge request's head (and it had commits to merge).
  if (repoPath && payload.after && head && Number(latest?.commits_count ?? 0) > 0 && (await isAncestor(repoPath, head, payload.after))) {
    const now = deps.clock.now();
    await inTransaction(deps.db, async (trx) => {
      const done = await trx.updateTable('merge_requests').set({ state: 'merged', merged_at: now, merged_by_id: payload.actorId, updated_at: now }).where('id', '=', Number(mr.id)).where('state', '=', 'opened').executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) return;
      await publishMergeRequestEvent(deps, trx, 'merge_request.merged', mr, payload.actorId);
      if (payload.actorId === null) return;
      await recordEvent(trx, deps.clock, { projectId: Number(target.id), authorId: payload.actorId, action: 'merged', target: { type: 'MergeRequest', id: Number(mr.id), iid: mr.iid, title: mr.title } });
    });
    return;
  }
  if (forced) await recordDiffVersion(deps, mr, target, { always: true, actorId: payload.actorId });
  await inTransaction(deps.db, async (trx) => {
    await markUnchecked(trx, [Number(mr.id)]);
    await scheduleMergeabilityCheck(trx, deps, Number(mr.id));
  });
}

/**
 * The commits a push brought (at most 100 read; a new branch: those not on the default branch), read
 * once for both uses: a push to the default branch closes the issues they name (ProcessCommitWorker),
 * and every push adds "mentioned in commit" to what they name.
 */
async function actOnPushedCommits(deps: Deps, project: ProjectRow, payload: RefreshPayload & { actorId: number; after: string }): Promise<void> {
  const repoPath = await readRepository(deps, project);
  if (!repoPath) return;
  const exclude = payload.before ? [`^${payload.before}`] : payload.branch !== project.default_branch && project.default_branch ? [`^${BRANCH_PREFIX}${project.default_branch}`] : [];
  const ids = await revList(repoPath, { revisions: [payload.after, ...exclude], maxCount: 100 });
  const commits = [...(await readCommits(repoPath, ids)).entries()].map(([id, commit]) => ({ id, message: commit.message }));
  if (payload.branch === project.default_branch) await closeIssuesByPush(deps, project, payload.actorId, commits.map((commit) => commit.message));
  if (commits.length) await crossReferenceCommits(deps, project, payload.actorId, commits);
}

export async function refreshMergeRequestsJob(deps: Deps, payload: RefreshPayload): Promise<void> {
  const project = await fullProject(deps.db, payload.projectId);
  if (project && payload.after && payload.actorId !== null) await actOnPushedCommits(deps, project, { ...payload, actorId: payload.actorId, after: payload.after });
  for (const mr of await openMergeRequests(deps, 'source', payload.projectId, payload.branch)) await refreshSource(deps, payload, mr);
  for (const mr of await openMergeRequests(deps, 'target', payload.projectId, payload.branch)) await refreshTarget(deps, payload, mr);
}
