// Every ref the API moves goes through here, as a push would: the protected branch and tag rules of a push
// made from GitLab's web interface and API (branch_check.rb, `updated_from_web?`), then a
// compare-and-swap of the ref (`git update-ref <ref> <new> <old>`), so a write that raced another
// fails instead of losing it, then the push events and, for a first default branch, its protection.
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { gitCall } from '../git.js';
import { recordPushEvents } from '../record-push-events.js';
import { repositoryHooks } from '../hooks.js';
import { checkPush } from '../protected-branches/check-push.js';
import { BRANCH_MESSAGES } from '../protected-branches/branch-check.js';
import { projectRules, rulesMatching } from '../protected-branches/finder.js';
import { protectDefaultBranch } from '../protected-branches/protect-default-branch.js';
import { RepositoryApiError } from './errors.js';
import { refsContaining } from './git-reads.js';
import { BRANCH_PREFIX, ZERO_OID } from './ref-names.js';
import { isEmptyRepository } from './project-repository.js';

export const INVALID_COMMIT_CREATE_PROTECTED_BRANCH = 'You can only use an existing protected branch ref as the basis of a new protected branch.';

export interface RefWrite {
  project: ProjectRow;
  user: AuthUser;
  repoPath: string;
  /** Every ref before the write: `oldId` must be what it says for `ref`, and the events need the rest. */
  before: Map<string, string>;
  ref: string;
  /** ZERO_OID to delete. */
  newId: string;
  /** The refusal when the ref moved since `before` was read. */
  conflictMessage: string;
}

/** safe_commit_for_new_protected_branch?: the new branch starts from a commit some protected branch has. */
async function inProtectedBranch(deps: Deps, write: RefWrite): Promise<boolean> {
  const rules = await projectRules(deps.db, Number(write.project.id));
  const branches = await refsContaining(write.repoPath, write.newId, [BRANCH_PREFIX]);
  return branches.some((ref) => rulesMatching(rules, ref.slice(BRANCH_PREFIX.length)).length > 0);
}

/** The refusal of a push for this update, as the web interface and API get it, or null. */
async function refuse(deps: Deps, write: RefWrite, oldId: string): Promise<string | null> {
  const push = { project: write.project, user: write.user, repoPath: write.repoPath, emptyRepository: isEmptyRepository(write.before), fromWeb: true };
  const noQuarantine = { objectDirectory: '', alternateObjectDirectories: '' };
  const updates = [{ oldId, newId: write.newId, ref: write.ref }];
  // Gitaly runs the same hooks for a web or API commit as for a push: its new objects' LFS pointers too.
  const refusal = (await checkPush(deps, push, noQuarantine, updates)) ?? (await repositoryHooks(deps).checkPushedObjects?.(write.project, write.repoPath, noQuarantine, updates)) ?? null;
  // Deleting a protected branch and creating one from a protected commit are what "from the web" allows.
  if (refusal === BRANCH_MESSAGES.nonWebDeleteProtectedBranch) return null;
  if (refusal === BRANCH_MESSAGES.nonWebCreateProtectedBranch) return (await inProtectedBranch(deps, write)) ? null : INVALID_COMMIT_CREATE_PROTECTED_BRANCH;
  return refusal;
}

export async function writeRef(deps: Deps, write: RefWrite): Promise<void> {
  const oldId = write.before.get(write.ref) ?? ZERO_OID;
  const refusal = await refuse(deps, write, oldId);
  if (refusal !== null) throw new RepositoryApiError(refusal.replace(/^\n+/, ''));
  const deleting = write.newId === ZERO_OID;
  const args = deleting ? ['update-ref', '-d', write.ref, oldId] : ['update-ref', write.ref, write.newId, oldId];
  const outcome = await gitCall(write.repoPath, args);
  if (outcome.code !== 0) throw new RepositoryApiError(write.conflictMessage);

  // Only this ref changed as far as this write knows: events of other writes are theirs to record.
  const after = new Map(write.before);
  if (deleting) after.delete(write.ref);
  else after.set(write.ref, write.newId);
  try {
    await recordPushEvents(deps, { projectId: Number(write.project.id), authorId: write.user.id, repoPath: write.repoPath, before: write.before, after });
    const head = `${BRANCH_PREFIX}${write.project.default_branch}`;
    if (write.ref === head && !write.before.has(head) && !deleting) await protectDefaultBranch(deps, Number(write.project.id), write.project.default_branch);
  } catch (error) {
    // The ref has moved: the write happened, and what follows it must not turn it into an error.
    deps.log.error({ err: error, project_id: write.project.id, ref: write.ref }, 'recording an API push failed');
  }
}
