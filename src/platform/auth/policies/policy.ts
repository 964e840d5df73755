// The one place that answers "can this user do this ability on this subject?" for projects, groups
// and the instance. Rules are the tables in abilities.ts; this file only reads them.
import type { AuthUser } from '../principal.js';
import { ForbiddenError } from '../../errors.js';
import { GROUP_ABILITIES, PROJECT_ABILITIES, type AbilityRule, type GroupAbility, type InstanceAbility, type ProjectAbility } from './abilities.js';

/** What a decision on a project or group depends on: the user, their level there, the visibility. */
export interface PolicySubject {
  user: AuthUser | null;
  /** Highest membership level (direct, inherited, personal namespace owner); admins count as owners. */
  level: number;
  visibility: string;
}

export function allowedBy(rule: AbilityRule, subject: PolicySubject): boolean {
  const { user } = subject;
  if (user?.state === 'blocked') return false;
  if (user?.admin && rule.admin !== false) return true;
  if (rule.min !== null && subject.level >= rule.min) return true;
  if (subject.visibility === 'public') return rule.public === 'anyone' || (rule.public === 'signed_in' && user !== null);
  if (subject.visibility === 'internal') return rule.internal === 'signed_in' && user !== null;
  return false;
}

export function canOnProject(subject: PolicySubject, ability: ProjectAbility): boolean {
  return allowedBy(PROJECT_ABILITIES[ability], subject);
}

export function canOnGroup(subject: PolicySubject, ability: GroupAbility): boolean {
  return allowedBy(GROUP_ABILITIES[ability], subject);
}

export function canOnInstance(user: AuthUser | null, ability: InstanceAbility): boolean {
  if (ability === 'read_instance' || ability === 'read_users_list') return user?.state !== 'blocked';
  if (!user || user.state === 'blocked') return false;
  if (ability === 'admin_all_resources') return user.admin;
  return true;
}

/** 403 unless the subject allows the ability (callers have already shown the subject is readable). */
export function authorizeProject(subject: PolicySubject, ability: ProjectAbility): void {
  if (!canOnProject(subject, ability)) throw new ForbiddenError();
}

export function authorizeGroup(subject: PolicySubject, ability: GroupAbility): void {
  if (!canOnGroup(subject, ability)) throw new ForbiddenError();
}
