// Member management as GitLab does it (members/*_service.rb, GroupMemberPolicy, ProjectMemberPolicy):
// managers add, change and remove members below Owner; only Owners touch Owner; nobody grants more
// than they hold or raises their own level; a group's last Owner stays; members may leave.
import { ACCESS } from '../access-levels.js';
import { ForbiddenError } from '../../errors.js';
import { allowedBy, type PolicySubject } from './policy.js';
import { GROUP_ABILITIES, PROJECT_ABILITIES } from './abilities.js';

export interface MemberChange {
  /** The caller on the group or project. */
  actor: PolicySubject;
  source: 'group' | 'project';
  /** Whose membership changes. */
  targetUserId: number;
  /** The target's direct level there now; `null` when adding. */
  currentLevel: number | null;
  /** The level asked for; `null` when removing. */
  newLevel: number | null;
  /** Direct Owners of the group (for the last-Owner rule); ignored for projects. */
  ownerCount: number;
}

/** Throws 403 when the change is not allowed; returns quietly when it is. */
export function authorizeMemberChange(change: MemberChange): void {
  const { actor, targetUserId, currentLevel, newLevel } = change;
  const user = actor.user;
  if (!user) throw new ForbiddenError();
  const isSelf = user.id === targetUserId;
  const lastOwner = change.source === 'group' && currentLevel === ACCESS.owner && change.ownerCount <= 1;
  if (lastOwner && (newLevel === null || newLevel < ACCESS.owner)) {
    throw new ForbiddenError('A group must have at least one owner');
  }
  // Leaving is always allowed (but for the last Owner, above).
  if (isSelf && newLevel === null) return;
  const manage = allowedBy(change.source === 'group' ? GROUP_ABILITIES.admin_group_member : PROJECT_ABILITIES.admin_project_member, actor);
  if (!manage) throw new ForbiddenError();
  if (user.admin) return;
  if (isSelf && newLevel !== null && currentLevel !== null && newLevel > currentLevel) throw new ForbiddenError();
  const touchesOwner = currentLevel === ACCESS.owner || newLevel === ACCESS.owner;
  if (touchesOwner && actor.level < ACCESS.owner) throw new ForbiddenError();
  if (newLevel !== null && newLevel > actor.level) throw new ForbiddenError();
  if (currentLevel !== null && currentLevel > actor.level) throw new ForbiddenError();
}

/** Whether the caller may manage members at all (shows the members form on pages). */
export function canManageMembers(actor: PolicySubject, source: 'group' | 'project'): boolean {
  return allowedBy(source === 'group' ? GROUP_ABILITIES.admin_group_member : PROJECT_ABILITIES.admin_project_member, actor);
}
