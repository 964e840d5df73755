// The rules a pushed branch update must pass, in the order of GitLab's Gitlab::Checks::BranchCheck
// (lib/gitlab/checks/branch_check.rb), with its messages. Kiln has no merge requests and no web
// editor, so "merge" access only chooses which refusal a creation gets. Pure: the facts come in.
import { allowsAnyProtectedRef, createsFirstBranch, type BranchActor } from '../../platform/auth/policies/index.js';
import { rulesMatching, type ProtectedBranchRule } from './finder.js';

export const BRANCH_MESSAGES = {
  deleteDefaultBranch: 'The default branch of a project cannot be deleted.',
  forcePushProtectedBranch: 'You are not allowed to force push code to a protected branch on this project.',
  nonMaintainerDeleteProtectedBranch: 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
  nonWebDeleteProtectedBranch: 'You can only delete protected branches using the web interface.',
  pushProtectedBranch: 'You are not allowed to push code to protected branches on this project.',
  createProtectedBranch: 'You are not allowed to create protected branches on this project.',
  nonWebCreateProtectedBranch: 'You can only create protected branches using the web interface and API.',
  prohibitedHexBranchName: 'You cannot create a branch with a 40-character hexadecimal branch name.',
} as const;

export interface RefUpdate {
  oldId: string;
  newId: string;
  /** The full ref name, `refs/heads/main`. */
  ref: string;
}

export interface BranchCheckFacts {
  defaultBranch: string;
  /** The repository had no branch before this push: every branch counts as protected (default branch protection). */
  emptyRepository: boolean;
  rules: readonly ProtectedBranchRule[];
  actor: BranchActor;
  /** delete_protected_branch on the project: picks the deletion refusal. */
  canDeleteProtected: boolean;
  /** GitLab's empty_project_push_message, for a refused first push. */
  emptyRepositoryMessage: string;
  /** `oldId` is an ancestor of `newId` (git merge-base --is-ancestor); asked only of protected branches. */
  isAncestor(oldId: string, newId: string): Promise<boolean>;
}

const ZERO = /^0+$/;
const HEX_BRANCH = /^[0-9a-fA-F]{40}(-\/|\/|$)/;

/** The refusal of one update, or null when it may go ahead. */
export async function refuseBranchUpdate(update: RefUpdate, facts: BranchCheckFacts): Promise<string | null> {
  if (!update.ref.startsWith('refs/heads/')) return null;
  const branch = update.ref.slice('refs/heads/'.length);
  const creation = ZERO.test(update.oldId);
  const deletion = ZERO.test(update.newId);
  if (deletion && branch === facts.defaultBranch) return BRANCH_MESSAGES.deleteDefaultBranch;
  if (!deletion && HEX_BRANCH.test(branch)) return BRANCH_MESSAGES.prohibitedHexBranchName;

  const rules = rulesMatching(facts.rules, branch);
  if (rules.length === 0 && !facts.emptyRepository) return null;
  const levels = (action: 'push' | 'merge') => rules.flatMap((rule) => rule[action].map((level) => Number(level.access_level)));
  const canPush = allowsAnyProtectedRef(facts.actor, levels('push')) || (facts.emptyRepository && createsFirstBranch(facts.actor));

  // ForcePush.force_push?: an update of an existing branch whose new commit does not descend from the old.
  const forced = !facts.emptyRepository && !creation && !deletion && !(await facts.isAncestor(update.oldId, update.newId));
  if (forced && !rules.some((rule) => Number(rule.branch.allow_force_push) === 1)) return BRANCH_MESSAGES.forcePushProtectedBranch;

  if (facts.emptyRepository) return canPush ? null : facts.emptyRepositoryMessage;
  if (creation) {
    if (canPush) return null;
    return allowsAnyProtectedRef(facts.actor, levels('merge')) ? BRANCH_MESSAGES.nonWebCreateProtectedBranch : BRANCH_MESSAGES.createProtectedBranch;
  }
  if (deletion) return facts.canDeleteProtected ? BRANCH_MESSAGES.nonWebDeleteProtectedBranch : BRANCH_MESSAGES.nonMaintainerDeleteProtectedBranch;
  return canPush ? null : BRANCH_MESSAGES.pushProtectedBranch;
}
