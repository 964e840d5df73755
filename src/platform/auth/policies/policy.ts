// The one place that answers "can this user do this ability on this subject?" for projects, groups
// and the instance. Rules are the tables in abilities.ts; this file only reads them.
import type { AuthUser } from '../principal.js';
import { ForbiddenError } from '../../errors.js';
import { ACCESS } from '../access-levels.js';
import { parseStored } from '../../db/stored-json.js';
import { GROUP_ABILITIES, PROJECT_ABILITIES, type AbilityRule, type GroupAbility, type InstanceAbility, type ProjectAbility, type ProjectFeature } from './abilities.js';

/** What a decision on a project or group depends on: the user, their level there, the visibility. */
export interface PolicySubject {
  user: AuthUser | null;
  /** Highest membership level (direct, inherited, personal namespace owner); admins count as owners. */
  level: number;
  visibility: string;
  /**
   * A project's feature access levels (a project row has them), or a group's (its row's stored
   * settings: wiki_access_level); a subject without them has every feature enabled.
   */
  features?: ProjectFeatureLevels;
  /**
   * A group's: the user reads a project in the group or below it (GitLab's has_projects), which lets
   * them hold the abilities marked `projectReaders` without a role. Looked up only where nothing else
   * lets them read the group (accounts' findGroup).
   */
  readsProjectBelow?: boolean;
}

export interface ProjectFeatureLevels {
  issues_access_level?: string;
  repository_access_level?: string;
  merge_requests_access_level?: string;
  forking_access_level?: string;
  snippets_access_level?: string;
  wiki_access_level?: string;
  builds_access_level?: string;
  /**
   * The project row's stored settings JSON (accounts' settings-tables.ts), where the levels without a
   * column of their own live (forking_access_level, snippets_access_level, builds_access_level) and
   * public_jobs: read here, so that every
   * subject built from a project row — routes, pages, navigation, git — decides alike.
   */
  settings?: string | null;
}

const storedLevels = new WeakMap<ProjectFeatureLevels, { json: string | null | undefined; stored: Record<string, unknown> }>();

/** The subject's stored settings, parsed once per row object (a request asks many abilities of one project). */
function storedSettings(features: ProjectFeatureLevels): Record<string, unknown> {
  if (features.settings === undefined || features.settings === null) return {};
  let cached = storedLevels.get(features);
  if (!cached || cached.json !== features.settings) storedLevels.set(features, (cached = { json: features.settings, stored: parseStored(features.settings) }));
  return cached.stored;
}

/** A feature's level: its own field, else the stored settings, else `enabled` (GitLab's default). */
export function featureLevel(features: ProjectFeatureLevels | undefined, feature: ProjectFeature): string {
  if (!features) return 'enabled';
  const key = `${feature}_access_level` as const;
  const own = features[key];
  if (typeof own === 'string') return own;
  const stored = storedSettings(features)[key];
  return typeof stored === 'string' ? stored : 'enabled';
}

/** The project's public_jobs, on unless stored off (GitLab's default, as the settings table's). */
function publicJobs(features: ProjectFeatureLevels | undefined): boolean {
  return !features || storedSettings(features).public_jobs !== false;
}

export function allowedBy(rule: AbilityRule, subject: PolicySubject): boolean {
  const { user } = subject;
  if (user && user.state !== 'active') return false;
  if (user?.admin && rule.admin !== false) return true;
  if (rule.min !== null && subject.level >= rule.min) return true;
  if (rule.projectReaders && subject.readsProjectBelow && user) return true;
  if (subject.visibility === 'public') return rule.public === 'anyone' || (rule.public === 'signed_in' && user !== null);
  if (subject.visibility === 'internal') return rule.internal === 'signed_in' && user !== null;
  return false;
}

/**
 * GitLab's ProjectFeature#feature_available?: `disabled` for everyone (administrators too), `private`
 * for members — Guests, or Reporters for the repository and merge requests of a private project — and
 * administrators.
 */
function featureAllows(feature: ProjectFeature, subject: PolicySubject): boolean {
  const level = featureLevel(subject.features, feature);
  if (level === 'disabled') return false;
  if (level !== 'private') return true;
  if (subject.user?.admin) return true;
  // ProjectFeature::PRIVATE_FEATURES_MIN_ACCESS_LEVEL_FOR_PRIVATE_PROJECT: only the code waits for Reporters.
  const minimum = feature !== 'issues' && feature !== 'snippets' && feature !== 'wiki' && feature !== 'builds' && subject.visibility === 'private' ? ACCESS.reporter : ACCESS.guest;
  return subject.user !== null && subject.level >= minimum;
}

// Merge requests, forks and CI are of the code: never more open than the repository (ProjectFeature's
// repository_children_level validation keeps their levels at most repository_access_level; GitLab's
// builds_disabled rules go with repository_disabled).
const REPOSITORY_CHILDREN: readonly ProjectFeature[] = ['merge_requests', 'forking', 'builds'];

/**
 * Whether a project feature is there for the caller at all (GitLab's feature_available?, the
 * controllers' check_<feature>_available!), whatever their role lets them do with it.
 */
export function featureAvailable(subject: PolicySubject, feature: ProjectFeature): boolean {
  return featureAllows(feature, subject) && (!REPOSITORY_CHILDREN.includes(feature) || featureAllows('repository', subject));
}

export function canOnProject(subject: PolicySubject, ability: ProjectAbility): boolean {
  const rule: AbilityRule = PROJECT_ABILITIES[ability];
  if (rule.feature && !featureAllows(rule.feature, subject) && !(rule.heldWhileDisabled && featureLevel(subject.features, rule.feature) === 'disabled')) return false;
  if (rule.feature && REPOSITORY_CHILDREN.includes(rule.feature) && !featureAllows('repository', subject)) return false;
  // Without public_jobs, only the roles that hold it count: no reader of a public or internal project.
  if (rule.publicJobs && !publicJobs(subject.features)) return allowedBy({ ...rule, public: undefined, internal: undefined }, subject);
  return allowedBy(rule, subject);
}

export function canOnGroup(subject: PolicySubject, ability: GroupAbility): boolean {
  const rule: AbilityRule = GROUP_ABILITIES[ability];
  if (rule.feature && !featureAllows(rule.feature, subject)) return false;
  return allowedBy(rule, subject);
}

/**
 * Whether the caller already belongs (a direct or inherited member, the owner of a personal
 * namespace, or an administrator): GitLab's `guest | owner | admin | group_member`, who have no
 * access to request.
 */
export function belongsTo(subject: PolicySubject): boolean {
  return subject.level >= ACCESS.guest;
}

export function canOnInstance(user: AuthUser | null, ability: InstanceAbility): boolean {
  if (ability === 'read_instance' || ability === 'read_users_list') return !user || user.state === 'active';
  if (!user || user.state !== 'active') return false;
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
