// Change a protected branch in place (PATCH; GitLab's ProtectedBranches::UpdateService through the
// API): whether force pushes are allowed, and the code owner approval flag.
import type { Deps } from '../../platform/deps.js';
import { findProtectedBranch, type ProtectedBranchRule } from './finder.js';

export interface ProtectedBranchChanges {
  allowForcePush?: boolean;
  codeOwnerApprovalRequired?: boolean;
}

export async function updateProtectedBranch(deps: Deps, projectId: number, name: string, changes: ProtectedBranchChanges): Promise<ProtectedBranchRule> {
  const rule = await findProtectedBranch(deps.db, projectId, name);
  const set: { updated_at: number; allow_force_push?: number; code_owner_approval_required?: number } = { updated_at: deps.clock.now() };
  if (changes.allowForcePush !== undefined) set.allow_force_push = changes.allowForcePush ? 1 : 0;
  if (changes.codeOwnerApprovalRequired !== undefined) set.code_owner_approval_required = changes.codeOwnerApprovalRequired ? 1 : 0;
  await deps.db.updateTable('protected_branches').set(set).where('id', '=', rule.branch.id).where('project_id', '=', projectId).execute();
  return findProtectedBranch(deps.db, projectId, name);
}
