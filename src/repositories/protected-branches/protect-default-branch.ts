// The default branch is protected when a push creates it, as GitLab's default branch protection
// ("fully protected") does (Projects::ProtectDefaultBranchService): Maintainers push and merge, nobody
// force-pushes. A rule that already matches the branch (a wildcard, or one made before the push) is kept.
import type { Deps } from '../../platform/deps.js';
import { ConflictError } from '../../platform/errors.js';
import { PROTECTED_REF_LEVELS } from '../../platform/auth/policies/index.js';
import { projectRules, rulesMatching } from './finder.js';
import { createProtectedBranch } from './create-protected-branch.js';

export async function protectDefaultBranch(deps: Deps, projectId: number, branch: string): Promise<void> {
  if (rulesMatching(await projectRules(deps.db, projectId), branch).length > 0) return;
  try {
    await createProtectedBranch(deps, {
      projectId,
      name: branch,
      pushAccessLevel: PROTECTED_REF_LEVELS.maintainer,
      mergeAccessLevel: PROTECTED_REF_LEVELS.maintainer,
      allowForcePush: false,
    });
  } catch (error) {
    // A concurrent push or API call protected it first: the branch is protected either way.
    if (!(error instanceof ConflictError)) throw error;
  }
}
