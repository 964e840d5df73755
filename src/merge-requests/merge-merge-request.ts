// Merging on the server without a work tree (GitLab's MergeRequests::MergeService and its API
// checks, lib/api/merge_requests.rb `merge`): who may merge (the target branch's push or merge
// access, else 401), whether it may be merged now (405: closed, draft, threads, approvals, CI), by
// git (406 "Branch cannot be merged": conflicts, a fast-forward method without ancestry, a missing
// branch), the `sha` guard (409), then `git merge-tree --write-tree` / `git commit-tree` and a
// compare-and-swap of the target branch. The merge request is locked (opened → locked, a guarded
// update) while it merges, so two merges of it never both run; two merges into one branch race on the
// ref's old value, and the loser moves nothing.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { inTransaction } from '../platform/db/database.js';
import { StatusError } from '../platform/errors.js';
import { recordEvent } from '../platform/events/record-event.js';
import { publishMergeRequestEvent } from './publish-events.js';
import { canMergeToBranch, findCommit, gitBytes, isAncestor, matchesBranch, mergeBase, moveRef, BRANCH_PREFIX, ZERO_OID } from '../repositories/api.js';
import { unauthorized } from '../platform/http/api-error.js';
import type { MergeRequestRow } from './rows.js';
import { findMergeRequestById, latestDiffOf } from './finder.js';
import { loadLinks } from './present.js';
import { ciPasses, failingCheck } from './merge-status.js';
import { branchHead, sourceHead, readRepository, testMerge } from './mr-repository.js';
import { versionCommits } from './version-reads.js';
import { mergeMessage, squashMessage, type MessageFacts } from './commit-messages.js';
import { mergeRequestWebUrl, squashOnMerge } from './entities.js';
import { addSystemNote } from './system-notes.js';
import { closeIssuesOnMerge } from './closing-issues.js';
import { armAutoMerge } from './arm-auto-merge.js';
import { ACTIVE } from '../commit-statuses/api.js';
import { mayWriteSourceBranch, sourceProjectOf } from './source-branch-access.js';

/** `Closes #1, #2, and group/other#3` (Ruby's to_sentence), empty without closing issues. */
async function closingSentence(deps: Deps, mr: MergeRequestRow, target: ProjectRow): Promise<string> {
  const rows = await deps.db
    .selectFrom('merge_requests_closing_issues as c')
    .innerJoin('issues as i', 'i.id', 'c.issue_id')
    .innerJoin('projects as p', 'p.id', 'i.project_id')
    .select(['i.iid', 'p.id', 'p.full_path'])
    .where('c.merge_request_id', '=', Number(mr.id))
    .orderBy('i.id')
    .execute();
  const refs = rows.map((row) => (Number(row.id) === Number(target.id) ? `#${row.iid}` : `${row.full_path}#${row.iid}`));
  if (refs.length === 0) return '';
  const sentence = refs.length === 1 ? refs[0] : refs.length === 2 ? `${refs[0]} and ${refs[1]}` : `${refs.slice(0, -1).join(', ')}, and ${refs[refs.length - 1]}`;
  return `Closes ${sentence}`;
}

export interface MergeInput {
  mergeCommitMessage?: string;
  squashCommitMessage?: string;
  squash?: boolean;
  shouldRemoveSourceBranch?: boolean;
  mergeWhenPipelineSucceeds?: boolean;
  sha?: string;
  /** The armed automatic merge merging (auto-merge-job.ts): it never arms again. */
  automatic?: boolean;
}

export const BRANCH_CANNOT_BE_MERGED = 'Branch cannot be merged';
const methodNotAllowed = () => new StatusError(405, '405 Method Not Allowed');
const notMergeable = () => new StatusError(406, BRANCH_CANNOT_BE_MERGED);

interface Person {
  name: string;
  email: string;
}

async function person(deps: Deps, userId: number): Promise<Person> {
  const row = await deps.db.selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirst();
  const clean = (text: string) => text.replace(/[<>\n\r\0]/g, '').trim();
  return { name: clean(row?.name ?? 'Ghost User'), email: clean(row?.email ?? 'ghost@kiln.invalid') };
}

function identity(who: Person, prefix: 'AUTHOR' | 'COMMITTER', seconds: number): Record<string, string> {
  return { [`GIT_${prefix}_NAME`]: who.name, [`GIT_${prefix}_EMAIL`]: who.email, [`GIT_${prefix}_DATE`]: `@${seconds} +0000` };
}

async function commitTree(repoPath: string, tree: string, parents: string[], message: string, env: Record<string, string>): Promise<string> {
  const text = message.endsWith('\n') ? message : `${message}\n`;
  return (await gitBytes(repoPath, ['commit-tree', tree, ...parents.flatMap((parent) => ['-p', parent]), '-F', '-'], { input: text, env })).toString().trim();
}

/** Release the lock taken for the merge, noting why it failed (GitLab's merge_error). */
async function unlock(deps: Deps, mr: MergeRequestRow, error: string): Promise<void> {
  await deps.db.updateTable('merge_requests').set({ state: 'opened', merge_error: error }).where('id', '=', Number(mr.id)).where('state', '=', 'locked').execute();
}

export async function mergeMergeRequest(deps: Deps, actor: AuthUser, mr: MergeRequestRow, target: ProjectRow, input: MergeInput): Promise<MergeRequestRow> {
  if (!(await canMergeToBranch(deps, target, actor, mr.target_branch))) throw unauthorized();
  // `squash` sets the merge request's flag first (within what squash_option allows).
  if (input.squash !== undefined && target.squash_option !== 'always' && target.squash_option !== 'never' && (Number(mr.squash) === 1) !== input.squash) {
    await deps.db.updateTable('merge_requests').set({ squash: input.squash ? 1 : 0 }).where('id', '=', Number(mr.id)).execute();
    mr = { ...mr, squash: input.squash ? 1 : 0 };
  }
  const links = (await loadLinks(deps, [mr], { from: null })).links(mr);
  const failing = failingCheck({ ...mr, merge_check_reason: null }, links.facts);
  // merge_when_pipeline_succeeds merges at once when the head pipeline already succeeded (GitLab's
  // `immediately`), arms an automatic merge while it is still active (arm-auto-merge.ts), and is
  // GitLab's 405 without one or after it failed.
  const ciAllows = input.mergeWhenPipelineSucceeds ? links.facts.pipelineStatus === 'success' : ciPasses(links.facts);
  if (failing !== null) throw methodNotAllowed();
  const diff = await latestDiffOf(deps.db, mr);
  if (!ciAllows) {
    const active = links.facts.pipelineStatus !== null && (ACTIVE as readonly string[]).includes(links.facts.pipelineStatus);
    if (!input.mergeWhenPipelineSucceeds || input.automatic || !active || !diff?.head_commit_sha) throw methodNotAllowed();
    if (input.sha !== undefined && input.sha !== diff.head_commit_sha) throw new StatusError(409, `SHA does not match HEAD of source branch: ${diff.head_commit_sha}`);
    return armAutoMerge(deps, actor, mr, {
      sha: diff.head_commit_sha, mergeCommitMessage: input.mergeCommitMessage, squashCommitMessage: input.squashCommitMessage,
      squash: input.squash, shouldRemoveSourceBranch: input.shouldRemoveSourceBranch,
    });
  }
  const repoPath = await readRepository(deps, target);
  const [start, head] = await Promise.all([branchHead(repoPath, mr.target_branch), sourceHead(deps, repoPath, mr)]);
  if (repoPath === null || diff === null || start === null || head === null || !diff.head_commit_sha || Number(diff.commits_count) === 0) throw notMergeable();
  if (input.sha !== undefined && input.sha !== diff.head_commit_sha) throw new StatusError(409, `SHA does not match HEAD of source branch: ${diff.head_commit_sha}`);
  const source = diff.head_commit_sha;
  const ffOnly = target.merge_method !== 'merge';
  if (ffOnly && !(await isAncestor(repoPath, start, source))) throw notMergeable();
  if (!ffOnly && (await testMerge(repoPath, start, source)).conflict) throw notMergeable();

  // The lock: only one merge of this merge request runs; a racing one finds it locked (405).
  const locked = await deps.db.updateTable('merge_requests').set({ state: 'locked', merge_error: null }).where('id', '=', Number(mr.id)).where('state', '=', 'opened').executeTakeFirst();
  if (Number(locked.numUpdatedRows) === 0) throw methodNotAllowed();
  try {
    return await performMerge(deps, actor, mr, target, input, { repoPath, start, source });
  } catch (error) {
    await unlock(deps, mr, error instanceof StatusError ? String(error.body) : 'Something went wrong during merge');
    throw error;
  }
}

async function performMerge(deps: Deps, actor: AuthUser, mr: MergeRequestRow, target: ProjectRow, input: MergeInput, git: { repoPath: string; start: string; source: string }): Promise<MergeRequestRow> {
  const { repoPath, start, source } = git;
  const diff = (await latestDiffOf(deps.db, mr))!;
  const [merger, author, commits] = await Promise.all([person(deps, actor.id), person(deps, Number(mr.author_id)), versionCommits(repoPath, diff)]);
  const seconds = Math.floor(deps.clock.now() / 1000);
  const facts: MessageFacts = {
    sourceBranch: mr.source_branch, targetBranch: mr.target_branch, title: mr.title, description: mr.description,
    reference: `${target.full_path}!${mr.iid}`, iid: mr.iid, sourceProjectId: mr.source_project_id, url: mergeRequestWebUrl(deps.config.baseUrl, target, mr.iid),
    mergedBy: merger, author, approvedBy: [], reviewedBy: [], issues: '', commits, coAuthorExcept: merger.email,
  };
  facts.issues = await closingSentence(deps, mr, target);
  const approvals = await deps.db.selectFrom('merge_request_approvals as a').innerJoin('users as u', 'u.id', 'a.user_id').select(['u.name', 'u.email']).where('a.merge_request_id', '=', Number(mr.id)).orderBy('a.id').execute();
  facts.approvedBy = approvals;
  facts.reviewedBy = approvals;

  // Squash: one commit on the merge base with the source's tree, authored by the merge request's author.
  let merged = source;
  let squashSha: string | null = null;
  if (squashOnMerge(mr, target)) {
    const message = input.squashCommitMessage ?? squashMessage(target.squash_commit_template, { ...facts, coAuthorExcept: author.email });
    const only = commits.length === 1 ? commits[0] : null;
    if (only && only.message.trimEnd() === message.trimEnd()) {
      squashSha = only.id;
    } else {
      const base = target.merge_method === 'ff' ? start : await mergeBase(repoPath, [start, source]);
      const sourceCommit = await findCommit(repoPath, source);
      squashSha = await commitTree(repoPath, sourceCommit!.tree, base ? [base] : [], message, { ...identity(author, 'AUTHOR', seconds), ...identity(merger, 'COMMITTER', seconds) });
    }
    merged = squashSha;
  }

  const env = { ...identity(merger, 'AUTHOR', seconds), ...identity(merger, 'COMMITTER', seconds) };
  let newHead: string;
  let mergeCommitSha: string | null = null;
  if (target.merge_method === 'ff') {
    newHead = merged;
  } else {
    const message = input.mergeCommitMessage ?? mergeMessage(target.merge_commit_template, facts);
    let tree: string;
    if (target.merge_method === 'rebase_merge') {
      tree = (await findCommit(repoPath, merged))!.tree;
    } else {
      const result = await testMerge(repoPath, start, merged);
      if (result.conflict) throw new StatusError(406, BRANCH_CANNOT_BE_MERGED);
      tree = result.tree!;
    }
    newHead = await commitTree(repoPath, tree, [start, merged], message, env);
    mergeCommitSha = newHead;
  }

  const moved = await moveRef(deps, { project: target, user: actor, repoPath, ref: `${BRANCH_PREFIX}${mr.target_branch}`, oldId: start, newId: newHead });
  // Another merge or push moved the target first: nothing was lost, this merge did not happen.
  if (!moved) throw new StatusError(406, BRANCH_CANNOT_BE_MERGED);

  const removeSource = input.shouldRemoveSourceBranch ?? (mr.force_remove_source_branch === null ? false : Number(mr.force_remove_source_branch) === 1);
  const now = deps.clock.now();
  await inTransaction(deps.db, async (trx) => {
    await trx
      .updateTable('merge_requests')
      .set({
        state: 'merged', merge_commit_sha: mergeCommitSha, squash_commit_sha: squashSha, merged_by_id: actor.id, merged_at: now, merge_user_id: actor.id,
        should_remove_source_branch: input.shouldRemoveSourceBranch === undefined ? null : input.shouldRemoveSourceBranch ? 1 : 0, merge_error: null, updated_at: now,
      })
      .where('id', '=', Number(mr.id))
      .where('state', '=', 'locked')
      .execute();
    await recordEvent(trx, deps.clock, { projectId: Number(target.id), authorId: actor.id, action: 'merged', target: { type: 'MergeRequest', id: Number(mr.id), iid: mr.iid, title: mr.title } });
    await publishMergeRequestEvent(deps, trx, 'merge_request.merged', mr, actor.id);
  });
  if (removeSource) await removeSourceBranch(deps, actor, mr, target, repoPath, source);
  if (mr.target_branch === target.default_branch) await closeIssuesOnMerge(deps, actor.id, mr);
  return (await findMergeRequestById(deps.db, Number(mr.id)))!;
}

/**
 * GitLab's source-branch deletion after a merge (MergeRequest#can_remove_source_branch?): by whoever
 * may write to it (a fork's branch in the fork's repository, collaboration included), never the
 * source project's default branch nor a protected one, and only while it still points at the merged head.
 */
async function removeSourceBranch(deps: Deps, actor: AuthUser, mr: MergeRequestRow, target: ProjectRow, targetRepoPath: string, head: string): Promise<void> {
  const source = await sourceProjectOf(deps, mr, target);
  if (!source || mr.source_branch === source.default_branch) return;
  const protectedRule = await deps.db.selectFrom('protected_branches').select('name').where('project_id', '=', Number(source.id)).execute();
  if (protectedRule.some((rule) => matchesBranch(rule.name, mr.source_branch))) return;
  if (!(await mayWriteSourceBranch(deps, actor, mr, target, source))) return;
  const repoPath = source === target ? targetRepoPath : await readRepository(deps, source);
  if (!repoPath) return;
  const moved = await moveRef(deps, { project: source, user: actor, repoPath, ref: `${BRANCH_PREFIX}${mr.source_branch}`, oldId: head, newId: ZERO_OID });
  if (moved) await inTransaction(deps.db, (trx) => addSystemNote(trx, mr, actor.id, `deleted source branch \`${mr.source_branch}\``, deps.clock.now()));
}
