// Who may merge into a branch (GitLab's MergeRequest#can_be_merged_by?, UserAccess#can_update_branch?:
// push or merge there): on a protected branch, one of its rules' push or merge access levels;
// elsewhere, whoever may push code to the project.
// Merge requests ask it for `user.can_merge` and before every merge.
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { allowsAnyProtectedRef, canOnProject } from '../../platform/auth/policies/index.js';
import { projectAccess } from '../../accounts/api.js';
import { projectRules, rulesMatching } from './finder.js';

export async function canMergeToBranch(deps: Deps, project: ProjectRow, user: AuthUser | null, branch: string): Promise<boolean> {
  if (!user || user.state !== 'active') return false;
  const now = deps.clock.now();
  const [rules, access, membership] = await Promise.all([
    projectRules(deps.db, Number(project.id)),
    projectAccess(deps.readCache, user, project, now),
    // Administrators are not members: on a protected branch their role is their membership alone.
    projectAccess(deps.readCache, { ...user, admin: false }, project, now),
  ]);
  const subject = { user, level: access.level, visibility: project.visibility, features: project };
  if (!canOnProject(subject, 'download_code')) return false;
  const matching = rulesMatching(rules, branch);
  if (matching.length === 0) return canOnProject(subject, 'push_code');
  const actor = { user, memberLevel: membership.level };
  return matching.some((rule) => allowsAnyProtectedRef(actor, [...rule.push, ...rule.merge].map((level) => level.access_level)));
}
