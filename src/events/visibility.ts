// Which events a viewer may see (gitlab-rest.md §5.3), as SQL applied BEFORE paging so pages are never
// short and X-Total counts only visible events (unlike GitLab, which filters after slicing). The rules
// are the project policy's (platform/auth/policies), asked once per project or per kind of project:
//   - the event's project must be readable (read_events): membership (direct, inherited, personal
//     namespace owner), or a public project, or an internal one for signed-in users;
//   - pushes need download_code (in a private project: Reporter and above);
//   - an event on a confidential issue, or a comment on one, needs read_confidential_issues or
//     authorship of the issue (issue-policy.ts);
//   - administrators see every event of an existing project.
// The viewer's memberships are read once per request (one small query) and inlined as integer
// literals, so the events query is a plain index range scan with cheap per-row checks.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { canOnProject, type PolicySubject } from '../platform/auth/policies/index.js';
import { today } from '../accounts/api.js';

/** Who looks: a signed-in user, or `null` for an anonymous caller. */
export type Viewer = AuthUser | null;

export interface Membership {
  level: number;
  visibility: string;
}

/** What a viewer sees of the events of one project they can read. */
export interface EventAccess {
  /** Pushes (download_code). */
  code: boolean;
  /** Events on confidential issues others opened (read_confidential_issues). */
  confidential: boolean;
}

export function eventAccess(subject: PolicySubject): EventAccess {
  return { code: canOnProject(subject, 'download_code'), confidential: canOnProject(subject, 'read_confidential_issues') };
}

/**
 * The viewer's projects with their highest access level: direct, through any ancestor group, or as the
 * owner of the personal namespace. A few small index lookups rather than one query joining everything,
 * so the plan never scans projects or namespaces.
 */
export async function membershipsOf(executor: Executor, userId: number, nowMs: number): Promise<Map<number, Membership>> {
  const day = today(nowMs);
  // Direct memberships and the personal namespace in one round trip (members_user_source, namespaces_owner);
  // the owner of a personal namespace holds Owner on its projects, as accounts/access.ts counts it.
  const { rows: direct } = await sql<{ source_type: 'Namespace' | 'Project' | 'Personal'; source_id: number; access_level: number }>`
    select source_type, source_id, access_level from members
      where user_id = ${userId} and (expires_at is null or expires_at >= ${day})
    union all
    select 'Personal', id, ${ACCESS.owner} from namespaces where owner_id = ${userId} and kind = 'user'`.execute(executor);
  const namespaceLevels = new Map<number, number>();
  const projectLevels = new Map<number, number>();
  const raise = (map: Map<number, number>, id: number, level: number) => map.set(id, Math.max(map.get(id) ?? 0, level));
  for (const row of direct) raise(row.source_type === 'Project' ? projectLevels : namespaceLevels, Number(row.source_id), Number(row.access_level));
  const groups = direct.filter((row) => row.source_type === 'Namespace');
  if (groups.length) {
    // Group membership is inherited by every descendant group (accounts/access.ts); personal namespaces have none.
    // Typed seeds: PostgreSQL requires the non-recursive term to match namespaces.id (bigint).
    const seeds = sql.join(groups.map((row) => sql`select cast(${sql.lit(Number(row.source_id))} as bigint), cast(${sql.lit(Number(row.access_level))} as integer)`), sql` union all `);
    const { rows } = await sql<{ id: number; level: number }>`
      with recursive tree(id, level) as (
        ${seeds}
        union all
        select n.id, t.level from namespaces n join tree t on n.parent_id = t.id
      ) select id, max(level) as level from tree group by id`.execute(executor);
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

/** Integer ids as SQL literals (our own numbers): no bind-parameter limits, one statement per id set. */
export function idListSql(ids: number[]): RawBuilder<unknown> {
  return sql.join(ids.map((id) => sql.lit(Math.trunc(id))));
}

/** True for an event on (or a comment on) a confidential issue the viewer did not open (any, for anonymous viewers). */
function confidentialSql(viewerId: number | null): RawBuilder<SqlBool> {
  const notMine = viewerId === null ? sql`` : sql` and i.author_id <> ${viewerId}`;
  return sql<SqlBool>`((e.target_type = 'Issue' and exists (
      select 1 from issues i where i.id = e.target_id and i.confidential = 1${notMine}))
    or (e.target_type = 'Note' and exists (
      select 1 from notes n join issues i on n.noteable_type = 'Issue' and i.id = n.noteable_id
      where n.id = e.target_id and i.confidential = 1${notMine})))`;
}

/** The events hidden by `access` from a viewer who can read the project, or `null` when nothing is hidden. */
export function limitedAccessSql(viewerId: number | null, access: EventAccess): RawBuilder<SqlBool> | null {
  if (access.code && access.confidential) return null;
  if (access.confidential) return sql<SqlBool>`e.action <> 'pushed'`;
  if (access.code) return sql<SqlBool>`not ${confidentialSql(viewerId)}`;
  return sql<SqlBool>`(e.action <> 'pushed' and not ${confidentialSql(viewerId)})`;
}

/** The viewer's member projects, by what they may see there. Plain arrays: part of the count cache's key. */
export interface MemberGroups {
  all: number[];
  /** Projects where every event is visible. */
  full: number[];
  /** Projects where some are hidden, by what is hidden. */
  limited: Array<{ access: EventAccess; ids: number[] }>;
}

export function groupMemberships(viewer: Viewer, memberships: Map<number, Membership>): MemberGroups {
  const groups: MemberGroups = { all: [], full: [], limited: [] };
  for (const [id, membership] of memberships) {
    groups.all.push(id);
    const access = eventAccess({ user: viewer, level: membership.level, visibility: membership.visibility });
    if (access.code && access.confidential) {
      groups.full.push(id);
      continue;
    }
    let entry = groups.limited.find((group) => group.access.code === access.code && group.access.confidential === access.confidential);
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

/** Events of the viewer's member projects that the viewer may see (per access level). */
export function memberEventsSql(viewer: Viewer, groups: MemberGroups): Expression<SqlBool> {
  const parts: RawBuilder<unknown>[] = [];
  if (groups.full.length) parts.push(sql`e.project_id in (${idListSql(groups.full)})`);
  for (const { access, ids } of groups.limited) parts.push(sql`(e.project_id in (${idListSql(ids)}) and ${limitedAccessSql(viewer?.id ?? null, access)})`);
  if (parts.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** The projects a viewer reads without being a member, by visibility, with what they see there. */
function openProjects(viewer: Viewer): Array<{ visibilities: string[]; access: EventAccess }> {
  const open: Array<{ visibilities: string[]; access: EventAccess }> = [];
  for (const visibility of ['public', 'internal']) {
    const nonMember: PolicySubject = { user: viewer, level: ACCESS.none, visibility };
    if (!canOnProject(nonMember, 'read_events')) continue;
    const access = eventAccess(nonMember);
    const same = open.find((entry) => entry.access.code === access.code && entry.access.confidential === access.confidential);
    if (same) same.visibilities.push(visibility);
    else open.push({ visibilities: [visibility], access });
  }
  return open;
}

/** Any event the viewer may see: member projects per level, other public and internal projects as a non-member. */
export function visibleEventSql(viewer: Viewer, groups: MemberGroups | null): Expression<SqlBool> {
  if (viewer?.admin || groups === null) return sql<SqlBool>`exists (select 1 from projects p where p.id = e.project_id)`;
  const nonMember = groups.all.length ? sql`e.project_id not in (${idListSql(groups.all)}) and ` : sql``;
  const open = openProjects(viewer).map(({ visibilities, access }) => {
    const hidden = limitedAccessSql(viewer?.id ?? null, access);
    const readable = sql`exists (select 1 from projects p where p.id = e.project_id and p.visibility in (${sql.join(visibilities.map((visibility) => sql.lit(visibility)))}))`;
    return hidden ? sql`(${nonMember}${readable}\n    and ${hidden})` : sql`(${nonMember}${readable})`;
  });
  const parts = [...(groups.all.length ? [memberEventsSql(viewer, groups)] : []), ...open];
  if (parts.length === 0) return sql<SqlBool>`1 = 0`;
  return parts.length === 1 ? sql<SqlBool>`${parts[0]}` : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}
