// The SQL of pagination.ts that the query builder cannot write: the bounded count over a subquery,
// and a page size SQLite does not re-prepare the statement for.
import { sql, type CompiledQuery, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';

/**
 * A page size as `? + 0`. SQLite's planner reads the value bound to a bare `LIMIT ?` and marks the
 * statement to be prepared again whenever that parameter is bound, which is every run: a page of
 * projects cost ~80 µs instead of ~29 (docs/performance.md). An expression keeps one statement text
 * for every page size and is planned once. PostgreSQL reads it as the same integer.
 */
export function pageSize(perPage: number): RawBuilder<number> {
  return sql<number>`${perPage} + 0`;
}

/**
 * Counts the rows of `query`, stopping at `limit` + 1 (the subquery is limited, so the count is cheap).
 * The bound is a literal of our own, for the reason `pageSize` gives.
 */
export function boundedCountQuery(db: Kysely<any>, query: SelectQueryBuilder<any, any, any>, limit: number): CompiledQuery<{ n: number }> {
  return sql<{ n: number }>`select count(*) as n from (${limitedRows(query, limit)}) as counted`.compile(db);
}

function limitedRows(query: SelectQueryBuilder<any, any, any>, limit: number) {
  return query.clearOrderBy().clearSelect().select(sql`1`.as('one')).limit(sql.lit(Math.trunc(limit + 1)));
}

/** The column a page reads its rows' bounded count in. */
export const TOTAL_COLUMN = 'kiln_total';

/**
 * `query`'s page with the bounded count as one more column of every row, `TOTAL_COLUMN`: one
 * statement instead of two. The count is a scalar subquery that names no outer column, so both
 * databases run it once per statement (PostgreSQL as an InitPlan), not once per row. `counted` is
 * `query` without its WITH, for a query whose CTE the count reads too (written once, at the head).
 *
 * The first page, which most requests read, has its size and offset as literals. PostgreSQL keeps a
 * named statement's generic plan only when its estimated cost is no worse than the custom plans', and
 * a generic plan reads an unknown LIMIT as a tenth of the rows: the caller's projects by membership
 * (a count and three CTEs) was planned anew on every run, ~1.2 of its ~3.4 ms of backend CPU. With the
 * bounds known it keeps the generic plan after five runs. Later pages keep bound values, so that paging
 * through a listing does not make a statement text per page (prepared-statements.ts names texts).
 */
export function pageWithCountQuery<Row>(query: SelectQueryBuilder<any, any, Row>, perPage: number, offset: number, limit: number, counted: SelectQueryBuilder<any, any, any> = query) {
  const counting = query.select(sql<number>`(select count(*) from (${limitedRows(counted, limit)}) as counted)`.as(TOTAL_COLUMN));
  return offset === 0 ? counting.limit(sql.lit(Math.trunc(perPage))).offset(sql.lit(0)) : counting.limit(pageSize(perPage)).offset(offset);
}

/** How `onePassPageQuery` reads the page's rows again: the table, the alias the query gives it, and its key. */
export interface RowsOf {
  table: string;
  alias: string;
  key: string;
}

/**
 * `query`'s page with the number of its rows (`TOTAL_COLUMN`) in one pass, for a query that has few
 * (a search's matches): its first `limit` + 1 rows in no order are counted by a window over them,
 * sorted by `reorder` (the query's own order, written on the alias) and cut to the page, and the
 * page's rows are read again by their key and sorted the same way. A page and a bounded count read
 * every match twice; this reads them once (on PostgreSQL ~1.2 ms of backend CPU for a thousand
 * matches of a trigram search against ~2.1 ms, and a round trip less). Sorting only the keys and
 * reading the page's rows again costs less than carrying whole rows through the window and the sort.
 * More than `limit` rows mean the page was sorted from a part of them: the caller reads it again.
 */
export function onePassPageQuery(
  db: Kysely<any>,
  query: SelectQueryBuilder<any, any, any>,
  rows: RowsOf,
  reorder: <Q extends SelectQueryBuilder<any, any, any>>(query: Q) => Q,
  perPage: number,
  offset: number,
  limit: number,
): CompiledQuery<any> {
  const { table, alias, key } = rows;
  const matches = query.clearOrderBy().limit(sql.lit(Math.trunc(limit + 1)));
  const page = reorder(db.selectFrom(matches.as(alias)).select([sql.ref(`${alias}.${key}`).as(key), sql<number>`count(*) over ()`.as(TOTAL_COLUMN)]))
    .limit(pageSize(perPage))
    .offset(offset);
  return reorder(db.selectFrom(page.as('kiln_page')).innerJoin(`${table} as ${alias}`, `${alias}.${key}`, `kiln_page.${key}`).selectAll(alias).select(`kiln_page.${TOTAL_COLUMN}`)).compile();
}
