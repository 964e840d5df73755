// Protect a branch or a wildcard (GitLab's ProtectedBranches::CreateService through the API): one rule
// per name and project, with one push and one merge access level.
import type { Deps } from '../../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../../platform/db/database.js';
import { ConflictError } from '../../platform/errors.js';
import { PROTECTED_REF_LEVELS } from '../../platform/auth/policies/index.js';
import { findProtectedBranch, type ProtectedBranchRule } from './finder.js';

export interface NewProtectedBranch {
  projectId: number;
  name: string;
  /** Defaults to Maintainers, as GitLab's API does. */
  pushAccessLevel?: number;
  mergeAccessLevel?: number;
  allowForcePush?: boolean;
  codeOwnerApprovalRequired?: boolean;
}

export function alreadyProtected(name: string): ConflictError {
  return new ConflictError(`Protected branch '${name}' already exists`);
}

export async function createProtectedBranch(deps: Deps, input: NewProtectedBranch): Promise<ProtectedBranchRule> {
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      const branch = await trx
        .insertInto('protected_branches')
        .values({
          project_id: input.projectId,
          name: input.name,
          allow_force_push: input.allowForcePush ? 1 : 0,
          code_owner_approval_required: input.codeOwnerApprovalRequired ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('protected_branch_access_levels')
        .values([
          { protected_branch_id: branch.id, action: 'push', access_level: input.pushAccessLevel ?? PROTECTED_REF_LEVELS.maintainer },
          { protected_branch_id: branch.id, action: 'merge', access_level: input.mergeAccessLevel ?? PROTECTED_REF_LEVELS.maintainer },
        ])
        .execute();
      return findProtectedBranch(trx, input.projectId, input.name);
    });
  } catch (error) {
    // Another request protected the same name first: the unique index decided.
    if (isUniqueViolation(error)) throw alreadyProtected(input.name);
    throw error;
  }
}
