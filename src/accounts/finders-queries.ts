// The conditions of the accounts listings (finders.ts) that the query builder cannot express.
import { sql } from 'kysely';
import { memberGroupIdsSql, memberProjectIdsSql, ownedGroupIdsSql } from '../platform/auth/membership-queries.js';
import { ACCESS } from '../platform/auth/access-levels.js';

/** A condition no row meets (a listing that is empty for this caller). */
export function noRows() {
  return sql<boolean>`1 = 0`;
}

/**
 * Projects where the user's effective level is at least `level`: as a member (directly, through a
 * group above, or invited through a group) or as the personal owner, who is Owner. At Owner these are
 * GitLab's User#owned_projects (the personal namespace's projects and those of project_authorizations
 * at Owner), which `owned=true` lists.
 */
export function memberProjects(userId: number, nowMs: number, level: number = ACCESS.guest) {
  return sql<boolean>`id in (${memberProjectIdsSql(userId, level, nowMs)})`;
}

/** The body of the CTE `member_projects`: memberProjectIdsSql at any level, parenthesized (the builder writes a raw body bare). */
export function memberProjectsCteBody(userId: number, nowMs: number) {
  return sql<{ id: number }>`(${memberProjectIdsSql(userId, ACCESS.guest, nowMs)})`;
}

/** Projects in the set `member_projects` of the statement's WITH (finders.ts, memberProjectKeysPage). */
export function inMemberProjectsCte() {
  return sql<boolean>`id in (select id from member_projects)`;
}

/** Public and internal projects, and the user's own (GitLab's ProjectsFinder for a signed-in user). */
export function visibleOrMemberProjects(userId: number, nowMs: number) {
  return sql<boolean>`(visibility in ('public', 'internal') or id in (${memberProjectIdsSql(userId, ACCESS.guest, nowMs)}))`;
}

/** Name or full path containing `pattern` (a LIKE pattern escaped with backslashes). */
export function nameOrPathLike(pattern: string) {
  return sql<boolean>`(lower(name) like ${pattern} escape '\\' or full_path_lower like ${pattern} escape '\\')`;
}

/** Groups the user reaches: a live member of it or of a group above it, or invited to it through a share (memberGroupIdsSql). */
export function memberGroupsOnly(userId: number, nowMs: number) {
  return sql<boolean>`id in (${memberGroupIdsSql(userId, nowMs)})`;
}

/** Groups the user is a live direct Owner of (ownedGroupIdsSql): `owned=true` of the group lists. */
export function ownedGroupsOnly(userId: number, nowMs: number) {
  return sql<boolean>`id in (${ownedGroupIdsSql(userId, nowMs)})`;
}

export function visibleOrMemberGroups(userId: number, nowMs: number) {
  return sql<boolean>`(visibility in ('public', 'internal') or id in (${memberGroupIdsSql(userId, nowMs)}))`;
}

/** The version of a project row's namespace (the listing's `projects`), for the kept entity's key. */
export function namespaceVersion() {
  return sql<number>`(select n.version from namespaces n where n.id = projects.namespace_id)`;
}
