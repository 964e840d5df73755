// GET /projects without filters, the listing every client polls: one statement returns the page as
// JSON text, the projects' stored entities (project_entities and namespace_entities, kept by the
// triggers of project-entity-queries.ts, which says how the pieces join) in the page's order, with
// the bounded count.
//
// Why: turning 20 rows of 25 columns into JavaScript objects cost more than finding them (~5 µs a
// row on SQLite), and presenting and serialising them as much again; building the entities' JSON in
// the statement halved that, and joining stored pieces of them nearly halves the statement again
// (docs/performance.md).
import { q, templateOf, type Statement } from '../platform/db/statements.js';

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
    strings = templateOf([...first.strings.slice(0, -1), `${first.strings[first.strings.length - 1]}${second.strings[0]}`, ...second.strings.slice(1)]);
    bySecond.set(second.strings, strings);
  }
  return { strings, values: [...first.values, ...second.values] };
}

// The entities are concatenated in the order the loops meet them, without the aggregate's ORDER BY:
// it sorted the 20 entities' text (~1.3 KB each) before joining it, ~19 µs of a ~75 µs statement.
// SQLite runs the left side of a CROSS JOIN as the outer loop (its query planner's documented
// override), so the rows arrive in `page`'s order (id descending, which its LIMIT keeps), each with
// its one entity and namespace. test/api/projects-page-statement.test.ts holds the order on every page.
export function visibleProjectsPageSqlite(viewer: PageViewer, window: PageWindow): Statement {
  return joined(
    visiblePage(viewer, window),
    q`
    select
      (select count(*) from (select 1 from visible limit ${window.countLimit} + 0) as counted) as total,
      (select '[' || group_concat(e.head || n.name_prefix || e.middle || n.entity || e.tail, ',') || ']'
        from page cross join project_entities e cross join namespace_entities n
        where e.project_id = page.id and n.namespace_id = e.namespace_id) as body`);
}

export function visibleProjectsPagePostgres(viewer: PageViewer, window: PageWindow): Statement {
  return joined(
    visiblePage(viewer, window),
    q`
    select
      (select count(*) from (select 1 from visible limit ${window.countLimit} + 0) as counted) as total,
      (select '[' || string_agg(e.head || n.name_prefix || e.middle || n.entity || e.tail, ',' order by e.project_id desc) || ']'
        from page join project_entities e on e.project_id = page.id join namespace_entities n on n.namespace_id = e.namespace_id) as body`);
}
