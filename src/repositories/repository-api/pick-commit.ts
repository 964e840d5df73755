// Cherry-pick and revert onto a branch (GitLab's Commits::CherryPickService and RevertService, Gitaly's
// UserCherryPick and UserRevert): the commit's change against its first parent (a merge commit's
// mainline), or that change undone, is merged onto the branch's head without a work tree, committed
// by the user and written with the push rules of a web commit. A change that conflicts with the
// branch, or that the branch already has (nothing left to commit), is refused with GitLab's sentence
// and its `error_code`; a dry run stops before the commit.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import { listRefs } from '../git.js';
import { COMMIT_MESSAGES, RepositoryApiError } from './errors.js';
import { commitTree } from './commit-writer.js';
import type { CommitObject } from './git-objects.js';
import { EMPTY_TREE } from './git-reads.js';
import { findCommit, readCommits } from './object-reader.js';
import { writableRepository } from './project-repository.js';
import { BRANCH_PREFIX } from './ref-names.js';
import { canPushToBranch, loadBranchRules } from './branch-rules.js';
import { userIdentity } from './identity.js';
import { applyChange } from './three-way.js';
import { writeRef } from './write-ref.js';

export type PickKind = 'cherry_pick' | 'revert';

const REFUSALS: Record<PickKind, string> = {
  cherry_pick: 'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.',
  revert: 'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.',
};

export interface PickInput {
  kind: PickKind;
  commit: CommitObject;
  branch: string;
  dryRun: boolean;
  /** A cherry-pick's own message (the API's `message`); GitLab's default otherwise. */
  message?: string;
}

/** The first line of a message, as GitLab's Commit#title. */
function titleOf(message: string): string {
  return message.split('\n', 1)[0].trim();
}

/** Commit#cherry_pick_message and Commit#revert_message, without the merge request references. */
export function pickMessage(kind: PickKind, commit: CommitObject): string {
  return kind === 'cherry_pick' ? `${commit.message.replace(/\n+$/, '')}\n\n(cherry picked from commit ${commit.id})` : `Revert "${titleOf(commit.message)}"\n\nThis reverts commit ${commit.id}`;
}

/** The new commit on the branch; null for a dry run that would succeed. */
export async function pickCommit(deps: Deps, access: ProjectAccess, input: PickInput): Promise<CommitObject | null> {
  const user = access.user as AuthUser;
  const { project } = access;
  const repoPath = await writableRepository(deps, project);
  const before = await listRefs(repoPath);
  const ref = `${BRANCH_PREFIX}${input.branch}`;
  const headId = before.get(ref);
  if (headId === undefined) throw new RepositoryApiError('404 Branch Not Found', 404);
  if (!canPushToBranch(await loadBranchRules(deps, access), input.branch, false)) throw new RepositoryApiError(COMMIT_MESSAGES.notAllowed);

  const parent = input.commit.parents[0] ? await findCommit(repoPath, input.commit.parents[0]) : null;
  const parentTree = parent?.tree ?? EMPTY_TREE;
  const change = input.kind === 'cherry_pick' ? { before: parentTree, after: input.commit.tree } : { before: input.commit.tree, after: parentTree };
  const head = (await findCommit(repoPath, headId))!;
  const tree = await applyChange(repoPath, head.id, change);
  if (tree === null) throw new RepositoryApiError(REFUSALS[input.kind], 400, 'conflict');
  if (tree === head.tree) throw new RepositoryApiError(REFUSALS[input.kind], 400, 'empty');
  if (input.dryRun) return null;

  const committer = await userIdentity(deps, user);
  // Gitaly keeps a cherry-picked commit's author; a revert is the user's own.
  const author = input.kind === 'cherry_pick' ? { name: input.commit.author.name, email: input.commit.author.email } : committer;
  const time = Math.floor(deps.clock.now() / 1000);
  const message = input.kind === 'cherry_pick' && input.message ? input.message : pickMessage(input.kind, input.commit);
  const id = await commitTree(repoPath, tree, head.id, { message, author, committer, time });
  await writeRef(deps, { project, user, repoPath, before, ref, newId: id, conflictMessage: COMMIT_MESSAGES.concurrent(input.branch) });
  return (await readCommits(repoPath, [id])).get(id)!;
}
