// Member management as GitLab does it (members/*_service.rb, GroupMemberPolicy, ProjectMemberPolicy):
// managers add, change and remove members below Owner; only Owners touch Owner; nobody grants more
// than they hold or raises their own level; a group's last Owner stays; members may leave.
import { ACCESS } from '../access-levels.js';
import { ForbiddenError, ValidationError } from '../../errors.js';
import { allowedBy, type PolicySubject } from './policy.js';
import { isBlockedState } from '../principal.js';
import { GROUP_ABILITIES, PROJECT_ABILITIES } from './abilities.js';

/**
 * The role a group keeps at least one holder of. The member actions count its holders in SQL,
 * inside the write's transaction, so that two concurrent demotions cannot both pass.
 */
export const LAST_OWNER_LEVEL = ACCESS.owner;

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
  /**
   * Owners of the group, direct or inherited from its ancestors, other than the target's own
   * membership here (for the last-Owner rule); ignored for projects.
   */
  otherOwners: number;
}

/** Throws 403 when the change is not allowed; returns quietly when it is. */
export function authorizeMemberChange(change: MemberChange): void {
  const { actor, targetUserId, currentLevel, newLevel } = change;
  const user = actor.user;
  if (!user || isBlockedState(user.state)) throw new ForbiddenError();
  const leaving = user.id === targetUserId && newLevel === null;
  // Anyone may leave; everything else needs the manage ability (GitLab: admin_*_member).
  if (!leaving && !canManageMembers(actor, change.source)) throw new ForbiddenError();
  const lastOwner = change.source === 'group' && currentLevel === ACCESS.owner && change.otherOwners === 0;
  if (lastOwner && (newLevel === null || newLevel < ACCESS.owner)) {
    throw new ForbiddenError('A group must keep at least one Owner: the last Owner cannot be removed or demoted');
  }
  if (leaving || user.admin) return;
  if (user.id === targetUserId && currentLevel !== null && newLevel !== null && newLevel > currentLevel) {
    throw new ForbiddenError('You cannot raise your own access level');
  }
  const touchesOwner = currentLevel === ACCESS.owner || newLevel === ACCESS.owner;
  if (touchesOwner && actor.level < ACCESS.owner) throw new ForbiddenError('Only an Owner can add, change or remove an Owner');
  if (newLevel !== null && newLevel > actor.level) throw new ForbiddenError("The member access level can't be higher than your own");
  if (currentLevel !== null && currentLevel > actor.level) throw new ForbiddenError();
}

/** Whether the caller may manage members at all (shows the members form on pages). */
export function canManageMembers(actor: PolicySubject, source: 'group' | 'project'): boolean {
  return allowedBy(source === 'group' ? GROUP_ABILITIES.admin_group_member : PROJECT_ABILITIES.admin_project_member, actor);
}

const ROLE_NAMES: Record<number, string> = {
  [ACCESS.guest]: 'Guest',
  [ACCESS.reporter]: 'Reporter',
  [ACCESS.developer]: 'Developer',
  [ACCESS.maintainer]: 'Maintainer',
  [ACCESS.owner]: 'Owner',
};

/** The target's highest membership of an ancestor group, with that group's name. */
export interface InheritedMembership {
  level: number;
  groupName: string;
}

/**
 * A direct membership below one inherited from an ancestor group is refused with GitLab's 400
 * (Member#higher_access_level_than_group).
 */
export function validateAgainstInherited(newLevel: number, inherited: InheritedMembership | null): void {
  if (!inherited || inherited.level <= newLevel) return;
  const role = ROLE_NAMES[inherited.level] ?? String(inherited.level);
  throw new ValidationError({ access_level: [`should be greater than or equal to ${role} inherited membership from group ${inherited.groupName}`] });
}

/** Nobody grants a role above their own (a project or group access token's role too); administrators any. */
export function mayGrantLevel(actor: PolicySubject, level: number): boolean {
  return actor.user?.admin === true || actor.level >= level;
}
