// Who may create a tag (GitLab's UserAccess#can_create_tag?): on a protected tag, one of its rules'
// create access levels; elsewhere, whoever may administer the project's tags (Developers and up).
// CI asks it before a user plays, retries or cancels a job of a tag pipeline.
import type { Deps } from '../../platform/deps.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { allowsAnyProtectedRef, canOnProject } from '../../platform/auth/policies/index.js';
import { projectAccess } from '../../accounts/api.js';
import { projectTagRules, tagRulesMatching } from './tag-finder.js';

export async function canCreateTag(deps: Deps, project: ProjectRow, user: AuthUser | null, tag: string): Promise<boolean> {
  if (!user || user.state !== 'active') return false;
  const now = deps.clock.now();
  const [rules, access, membership] = await Promise.all([
    projectTagRules(deps.db, Number(project.id)),
    projectAccess(deps.reads, user, project, now),
    // Administrators are not members: on a protected tag their role is their membership alone.
    projectAccess(deps.reads, { ...user, admin: false }, project, now),
  ]);
  const matching = tagRulesMatching(rules, tag);
  if (matching.length === 0) return canOnProject({ user, level: access.level, visibility: project.visibility, features: project }, 'admin_tag');
  return allowsAnyProtectedRef({ user, memberLevel: membership.level }, matching.flatMap((rule) => rule.create.map((level) => Number(level.access_level))));
}
