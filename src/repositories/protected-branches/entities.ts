// The protected branch as GitLab's API presents it (lib/api/entities/protected_branch.rb and
// protected_ref_access.rb; doc/api/protected_branches.md). Kiln grants access by role only, so the
// user, group and deploy key of an access level are always null.
import { PROTECTED_REF_LEVEL_NAMES } from '../../platform/auth/policies/index.js';
import type { AccessLevelRow, ProtectedBranchRule } from './finder.js';

/** One access level of a protected branch or tag (ProtectedRefAccess). */
export function accessLevelEntity(level: Pick<AccessLevelRow, 'id' | 'access_level'>) {
  const accessLevel = Number(level.access_level);
  return {
    id: Number(level.id),
    access_level: accessLevel,
    access_level_description: PROTECTED_REF_LEVEL_NAMES[accessLevel] ?? String(accessLevel),
    user_id: null,
    group_id: null,
  };
}

export function protectedBranchEntity(rule: ProtectedBranchRule) {
  return {
    id: Number(rule.branch.id),
    name: rule.branch.name,
    push_access_levels: rule.push.map((level) => ({ ...accessLevelEntity(level), deploy_key_id: null })),
    merge_access_levels: rule.merge.map(accessLevelEntity),
    allow_force_push: Number(rule.branch.allow_force_push) === 1,
    code_owner_approval_required: Number(rule.branch.code_owner_approval_required) === 1,
  };
}
