// Which issues can contain a searched text, from the trigram index (migration 20261228T2032-issue-search-
// index), so that `search=` reads those issues instead of every issue in reach. PostgreSQL's pg_trgm index
// serves the listing's LIKE directly; on SQLite the FTS5 table `issues_search` is asked first, here.
import { sql } from 'kysely';
import type { Deps } from '../platform/deps.js';
import { COUNT_LIMIT } from '../platform/http/pagination.js';
import type { IssueFilters } from './issues-queries.js';

/** Trigrams: a shorter text has none to look up. */
const MIN_INDEXED_LENGTH = 3;

/**
 * The filters with `searchIds` set when the index names at most COUNT_LIMIT issues that
 * may contain the text; the listing keeps its LIKE, so the ids only narrow it. A text that more issues
 * contain is matched by the LIKE alone: walking the listing's index in order finds a page of a common
 * text soon, and the count stops at COUNT_LIMIT matches.
 *
 * The ids come back as SQLite's own JSON text, which the listing binds as it is: as rows, a thousand
 * candidates cost ~460 µs to read into objects (and more to write as JSON again) against ~160 µs for the
 * text (docs/performance.md, Growth).
 */
export async function narrowIssueSearch(deps: Deps, filters: IssueFilters): Promise<IssueFilters> {
  const text = filters.search;
  if (deps.dialect !== 'sqlite' || !text || [...text].length < MIN_INDEXED_LENGTH) return filters;
  // One FTS5 phrase: the text's trigrams in a row, i.e. the text as a substring (case-folded).
  const phrase = `"${text.replace(/"/g, '""')}"`;
  const { rows } = await sql<{ n: number; ids: string }>`select count(*) as n, json_group_array(id) as ids
    from (select rowid as id from issues_search where issues_search match ${phrase} limit ${sql.lit(COUNT_LIMIT + 1)})`.execute(deps.db);
  const [{ n, ids }] = rows;
  if (Number(n) > COUNT_LIMIT) return filters;
  return { ...filters, searchIds: ids, searchIdCount: Number(n) };
}
