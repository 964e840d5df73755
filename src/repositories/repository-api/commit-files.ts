// One commit of file actions on a branch, for the files and commits APIs (GitLab's
// Commits::CreateService validations, then Files::MultiService and Gitaly's UserCommitFiles): the
// branch rules of a push, the start point, the actions against the start commit's files, and the
// branch moved only if nobody moved it meanwhile.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import { listRefs } from '../git.js';
import { COMMIT_MESSAGES, RepositoryApiError } from './errors.js';
import { planActions, type FileAction } from './file-actions.js';
import { writeCommit } from './commit-writer.js';
import { filesOf, lastCommitFor } from './git-reads.js';
import type { CommitObject } from './git-objects.js';
import { findCommit, readCommits } from './object-reader.js';
import { isEmptyRepository, writableRepository } from './project-repository.js';
import { BRANCH_PREFIX, isValidRefName } from './ref-names.js';
import { canPushToBranch, loadBranchRules } from './branch-rules.js';
import { authorOf, userIdentity } from './identity.js';
import { writeRef } from './write-ref.js';

export interface CommitFilesInput {
  branch: string;
  /** Where the new commit starts; the branch itself when absent (and no start_sha). */
  startBranch?: string;
  startSha?: string;
  /** Overwrite an existing branch with a commit on the start point (a force push). */
  force?: boolean;
  message: string;
  authorName?: string;
  authorEmail?: string;
  actions: FileAction[];
  /** The refusal when an action's last_commit_id is not the file's last commit. */
  changedMessage: (path: string) => string;
  /**
   * Commits::CreateService's own can_push_to_branch? check first (the files and commits APIs). A
   * commit GitLab makes for the caller (a new branch's README) meets only the push rules.
   */
  skipBranchAccessCheck?: boolean;
  /**
   * The branch's head the actions were computed against (whole-file contents, as applying a
   * suggestion writes): refused with changedMessage('') when the branch is elsewhere.
   */
  expectedHead?: string;
}

const COMMIT_ID = /^[0-9a-f]{40}$/;

/** Commits::CreateService#validate_start_sha!. */
async function startShaCommit(repoPath: string, input: CommitFilesInput): Promise<CommitObject | null> {
  const sha = input.startSha!;
  if (input.startBranch !== undefined) throw new RepositoryApiError("You can't pass both start_branch and start_sha");
  if (!COMMIT_ID.test(sha)) throw new RepositoryApiError(`Invalid start_sha '${sha}'`);
  const commit = await findCommit(repoPath, sha);
  if (!commit || commit.id !== sha) throw new RepositoryApiError(`Cannot find start_sha '${sha}'`);
  return commit;
}

/** Files::MultiService#validate_file_status!: a file changed since the client read it. */
async function checkLastCommits(repoPath: string, start: CommitObject, input: CommitFilesInput): Promise<void> {
  for (const action of input.actions) {
    if (!action.lastCommitId || action.action === 'create') continue;
    const last = await lastCommitFor(repoPath, start.id, action.filePath);
    if (last !== null && last !== action.lastCommitId) throw new RepositoryApiError(input.changedMessage(action.filePath));
  }
}

export async function commitFiles(deps: Deps, access: ProjectAccess, input: CommitFilesInput): Promise<CommitObject> {
  const user = access.user as AuthUser;
  const { project } = access;
  const repoPath = await writableRepository(deps, project);
  const before = await listRefs(repoPath);
  const empty = isEmptyRepository(before);
  const hasBranch = (name: string) => before.has(`${BRANCH_PREFIX}${name}`);

  if (!input.skipBranchAccessCheck && !canPushToBranch(await loadBranchRules(deps, access), input.branch, empty)) throw new RepositoryApiError(COMMIT_MESSAGES.notAllowed);
  if (input.expectedHead !== undefined && before.get(`${BRANCH_PREFIX}${input.branch}`) !== input.expectedHead) throw new RepositoryApiError(input.changedMessage(''));
  const startSha = input.startSha !== undefined ? await startShaCommit(repoPath, input) : null;
  const startBranch = input.startSha !== undefined ? undefined : (input.startBranch ?? input.branch);
  if (startBranch !== undefined && !empty && !hasBranch(startBranch)) throw new RepositoryApiError(COMMIT_MESSAGES.notOnBranch);
  const different = startBranch !== input.branch;
  if (!empty && different && hasBranch(input.branch) && !input.force) throw new RepositoryApiError(COMMIT_MESSAGES.branchExists(input.branch));
  if (!hasBranch(input.branch) && !isValidRefName(input.branch)) {
    throw new RepositoryApiError(`Something went wrong when we tried to create '${input.branch}' for you: Branch name is invalid`);
  }

  // An empty repository has nothing to start from: its first commit has no parent.
  const start = startSha ?? (empty || startBranch === undefined ? null : await findCommit(repoPath, before.get(`${BRANCH_PREFIX}${startBranch}`)!));
  if (start) await checkLastCommits(repoPath, start, input);
  const changes = planActions(start ? await filesOf(repoPath, start.id) : new Map(), input.actions);

  const committer = await userIdentity(deps, user);
  const id = await writeCommit(repoPath, {
    parent: start ? { id: start.id, tree: start.tree } : null,
    changes,
    message: input.message,
    author: authorOf(committer, { name: input.authorName, email: input.authorEmail }),
    committer,
    time: Math.floor(deps.clock.now() / 1000),
  });
  await writeRef(deps, { project, user, repoPath, before, ref: `${BRANCH_PREFIX}${input.branch}`, newId: id, conflictMessage: COMMIT_MESSAGES.concurrent(input.branch) });
  return (await readCommits(repoPath, [id])).get(id)!;
}
