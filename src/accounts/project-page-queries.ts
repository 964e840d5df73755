// GET /projects without filters, the listing every client polls: one statement returns the page as
// the JSON text of GitLab's Project entities, built by the database, with the bounded count.
//
// Why: turning 20 rows of 25 columns into JavaScript objects cost more than finding them (~5 µs a
// row on SQLite), and presenting and serialising them as much again; SQLite's json_object and
// PostgreSQL's row_to_json write the same bytes as JSON.stringify (the same escapes, no spaces, the
// keys in the order given), without objects in between. Both statements must answer exactly what
// projectEntity (entities.ts) would: test/api/projects-page-statement.test.ts compares them on
// both databases, field by field, for rows with every kind of value.
//
// What the statements rely on: `topics` holds JSON.stringify of an array of strings (update-project.ts
// writes it so); avatar file names are made of URL-safe characters (store-avatar.ts), so they need no
// encoding; timestamps are epoch milliseconds after 1970.
import { q, type Statement } from '../platform/db/statements.js';
import type { EntityUrls } from './entities.js';

/** Who is asking, as the statements filter: visibilities besides `public`, and the member to match. */
export interface PageViewer {
  /** 0 for callers whose memberships do not widen what they see (anonymous callers, administrators). */
  userId: number;
  /** Two more visibilities seen whatever the memberships: `public` again for anonymous callers, `internal` for users, `internal` and `private` for administrators. */
  visibilities: [string, string];
  /** The day memberships expire by (access.ts `today`). */
  today: string;
}

/** Counting stops here plus one (pagination.ts COUNT_LIMIT): bound as `? + 0` for the reason pagination-queries.ts gives. */
export interface PageWindow {
  perPage: number;
  offset: number;
  countLimit: number;
}

/**
 * The projects the viewer can see and the page of them, as both databases' statements start:
 * visibleProjectsQuery's condition (finders.ts) written once. The statement goes on after `page`.
 */
function visiblePage(viewer: PageViewer, window: PageWindow): Statement {
  return q`
    with recursive member_namespaces(id) as (
      select source_id from members
        where source_type = 'Namespace' and user_id = ${viewer.userId} and (expires_at is null or expires_at >= ${viewer.today})
      union
      select id from namespaces where kind = 'user' and owner_id = ${viewer.userId}
      union
      select n.id from namespaces n join member_namespaces m on n.parent_id = m.id
    ),
    -- Materialised: the count and the page both read it (SQLite otherwise finds the projects twice).
    visible(id) as materialized (
      select id from projects where visibility in ('public', ${viewer.visibilities[0]}, ${viewer.visibilities[1]}) or id in (
        select id from projects where namespace_id in (select id from member_namespaces)
        union
        select source_id from members
          where source_type = 'Project' and user_id = ${viewer.userId} and (expires_at is null or expires_at >= ${viewer.today}))
    ),
    page(id) as (select id from visible order by id desc limit ${window.perPage} + 0 offset ${window.offset})
`;
}

// Statements are keyed by their template object (statements.ts): each joined pair is made once.
const joinedTemplates = new WeakMap<TemplateStringsArray, WeakMap<TemplateStringsArray, TemplateStringsArray>>();

/** `first` then `second` as one statement (their texts meet where one ends and the other starts). */
function joined(first: Statement, second: Statement): Statement {
  let bySecond = joinedTemplates.get(first.strings);
  if (bySecond === undefined) joinedTemplates.set(first.strings, (bySecond = new WeakMap()));
  let strings = bySecond.get(second.strings);
  if (strings === undefined) {
    const parts = [...first.strings.slice(0, -1), `${first.strings[first.strings.length - 1]}${second.strings[0]}`, ...second.strings.slice(1)];
    strings = Object.freeze(Object.assign(parts, { raw: parts })) as unknown as TemplateStringsArray;
    bySecond.set(second.strings, strings);
  }
  return { strings, values: [...first.values, ...second.values] };
}

export function visibleProjectsPageSqlite(viewer: PageViewer, urls: EntityUrls, window: PageWindow): Statement {
  return joined(
    visiblePage(viewer, window),
    q`
    select
      (select count(*) from (select 1 from visible limit ${window.countLimit} + 0) as counted) as total,
      (select '[' || group_concat(entity, ',' order by id desc) || ']' from (
        select p.id as id, json_object(
          'id', p.id,
          'description', p.description,
          'name', p.name,
          'name_with_namespace', (case when instr(ns.full_path, '/') > 0 then replace(ns.full_path, '/', ' / ') else ns.name end) || ' / ' || p.name,
          'path', p.path,
          'path_with_namespace', p.full_path,
          'created_at', date(p.created_at / 1000, 'unixepoch') || 'T' || time(p.created_at / 1000, 'unixepoch') || '.' || substr(1000 + p.created_at % 1000, 2) || 'Z',
          'default_branch', p.default_branch,
          'tag_list', case when json_valid(p.topics) and json_type(p.topics) = 'array' then json(p.topics) else json('[]') end,
          'topics', case when json_valid(p.topics) and json_type(p.topics) = 'array' then json(p.topics) else json('[]') end,
          'ssh_url_to_repo', ${urls.ssh} || p.full_path || '.git',
          'http_url_to_repo', ${urls.web} || p.full_path || '.git',
          'web_url', ${urls.web} || p.full_path,
          'readme_url', null,
          'avatar_url', ${urls.web} || 'uploads/-/system/project/avatar/' || p.id || '/' || p.avatar,
          'forks_count', 0,
          'star_count', p.star_count,
          'last_activity_at', date(p.last_activity_at / 1000, 'unixepoch') || 'T' || time(p.last_activity_at / 1000, 'unixepoch') || '.' || substr(1000 + p.last_activity_at % 1000, 2) || 'Z',
          'namespace', json_object(
            'id', ns.id,
            'name', ns.name,
            'path', ns.path,
            'kind', ns.kind,
            'full_path', ns.full_path,
            'parent_id', ns.parent_id,
            'avatar_url', case when ns.kind = 'group' then ${urls.web} || 'uploads/-/system/group/avatar/' || ns.id || '/' || ns.avatar end,
            'web_url', case when ns.kind = 'group' then ${urls.web} || 'groups/' || ns.full_path else ${urls.web} || ns.full_path end),
          'visibility', p.visibility,
          'creator_id', p.creator_id,
          'issues_enabled', json(case when p.issues_access_level = 'disabled' then 'false' else 'true' end),
          'issues_access_level', p.issues_access_level,
          'repository_access_level', p.repository_access_level,
          'archived', json('false'),
          '_links', json_object(
            'self', ${urls.api} || p.id,
            'issues', ${urls.api} || p.id || '/issues',
            'members', ${urls.api} || p.id || '/members',
            'events', ${urls.api} || p.id || '/events')) as entity
        from page join projects p on p.id = page.id join namespaces ns on ns.id = p.namespace_id)) as body`);
}

export function visibleProjectsPagePostgres(viewer: PageViewer, urls: EntityUrls, window: PageWindow): Statement {
  return joined(
    visiblePage(viewer, window),
    q`
    select
      (select count(*) from (select 1 from visible limit ${window.countLimit} + 0) as counted) as total,
      (select '[' || string_agg(row_to_json(entity)::text, ',' order by entity.id desc) || ']' from (
        select
          p.id as id,
          p.description as description,
          p.name as name,
          (case when strpos(ns.full_path, '/') > 0 then replace(ns.full_path, '/', ' / ') else ns.name end) || ' / ' || p.name as name_with_namespace,
          p.path as path,
          p.full_path as path_with_namespace,
          to_char(to_timestamp(p.created_at / 1000) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.') || lpad((p.created_at % 1000)::text, 3, '0') || 'Z' as created_at,
          p.default_branch as default_branch,
          topics.list as tag_list,
          topics.list as topics,
          ${urls.ssh}::text || p.full_path || '.git' as ssh_url_to_repo,
          ${urls.web}::text || p.full_path || '.git' as http_url_to_repo,
          ${urls.web}::text || p.full_path as web_url,
          null::text as readme_url,
          ${urls.web}::text || 'uploads/-/system/project/avatar/' || p.id || '/' || p.avatar as avatar_url,
          0 as forks_count,
          p.star_count as star_count,
          to_char(to_timestamp(p.last_activity_at / 1000) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.') || lpad((p.last_activity_at % 1000)::text, 3, '0') || 'Z' as last_activity_at,
          (select row_to_json(n) from (select
            ns.id as id,
            ns.name as name,
            ns.path as path,
            ns.kind as kind,
            ns.full_path as full_path,
            ns.parent_id as parent_id,
            case when ns.kind = 'group' then ${urls.web}::text || 'uploads/-/system/group/avatar/' || ns.id || '/' || ns.avatar end as avatar_url,
            case when ns.kind = 'group' then ${urls.web}::text || 'groups/' || ns.full_path else ${urls.web}::text || ns.full_path end as web_url) as n) as namespace,
          p.visibility as visibility,
          p.creator_id as creator_id,
          p.issues_access_level <> 'disabled' as issues_enabled,
          p.issues_access_level as issues_access_level,
          p.repository_access_level as repository_access_level,
          false as archived,
          (select row_to_json(l) from (select
            ${urls.api}::text || p.id as self,
            ${urls.api}::text || p.id || '/issues' as issues,
            ${urls.api}::text || p.id || '/members' as members,
            ${urls.api}::text || p.id || '/events' as events) as l) as _links
        from page join projects p on p.id = page.id join namespaces ns on ns.id = p.namespace_id
          cross join lateral (select case when left(ltrim(p.topics), 1) = '[' then p.topics::json else '[]'::json end as list) as topics
      ) as entity) as body`);
}
