// The bounded count of pagination.ts: a count over a subquery, which the query builder cannot write.
import { sql, type CompiledQuery, type Kysely, type SelectQueryBuilder } from 'kysely';

/** Counts the rows of `query`, stopping at `limit` + 1 (the subquery is limited, so the count is cheap). */
export function boundedCountQuery(db: Kysely<any>, query: SelectQueryBuilder<any, any, any>, limit: number): CompiledQuery<{ n: number }> {
  const limited = query.clearOrderBy().clearSelect().select(sql`1`.as('one')).limit(limit + 1);
  return sql<{ n: number }>`select count(*) as n from (${limited}) as counted`.compile(db);
}
