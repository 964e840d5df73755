// The SQL of event visibility (visibility.ts decides who sees what; this writes it as conditions on
// `events e`) and of the listings (finder.ts). Integer ids and page figures are our own numbers,
// inlined as literals: no bind-parameter limits, one statement per id set, and SQLite plans a bound
// LIMIT inside the per-project subqueries several times slower (measured 55 µs against 175 µs).
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../platform/db/database.js';

/** What a viewer sees of the events of one project they can read. */
export interface EventAccess {
  /** Pushes (download_code). */
  code: boolean;
  /** Events on confidential issues others opened (read_confidential_issues). */
  confidential: boolean;
  /**
   * Wiki page events (read_wiki). Asked of a subject without the project's feature levels it is the
   * role's answer alone; the wiki's own level is then `wikiEventsReadableSql`'s to apply.
   */
  wiki: boolean;
}

/** The viewer's member projects, by what they may see there. Plain arrays: part of the count cache's key. */
export interface MemberGroups {
  all: number[];
  /** Projects where every event is visible. */
  full: number[];
  /** Projects where some are hidden, by what is hidden. */
  limited: Array<{ access: EventAccess; ids: number[] }>;
}

/** Projects a viewer reads without being a member, by visibility, with what they see there. */
export interface OpenProjects {
  visibilities: string[];
  access: EventAccess;
}

/** Integer ids as SQL literals. */
export function idListSql(ids: number[]): RawBuilder<unknown> {
  return sql.join(ids.map((id) => sql.lit(Math.trunc(id))));
}

/** A page size or offset of our own as a literal (see the top of this file). */
export function literal(value: number): RawBuilder<number> {
  return sql.lit(Math.trunc(value));
}

/** A condition no event meets. */
export function noEvents(): RawBuilder<SqlBool> {
  return sql<SqlBool>`1 = 0`;
}

/** Events of these projects. */
export function inProjects(ids: number[]): RawBuilder<SqlBool> {
  return ids.length ? sql<SqlBool>`e.project_id in (${idListSql(ids)})` : noEvents();
}

/**
 * True for an event on (or a comment on) a confidential issue the viewer neither opened nor is assigned
 * to (any, for anonymous viewers): the issue policy lets authors and assignees read it.
 */
function confidentialSql(viewerId: number | null): RawBuilder<SqlBool> {
  const notMine = viewerId === null
    ? sql``
    : sql` and i.author_id <> ${viewerId} and not exists (select 1 from issue_assignees ia where ia.issue_id = i.id and ia.user_id = ${viewerId})`;
  return sql<SqlBool>`((e.target_type = 'Issue' and exists (
      select 1 from issues i where i.id = e.target_id and i.confidential = 1${notMine}))
    or (e.target_type in ('Note', 'DiscussionNote', 'DiffNote') and exists (
      select 1 from notes n join issues i on n.noteable_type = 'Issue' and i.id = n.noteable_id
      where n.id = e.target_id and i.confidential = 1${notMine})))`;
}

/** The events hidden by `access` from a viewer who can read the project, or `null` when nothing is hidden. */
export function limitedAccessSql(viewerId: number | null, access: EventAccess): RawBuilder<SqlBool> | null {
  const hidden: RawBuilder<unknown>[] = [];
  if (!access.code) hidden.push(sql`e.action <> 'pushed'`);
  if (!access.confidential) hidden.push(sql`not ${confidentialSql(viewerId)}`);
  if (!access.wiki) hidden.push(sql`${notWikiEvent}`);
  if (hidden.length === 0) return null;
  return hidden.length === 1 ? sql<SqlBool>`${hidden[0]}` : sql<SqlBool>`(${sql.join(hidden, sql` and `)})`;
}

const notWikiEvent = sql<SqlBool>`coalesce(e.target_type, '') <> 'WikiPage::Meta'`;

/**
 * Wiki page events only where the viewer reads the project's wiki (read_wiki within its
 * wiki_access_level, a stored project setting): a member unless the wiki is disabled, anyone else who
 * reads the project when it is enabled or public.
 */
export function wikiEventsReadableSql(dialect: Dialect, memberIds: number[]): RawBuilder<SqlBool> {
  const level = dialect === 'postgres'
    ? sql`coalesce(cast(p.settings as json) ->> 'wiki_access_level', 'enabled')`
    : sql`coalesce(json_extract(p.settings, '$.wiki_access_level'), 'enabled')`;
  const member = memberIds.length ? sql`(e.project_id in (${idListSql(memberIds)}) and ${level} <> 'disabled') or ` : sql``;
  return sql<SqlBool>`(${notWikiEvent} or exists (select 1 from projects p where p.id = e.project_id and (${member}${level} in ('enabled', 'public'))))`;
}

/** Events of the viewer's member projects that the viewer may see (per access level). */
export function memberEventsSql(viewerId: number | null, groups: MemberGroups): Expression<SqlBool> {
  const parts: RawBuilder<unknown>[] = [];
  if (groups.full.length) parts.push(sql`e.project_id in (${idListSql(groups.full)})`);
  for (const { access, ids } of groups.limited) parts.push(sql`(e.project_id in (${idListSql(ids)}) and ${limitedAccessSql(viewerId, access)})`);
  if (parts.length === 0) return noEvents();
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** Events of any existing project (an administrator's view). */
export function anyProjectEvent(): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from projects p where p.id = e.project_id)`;
}

/** Member projects per level, and other projects of the `open` visibilities as a non-member. */
export function visibleEventsSql(viewerId: number | null, groups: MemberGroups, open: OpenProjects[]): Expression<SqlBool> {
  const nonMember = groups.all.length ? sql`e.project_id not in (${idListSql(groups.all)}) and ` : sql``;
  const openParts = open.map(({ visibilities, access }) => {
    const hidden = limitedAccessSql(viewerId, access);
    const readable = sql`exists (select 1 from projects p where p.id = e.project_id and p.visibility in (${sql.join(visibilities.map((visibility) => sql.lit(visibility)))}))`;
    return hidden ? sql`(${nonMember}${readable}\n    and ${hidden})` : sql`(${nonMember}${readable})`;
  });
  const parts = [...(groups.all.length ? [memberEventsSql(viewerId, groups)] : []), ...openParts];
  if (parts.length === 0) return noEvents();
  return parts.length === 1 ? sql<SqlBool>`${parts[0]}` : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}
