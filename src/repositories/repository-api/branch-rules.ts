// What the caller may do on each branch: GitLab's Gitlab::UserAccess#can_push_to_branch? and the
// protected branch facts a Branch entity shows, from the project's rules and the caller's role.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { allowsAnyProtectedRef, canOnProject, createsFirstBranch, PROTECTED_REF_LEVELS, type BranchActor } from '../../platform/auth/policies/index.js';
import { projectAccess } from '../../accounts/api.js';
import { projectRules, rulesMatching, type ProtectedBranchRule } from '../protected-branches/finder.js';

export interface BranchRules {
  rules: ProtectedBranchRule[];
  actor: BranchActor;
  /** push_code on the project: the first condition of pushing anywhere. */
  canPushCode: boolean;
}

/** The rules and the caller's membership role (administrators are not members of protected branches). */
export async function loadBranchRules(deps: Deps, access: ProjectAccess): Promise<BranchRules> {
  const { user, project } = access;
  let memberLevel = access.level;
  if (user?.admin) memberLevel = (await projectAccess(deps.reads, { ...user, admin: false }, project, deps.clock.now())).level;
  return {
    rules: await projectRules(deps.db, Number(project.id)),
    actor: { user, memberLevel: user ? memberLevel : 0 },
    canPushCode: canOnProject(access, 'push_code'),
  };
}

/** ProtectedBranch.protected?: a rule names it, or the repository is empty (default branch protection). */
export function isProtectedBranch(rules: BranchRules, name: string, emptyRepository: boolean): boolean {
  return emptyRepository || rulesMatching(rules.rules, name).length > 0;
}

/** ProtectedBranch.developers_can?: a matching rule lets Developers push (or merge). */
export function developersCan(rules: BranchRules, name: string, action: 'push' | 'merge'): boolean {
  return rulesMatching(rules.rules, name).some((rule) => rule[action].some((level) => Number(level.access_level) === PROTECTED_REF_LEVELS.developer));
}

/** can_push_to_branch?: push_code, and where the branch is protected, one of its push levels. */
export function canPushToBranch(rules: BranchRules, name: string, emptyRepository: boolean): boolean {
  if (!rules.canPushCode) return false;
  if (emptyRepository) return createsFirstBranch(rules.actor);
  const matching = rulesMatching(rules.rules, name);
  if (matching.length === 0) return true;
  return allowsAnyProtectedRef(rules.actor, matching.flatMap((rule) => rule.push.map((level) => Number(level.access_level))));
}

/** can_push_to_branch? for a branch of a repository that has commits, rules read here. */
export async function mayPushToBranch(deps: Deps, access: ProjectAccess, name: string): Promise<boolean> {
  return canPushToBranch(await loadBranchRules(deps, access), name, false);
}
