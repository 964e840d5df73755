// The Project entity of the unfiltered listing, stored in pieces beside the rows it shows, and the
// triggers that keep the pieces current (docs/decisions.md, "Stored project entities"). The page
// joins them in this order:
//
//   project head | namespace name_prefix | project middle | namespace entity | project tail
//   {"id":…,"name_with_namespace":"  Group / Sub   / Name",…,"namespace":  {"id":…}  ,"visibility":…}
//
// Each piece is computed from its own row (a trigger's NEW) and nothing else: a transaction that edits
// a project and one that renames its group, running side by side on PostgreSQL, each write what
// their own row says, and the page joins the two latest. Reading the namespace from a project's
// trigger would store a name that a concurrent rename was about to replace.
//
// The pieces join into the bytes projectEntity (entities.ts) serialised by JSON.stringify gives: the
// same escapes, no spaces, the keys in GitLab's order; test/api/projects-page-statement.test.ts
// compares them on both databases, for rows with every kind of value, after renames, moves and
// concurrent writes. They rely on: `topics` holding JSON.stringify of an array of strings
// (update-project.ts writes it so); avatar file names made of URL-safe characters (store-avatar.ts),
// so they need no encoding; timestamps in epoch milliseconds after 1970; and a JSON string's escaping
// being per character, so that an escaped prefix and an escaped name join into the escaped whole.
// The instance's URL prefixes are written into the trigger text as literals (a trigger takes no bound
// values); a start with another base URL installs the triggers again and rebuilds every row.
import { sql, type RawBuilder } from 'kysely';
import type { EntityUrls } from './entities.js';

type Dialect = 'sqlite' | 'postgres';

// Columns the pieces show: an update of any other column (read_only, updated_at…) leaves them alone.
const PROJECT_COLUMNS = sql.raw('namespace_id, name, path, full_path, description, visibility, creator_id, default_branch, topics, issues_access_level, repository_access_level, star_count, avatar, created_at, last_activity_at');
const NAMESPACE_COLUMNS = sql.raw('name, path, full_path, kind, parent_id, avatar');

interface Pieces {
  /** Column expressions over the row `r` (NEW in a trigger, the table's alias in a rebuild). */
  columns(r: RawBuilder<unknown>, urls: EntityUrls): RawBuilder<unknown>;
}

/** A JSON string's escaped characters without its quotes. */
function escaped(dialect: Dialect, text: RawBuilder<unknown>): RawBuilder<unknown> {
  return dialect === 'sqlite' ? sql`substr(json_quote(${text}), 2, length(json_quote(${text})) - 2)` : sql`substr(to_json(${text})::text, 2, length(to_json(${text})::text) - 2)`;
}

const sqliteProject: Pieces = {
  columns(r, urls) {
    const web = sql.lit(urls.web);
    const ssh = sql.lit(urls.ssh);
    const api = sql.lit(urls.api);
    const time = (column: string) => sql`date(${r}.${sql.raw(column)} / 1000, 'unixepoch') || 'T' || time(${r}.${sql.raw(column)} / 1000, 'unixepoch') || '.' || substr(1000 + ${r}.${sql.raw(column)} % 1000, 2) || 'Z'`;
    const topics = sql`case when json_valid(${r}.topics) and json_type(${r}.topics) = 'array' then json(${r}.topics) else json('[]') end`;
    // json_object's last value here is a string or an object, so trimming `}` removes its brace only.
    return sql`
      ${r}.id, ${r}.namespace_id,
      rtrim(json_object('id', ${r}.id, 'description', ${r}.description, 'name', ${r}.name), '}') || ',"name_with_namespace":"',
      ' / ' || ${escaped('sqlite', sql`${r}.name`)} || '",' || ltrim(rtrim(json_object(
        'path', ${r}.path,
        'path_with_namespace', ${r}.full_path,
        'created_at', ${time('created_at')},
        'default_branch', ${r}.default_branch,
        'tag_list', ${topics},
        'topics', ${topics},
        'ssh_url_to_repo', ${ssh} || ${r}.full_path || '.git',
        'http_url_to_repo', ${web} || ${r}.full_path || '.git',
        'web_url', ${web} || ${r}.full_path,
        'readme_url', null,
        'avatar_url', ${web} || 'uploads/-/system/project/avatar/' || ${r}.id || '/' || ${r}.avatar,
        'forks_count', 0,
        'star_count', ${r}.star_count,
        'last_activity_at', ${time('last_activity_at')}), '}'), '{') || ',"namespace":',
      ',' || ltrim(json_object(
        'visibility', ${r}.visibility,
        'creator_id', ${r}.creator_id,
        'issues_enabled', json(case when ${r}.issues_access_level = 'disabled' then 'false' else 'true' end),
        'issues_access_level', ${r}.issues_access_level,
        'repository_access_level', ${r}.repository_access_level,
        'archived', json('false'),
        '_links', json_object(
          'self', ${api} || ${r}.id,
          'issues', ${api} || ${r}.id || '/issues',
          'members', ${api} || ${r}.id || '/members',
          'events', ${api} || ${r}.id || '/events')), '{')`;
  },
};

const postgresProject: Pieces = {
  columns(r, urls) {
    const web = sql`${sql.lit(urls.web)}::text`;
    const ssh = sql`${sql.lit(urls.ssh)}::text`;
    const api = sql`${sql.lit(urls.api)}::text`;
    const time = (column: string) => sql`to_char(to_timestamp(${r}.${sql.raw(column)} / 1000) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.') || lpad((${r}.${sql.raw(column)} % 1000)::text, 3, '0') || 'Z'`;
    const topics = sql`case when left(ltrim(${r}.topics), 1) = '[' then ${r}.topics::json else '[]'::json end`;
    return sql`
      ${r}.id, ${r}.namespace_id,
      rtrim((select row_to_json(h) from (select ${r}.id as id, ${r}.description as description, ${r}.name as name) as h)::text, '}') || ',"name_with_namespace":"',
      ' / ' || ${escaped('postgres', sql`${r}.name`)} || '",' || ltrim(rtrim((select row_to_json(m) from (select
        ${r}.path as path,
        ${r}.full_path as path_with_namespace,
        ${time('created_at')} as created_at,
        ${r}.default_branch as default_branch,
        ${topics} as tag_list,
        ${topics} as topics,
        ${ssh} || ${r}.full_path || '.git' as ssh_url_to_repo,
        ${web} || ${r}.full_path || '.git' as http_url_to_repo,
        ${web} || ${r}.full_path as web_url,
        null::text as readme_url,
        ${web} || 'uploads/-/system/project/avatar/' || ${r}.id || '/' || ${r}.avatar as avatar_url,
        0 as forks_count,
        ${r}.star_count as star_count,
        ${time('last_activity_at')} as last_activity_at) as m)::text, '}'), '{') || ',"namespace":',
      ',' || ltrim((select row_to_json(t) from (select
        ${r}.visibility as visibility,
        ${r}.creator_id as creator_id,
        ${r}.issues_access_level <> 'disabled' as issues_enabled,
        ${r}.issues_access_level as issues_access_level,
        ${r}.repository_access_level as repository_access_level,
        false as archived,
        (select row_to_json(l) from (select
          ${api} || ${r}.id as self,
          ${api} || ${r}.id || '/issues' as issues,
          ${api} || ${r}.id || '/members' as members,
          ${api} || ${r}.id || '/events' as events) as l) as _links) as t)::text, '{')`;
  },
};

function namespaceName(r: RawBuilder<unknown>, dialect: Dialect): RawBuilder<unknown> {
  const hasSlash = dialect === 'sqlite' ? sql`instr(${r}.full_path, '/') > 0` : sql`strpos(${r}.full_path, '/') > 0`;
  return sql`case when ${hasSlash} then replace(${r}.full_path, '/', ' / ') else ${r}.name end`;
}

const sqliteNamespace: Pieces = {
  columns(r, urls) {
    const web = sql.lit(urls.web);
    return sql`${r}.id, ${escaped('sqlite', namespaceName(r, 'sqlite'))}, json_object(
      'id', ${r}.id,
      'name', ${r}.name,
      'path', ${r}.path,
      'kind', ${r}.kind,
      'full_path', ${r}.full_path,
      'parent_id', ${r}.parent_id,
      'avatar_url', case when ${r}.kind = 'group' then ${web} || 'uploads/-/system/group/avatar/' || ${r}.id || '/' || ${r}.avatar end,
      'web_url', case when ${r}.kind = 'group' then ${web} || 'groups/' || ${r}.full_path else ${web} || ${r}.full_path end)`;
  },
};

const postgresNamespace: Pieces = {
  columns(r, urls) {
    const web = sql`${sql.lit(urls.web)}::text`;
    return sql`${r}.id, ${escaped('postgres', namespaceName(r, 'postgres'))}, (select row_to_json(n) from (select
      ${r}.id as id,
      ${r}.name as name,
      ${r}.path as path,
      ${r}.kind as kind,
      ${r}.full_path as full_path,
      ${r}.parent_id as parent_id,
      case when ${r}.kind = 'group' then ${web} || 'uploads/-/system/group/avatar/' || ${r}.id || '/' || ${r}.avatar end as avatar_url,
      case when ${r}.kind = 'group' then ${web} || 'groups/' || ${r}.full_path else ${web} || ${r}.full_path end as web_url) as n)::text`;
  },
};

const PIECES: Record<Dialect, Record<'project' | 'namespace', Pieces>> = {
  sqlite: { project: sqliteProject, namespace: sqliteNamespace },
  postgres: { project: postgresProject, namespace: postgresNamespace },
};

/** Store the pieces of the trigger's NEW row, or with `everyRow` of every row of its table, replacing stored ones. */
function store(dialect: Dialect, kind: 'project' | 'namespace', urls: EntityUrls, everyRow: boolean): RawBuilder<unknown> {
  const pieces = PIECES[dialect][kind];
  const r = everyRow ? sql.raw('r') : sql.raw(dialect === 'sqlite' ? 'new' : 'NEW');
  // SQLite needs the `where` before `on conflict` (it would read `on` as a join constraint).
  const source = everyRow ? sql.raw(kind === 'project' ? 'from projects r where true' : 'from namespaces r where true') : sql.raw(dialect === 'sqlite' ? 'where true' : '');
  return kind === 'project'
    ? sql`insert into project_entities (project_id, namespace_id, head, middle, tail) select ${pieces.columns(r, urls)} ${source}
      on conflict (project_id) do update set namespace_id = excluded.namespace_id, head = excluded.head, middle = excluded.middle, tail = excluded.tail`
    : sql`insert into namespace_entities (namespace_id, name_prefix, entity) select ${pieces.columns(r, urls)} ${source}
      on conflict (namespace_id) do update set name_prefix = excluded.name_prefix, entity = excluded.entity`;
}

export interface ProjectEntityTriggers {
  /** Drops what an earlier install created (none there: nothing happens). */
  drop: RawBuilder<unknown>[];
  /** Creates the triggers (and on PostgreSQL their functions). */
  create: RawBuilder<unknown>[];
  /** Stores every namespace's and project's pieces again. */
  rebuild: RawBuilder<unknown>[];
}

/**
 * The triggers that keep the pieces current: a project or namespace inserted, or updated in a column
 * its pieces show, stores its own. A deleted row's pieces go with it (the foreign keys cascade).
 */
export function projectEntityTriggers(dialect: Dialect, urls: EntityUrls): ProjectEntityTriggers {
  const rebuild = [store(dialect, 'namespace', urls, true), store(dialect, 'project', urls, true)];
  if (dialect === 'sqlite') {
    return {
      drop: ['project_entity_on_insert', 'project_entity_on_update', 'namespace_entity_on_insert', 'namespace_entity_on_update'].map((name) => sql`drop trigger if exists ${sql.raw(name)}`),
      create: [
        sql`create trigger project_entity_on_insert after insert on projects begin ${store(dialect, 'project', urls, false)}; end`,
        sql`create trigger project_entity_on_update after update of ${PROJECT_COLUMNS} on projects begin ${store(dialect, 'project', urls, false)}; end`,
        sql`create trigger namespace_entity_on_insert after insert on namespaces begin ${store(dialect, 'namespace', urls, false)}; end`,
        sql`create trigger namespace_entity_on_update after update of ${NAMESPACE_COLUMNS} on namespaces begin ${store(dialect, 'namespace', urls, false)}; end`,
      ],
      rebuild,
    };
  }
  return {
    drop: [
      sql`drop trigger if exists project_entity on projects`,
      sql`drop trigger if exists namespace_entity on namespaces`,
      sql`drop function if exists kiln_store_project_entity()`,
      sql`drop function if exists kiln_store_namespace_entity()`,
    ],
    create: [
      sql`create function kiln_store_project_entity() returns trigger language plpgsql as $entity$ begin ${store(dialect, 'project', urls, false)}; return null; end $entity$`,
      sql`create function kiln_store_namespace_entity() returns trigger language plpgsql as $entity$ begin ${store(dialect, 'namespace', urls, false)}; return null; end $entity$`,
      sql`create trigger project_entity after insert or update of ${PROJECT_COLUMNS} on projects for each row execute function kiln_store_project_entity()`,
      sql`create trigger namespace_entity after insert or update of ${NAMESPACE_COLUMNS} on namespaces for each row execute function kiln_store_namespace_entity()`,
    ],
    rebuild,
  };
}

/**
 * PostgreSQL: one installer at a time across nodes, released at the transaction's end. (On SQLite
 * every transaction takes the write lock as it begins: platform/db/connection-gate.ts.)
 */
export function lockDerivedDefinitions(): RawBuilder<unknown> {
  return sql`select pg_advisory_xact_lock(74105108, hashtext('derived_definitions'))`;
}
