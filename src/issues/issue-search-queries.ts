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
 */
export async function narrowIssueSearch(deps: Deps, filters: IssueFilters): Promise<IssueFilters> {
  const text = filters.search;
  if (deps.dialect !== 'sqlite' || !text || [...text].length < MIN_INDEXED_LENGTH) return filters;
  // One FTS5 phrase: the text's trigrams in a row, i.e. the text as a substring (case-folded).
  const phrase = `"${text.replace(/"/g, '""')}"`;
  const { rows } = await sql<{ id: number }>`select rowid as id from issues_search where issues_search match ${phrase} limit ${sql.lit(COUNT_LIMIT + 1)}`.execute(deps.db);
  if (rows.length > COUNT_LIMIT) return filters;
  return { ...filters, searchIds: rows.map((row) => Number(row.id)) };
}
