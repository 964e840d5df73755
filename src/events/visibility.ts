// Which events a viewer may see (GitLab's REST API documentation), as SQL applied BEFORE paging so pages are never
// short and X-Total counts only visible events (unlike GitLab, which filters after slicing). The rules
// are the project policy's (platform/auth/policies), asked once per project or per kind of project:
//   - the event's project must be readable (read_events): membership (direct, inherited, personal
//     namespace owner), or a public project, or an internal one for signed-in users;
//   - pushes need download_code (in a private project: Reporter and above);
//   - an event on a confidential issue, or a comment on one, needs read_confidential_issues or
//     authorship of the issue (issue-policy.ts);
//   - a wiki page's event needs read_wiki, within the wiki's own access level (visibility-queries.ts);
//   - administrators see every event of an existing project.
// The viewer's memberships are read once per request (one small query) and inlined as integer
// literals, so the events query is a plain index range scan with cheap per-row checks.
import type { Expression, RawBuilder, SqlBool } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { canOnProject, type PolicySubject } from '../platform/auth/policies/index.js';
import { descendantGroupLevelsSql, directMembershipsSql } from '../platform/auth/membership-queries.js';
import {
  anyProjectEvent, limitedAccessSql, visibleEventsSql,
  type EventAccess, type MemberGroups, type OpenProjects,
} from './visibility-queries.js';

export type { EventAccess, MemberGroups };

/** Who looks: a signed-in user, or `null` for an anonymous caller. */
export type Viewer = AuthUser | null;

export interface Membership {
  level: number;
  visibility: string;
}

export function eventAccess(subject: PolicySubject): EventAccess {
  return { code: canOnProject(subject, 'download_code'), confidential: canOnProject(subject, 'read_confidential_issues'), wiki: canOnProject(subject, 'read_wiki') };
}

/**
 * The viewer's projects with their highest access level: direct, through any ancestor group, or as the
 * owner of the personal namespace. A few small index lookups rather than one query joining everything,
 * so the plan never scans projects or namespaces.
 */
export async function membershipsOf(executor: Executor, userId: number, nowMs: number): Promise<Map<number, Membership>> {
  // Direct memberships and the personal namespace in one round trip; the owner of a personal namespace
  // holds Owner on its projects (platform/auth/membership-queries.ts).
  const { rows: direct } = await directMembershipsSql(userId, nowMs).execute(executor);
  const namespaceLevels = new Map<number, number>();
  const projectLevels = new Map<number, number>();
  const raise = (map: Map<number, number>, id: number, level: number) => map.set(id, Math.max(map.get(id) ?? 0, level));
  for (const row of direct) raise(row.source_type === 'Project' ? projectLevels : namespaceLevels, Number(row.source_id), Number(row.access_level));
  const groups = direct.filter((row) => row.source_type === 'Namespace');
  if (groups.length) {
    // Group membership is inherited by every descendant group (accounts/access.ts); personal namespaces have none.
    const seeds = groups.map((row) => ({ id: Number(row.source_id), level: Number(row.access_level) }));
    const { rows } = await descendantGroupLevelsSql(seeds).execute(executor);
    for (const row of rows) raise(namespaceLevels, Number(row.id), Number(row.level));
  }
  const namespaceIds = [...namespaceLevels.keys()];
  const projectIds = [...projectLevels.keys()];
  if (namespaceIds.length === 0 && projectIds.length === 0) return new Map();
  const projects = await executor
    .selectFrom('projects')
    .select(['id', 'namespace_id', 'visibility'])
    .where((eb) => eb.or([
      ...(namespaceIds.length ? [eb('namespace_id', 'in', namespaceIds)] : []),
      ...(projectIds.length ? [eb('id', 'in', projectIds)] : []),
    ]))
    .execute();
  return new Map(projects.map((project) => [Number(project.id), {
    level: Math.max(namespaceLevels.get(Number(project.namespace_id)) ?? 0, projectLevels.get(Number(project.id)) ?? 0),
    visibility: project.visibility,
  }]));
}

const sameAccess = (a: EventAccess, b: EventAccess) => a.code === b.code && a.confidential === b.confidential && a.wiki === b.wiki;

export function groupMemberships(viewer: Viewer, memberships: Map<number, Membership>): MemberGroups {
  const groups: MemberGroups = { all: [], full: [], limited: [] };
  for (const [id, membership] of memberships) {
    groups.all.push(id);
    const access = eventAccess({ user: viewer, level: membership.level, visibility: membership.visibility });
    if (access.code && access.confidential && access.wiki) {
      groups.full.push(id);
      continue;
    }
    let entry = groups.limited.find((group) => sameAccess(group.access, access));
    if (!entry) groups.limited.push((entry = { access, ids: [] }));
    entry.ids.push(id);
  }
  return groups;
}

/** What the viewer may see of one member project's events: `null` for everything. */
export function memberRestriction(viewer: Viewer, groups: MemberGroups, projectId: number): RawBuilder<SqlBool> | null {
  const entry = groups.limited.find((group) => group.ids.includes(projectId));
  return entry ? limitedAccessSql(viewer?.id ?? null, entry.access) : null;
}

/** The projects a viewer reads without being a member, by visibility, with what they see there. */
function openProjects(viewer: Viewer): OpenProjects[] {
  const open: OpenProjects[] = [];
  for (const visibility of ['public', 'internal']) {
    const nonMember: PolicySubject = { user: viewer, level: ACCESS.none, visibility };
    if (!canOnProject(nonMember, 'read_events')) continue;
    const access = eventAccess(nonMember);
    const same = open.find((entry) => sameAccess(entry.access, access));
    if (same) same.visibilities.push(visibility);
    else open.push({ visibilities: [visibility], access });
  }
  return open;
}

/** Any event the viewer may see: member projects per level, other public and internal projects as a non-member. */
export function visibleEventSql(viewer: Viewer, groups: MemberGroups | null): Expression<SqlBool> {
  if (viewer?.admin || groups === null) return anyProjectEvent();
  return visibleEventsSql(viewer?.id ?? null, groups, openProjects(viewer));
}
