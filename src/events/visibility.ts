// Which events a viewer may see (gitlab-rest.md §5.3), as SQL applied BEFORE paging so pages are never
// short and X-Total counts only visible events (unlike GitLab, which filters after slicing):
//   - the event's project must be readable: membership (direct, inherited, personal namespace owner),
//     or public/internal visibility;
//   - pushes need download_code: in a private project that is Reporter and above;
//   - an event on a confidential issue, or a comment on one, needs Reporter and above or authorship of
//     the issue (GitLab's read_issue);
//   - administrators see every event of an existing project.
// The viewer's memberships are read once per request (one small query) and inlined as integer
// literals, so the events query is a plain index range scan with cheap per-row checks.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import { today } from '../accounts/access.js';
import { ACCESS } from '../platform/auth/access-levels.js';

export interface Viewer {
  id: number;
  admin: boolean;
}

export interface Membership {
  level: number;
  private: boolean;
}

/**
 * The viewer's projects with their highest access level: direct, through any ancestor group, or as the
 * owner of the personal namespace. A few small index lookups rather than one query joining everything,
 * so the plan never scans projects or namespaces.
 */
export async function membershipsOf(executor: Executor, userId: number, nowMs: number): Promise<Map<number, Membership>> {
  const day = today(nowMs);
  // Direct memberships and the personal namespace in one round trip (members_user_source, namespaces_owner).
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
    private: project.visibility === 'private',
  }]));
}

/** Integer ids as SQL literals (our own numbers): no bind-parameter limits, one statement per id set. */
export function idListSql(ids: number[]): RawBuilder<unknown> {
  return sql.join(ids.map((id) => sql.lit(Math.trunc(id))));
}

/** True for an event on (or a comment on) a confidential issue the viewer did not open. */
function confidentialSql(viewerId: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`((e.target_type = 'Issue' and exists (
      select 1 from issues i where i.id = e.target_id and i.confidential = 1 and i.author_id <> ${viewerId}))
    or (e.target_type = 'Note' and exists (
      select 1 from notes n join issues i on n.noteable_type = 'Issue' and i.id = n.noteable_id
      where n.id = e.target_id and i.confidential = 1 and i.author_id <> ${viewerId})))`;
}

/** What a viewer below Reporter may see of a project they can read (`private`: pushes need Reporter there). */
export function limitedAccessSql(viewerId: number, isPrivate: boolean): RawBuilder<SqlBool> {
  return isPrivate ? sql<SqlBool>`(e.action <> 'pushed' and not ${confidentialSql(viewerId)})` : sql<SqlBool>`not ${confidentialSql(viewerId)}`;
}

export interface MemberGroups {
  all: number[];
  full: number[];
  guestPrivate: number[];
  guestOpen: number[];
}

export function groupMemberships(memberships: Map<number, Membership>): MemberGroups {
  const groups: MemberGroups = { all: [], full: [], guestPrivate: [], guestOpen: [] };
  for (const [id, membership] of memberships) {
    groups.all.push(id);
    if (membership.level >= ACCESS.reporter) groups.full.push(id);
    else if (membership.private) groups.guestPrivate.push(id);
    else groups.guestOpen.push(id);
  }
  return groups;
}

/** Events of the viewer's member projects that the viewer may see (per access level). */
export function memberEventsSql(viewerId: number, groups: MemberGroups): Expression<SqlBool> {
  const parts: RawBuilder<unknown>[] = [];
  if (groups.full.length) parts.push(sql`e.project_id in (${idListSql(groups.full)})`);
  if (groups.guestPrivate.length) parts.push(sql`(e.project_id in (${idListSql(groups.guestPrivate)}) and ${limitedAccessSql(viewerId, true)})`);
  if (groups.guestOpen.length) parts.push(sql`(e.project_id in (${idListSql(groups.guestOpen)}) and ${limitedAccessSql(viewerId, false)})`);
  if (parts.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** Any event the viewer may see: member projects per level, other public and internal projects as a non-member. */
export function visibleEventSql(viewer: Viewer, groups: MemberGroups | null): Expression<SqlBool> {
  if (viewer.admin || groups === null) return sql<SqlBool>`exists (select 1 from projects p where p.id = e.project_id)`;
  const nonMember = groups.all.length ? sql`e.project_id not in (${idListSql(groups.all)}) and ` : sql``;
  const open = sql`(${nonMember}exists (select 1 from projects p where p.id = e.project_id and p.visibility in ('public', 'internal'))
    and ${limitedAccessSql(viewer.id, false)})`;
  return groups.all.length ? sql<SqlBool>`(${memberEventsSql(viewer.id, groups)} or ${open})` : sql<SqlBool>`${open}`;
}
