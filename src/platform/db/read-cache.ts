// The read cache (`deps.readCache`): hot-path reads without the query builder, served from memory
// until the database changes, and whole answers computed from reads (`memo`).
//
// Why: on the API's hot paths (token → user, project → access level) Kysely's per-query work
// (building, compiling, the driver's connection mutex, promises) cost about as much CPU as SQLite
// spends running the statement, and the same few rows are read again on every request
// (docs/performance.md). Statements are written with the `q` tag (statements.ts).
//
// The cache (SQLite only) is correct across processes without knowing which tables a statement
// reads: it is dropped whenever the database may have changed, i.e. when `PRAGMA data_version`
// moves (a commit by any other connection: a `kiln worker`, a second `kiln serve`) or when this
// connection prepared a statement that writes. Cached rows are frozen: callers share them.
import { CompiledQuery, type Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { DB } from './schema.js';
import { postgresText, sqliteText, type Statement } from './statements.js';

export interface ReadOptions {
  /** Serve identical statements from memory until the database changes (SQLite outside transactions). */
  cache?: boolean;
}

/** Reads only: a write goes through the query builder, or `deps.groupCommit` on a hot path. */
export interface ReadCache {
  /** Rows of a read-only statement. Rows may be shared between callers: never mutate them. */
  all<T>(statement: Statement, options?: ReadOptions): Promise<readonly T[]>;
  /** Rows of a read-only query built with Kysely (`builder.compile()`), with the same cache. */
  compiled<T>(query: CompiledQuery<T>, options?: ReadOptions): Promise<readonly T[]>;
  /**
   * A value computed from reads only, remembered under `key` until the database changes (SQLite; on
   * PostgreSQL `compute` always runs). `key` must name every input of `compute` besides the data
   * (routes use their context's `cachedAnswer`, which adds the caller's access scope).
   * The value is shared between callers: never change it.
   */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

export function postgresReadCache(db: Kysely<DB>): ReadCache {
  const compiled = async <T>(query: CompiledQuery<T>): Promise<readonly T[]> => (await db.executeQuery<T>(query)).rows;
  return {
    all: <T>(written: Statement) => compiled<T>(CompiledQuery.raw(postgresText(written.strings), written.values) as CompiledQuery<T>),
    compiled,
    memo: (_key, compute) => compute(),
  };
}

/** What the SQLite reads need from the connection's statement cache (database.ts). */
export interface SqliteStatements {
  prepare(text: string): SQLite.Statement;
  /** How many writing statements this connection has prepared (each prepare precedes one run). */
  readonly writes: number;
}

const CACHE_LIMIT = 20_000;
// Memoised answers can be pages of tens of kilobytes: at most ~1,000 of them (tens of MB) at a time.
const MEMO_LIMIT = 1_000;

/** The bound values as a key (type-tagged: SQLite compares 1 and '1' differently in some columns). */
function valuesKey(values: readonly unknown[]): string {
  let key = '';
  for (const value of values) key += typeof value === 'number' ? `\u0000n${value}` : value === null ? '\u0000z' : `\u0000s${String(value)}`;
  return key;
}

function frozen<T>(rows: T[]): readonly T[] {
  for (const row of rows) Object.freeze(row);
  return Object.freeze(rows);
}

export function sqliteReadCache(db: Kysely<DB>, connection: SQLite.Database, statements: SqliteStatements, caching = true): ReadCache {
  const dataVersion = connection.prepare('pragma data_version').pluck();
  // Rows by statement (its template, or its text for compiled queries), then by bound values;
  // replaced wholesale when the version moves.
  let cache = new Map<TemplateStringsArray | string, Map<string, readonly unknown[]>>();
  let cachedRows = 0;
  let cachedAt = '';
  // Whole computed values (e.g. a page of events with its count), cleared with the rows.
  let memos = new Map<string, unknown>();

  /** The current version; drops the row cache when it moved. */
  function currentVersion(): string {
    const version = `${dataVersion.get() as number}:${statements.writes}`;
    if (version !== cachedAt || cachedRows >= CACHE_LIMIT || memos.size >= MEMO_LIMIT) {
      cache = new Map();
      memos = new Map();
      cachedRows = 0;
      cachedAt = version;
    }
    return version;
  }

  function execute<T>(statementKey: TemplateStringsArray | string, text: string, values: readonly unknown[], options?: ReadOptions): Promise<readonly T[]> {
    // A transaction is open on the one connection (another request's, between its awaits): queue
    // behind it through Kysely rather than read its uncommitted rows.
    if (connection.inTransaction) return db.executeQuery<T>(CompiledQuery.raw(text, [...values])).then((result) => result.rows);
    if (!options?.cache || !caching) return Promise.resolve(statements.prepare(text).all(...values) as T[]);
    // The version is read in the same synchronous step as the statement runs, so cached rows are
    // always exactly what the database held at that version.
    currentVersion();
    let byValues = cache.get(statementKey);
    if (byValues === undefined) cache.set(statementKey, (byValues = new Map()));
    const key = valuesKey(values);
    let rows = byValues.get(key);
    if (rows === undefined) {
      rows = frozen(statements.prepare(text).all(...values));
      byValues.set(key, rows);
      cachedRows += 1;
    }
    return Promise.resolve(rows as readonly T[]);
  }

  return {
    all: <T>(statement: Statement, options?: ReadOptions) => execute<T>(statement.strings, sqliteText(statement.strings), statement.values, options),
    compiled: <T>(query: CompiledQuery<T>, options?: ReadOptions) => execute<T>(query.sql, query.sql, query.parameters, options),
    async memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
      if (connection.inTransaction || !caching) return compute();
      // Versions only move forward: if anything changed while `compute` awaited, the value is not kept.
      const version = currentVersion();
      if (memos.has(key)) return memos.get(key) as T;
      const value = await compute();
      if (currentVersion() === version) memos.set(key, value);
      return value;
    },
  };
}
