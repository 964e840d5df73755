// The read cache (`deps.readCache`): hot-path reads without the query builder, served from memory
// until the database changes, and whole answers computed from reads (`memo`).
//
// Why: on the API's hot paths (token → user, project → access level) Kysely's per-query work
// (building, compiling, the driver's connection mutex, promises) cost about as much CPU as SQLite
// spends running the statement, and the same few rows are read again on every request
// (docs/performance.md). Statements are written with the `q` tag (statements.ts).
//
// The cache knows which tables each cached statement and memoised answer read
// (table-dependencies.ts): a write this connection prepares drops only what read the tables it may
// change, so an alert burst leaves project, token and environment reads cached. After a commit by
// another connection (`PRAGMA data_version` moved: a `kiln worker`, a second `kiln serve`) it reads
// the table versions that commit bumped (table-versions.ts) and drops what read those tables only.
// Cached rows are frozen: callers share them. This file is SQLite's cache; PostgreSQL's, the same
// cache validated once per request against the table versions, is postgres-read-cache.ts.
import { CompiledQuery, type Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { DB } from './schema.js';
import { sqliteText, type Statement } from './statements.js';
import { NEVER_CACHED, TableDependencies } from './table-dependencies.js';
import { SqliteVersionBumps } from './table-versions.js';

export interface ReadOptions {
  /** Serve identical statements from memory until a table they read changes (outside transactions; on PostgreSQL within a request). */
  cache?: boolean;
}

/** Reads only: a write goes through the query builder, or `deps.groupCommit` on a hot path. */
export interface ReadCache {
  /** False with KILN_READ_CACHE=false: nothing is kept, every read runs, and `memo` ignores its key. */
  readonly caching: boolean;
  /** Rows of a read-only statement. Rows may be shared between callers: never mutate them. */
  all<T>(statement: Statement, options?: ReadOptions): Promise<readonly T[]>;
  /** Rows of a read-only query built with Kysely (`builder.compile()`), with the same cache. */
  compiled<T>(query: CompiledQuery<T>, options?: ReadOptions): Promise<readonly T[]>;
  /**
   * A value computed from reads only, remembered under `key` until a table it read changes (on
   * PostgreSQL within a request; elsewhere `compute` always runs). `key` must name every input of `compute` besides the data
   * (routes use their context's `cachedAnswer`, which adds the caller's access scope).
   * The value is shared between callers: never change it.
   */
  memo<T>(key: string, compute: () => Promise<T>, arrivedAt?: number): Promise<T>;
  /**
   * SQLite: how many times the cache has read other connections' commits (`pragma data_version`).
   * A request notes it when it arrives and hands it to `memo`, which skips its own read when one was
   * made since: that read already saw everything committed before the request arrived, so the
   * answer stays exact for it. Absent on PostgreSQL (its requests are validated per request scope).
   */
  commitChecks?(): number;
  /**
   * PostgreSQL: run `next` (the rest of a request's handling) as one request of the cache, whose
   * cached reads are validated once, until `response` is sent (postgres-read-cache.ts). Absent on
   * SQLite, which needs none.
   */
  requestScope?: (response: { once(event: 'finish' | 'close', listener: () => void): unknown }, next: () => void) => void;
}

/** What the SQLite reads need from the connection's statement cache (database.ts). */
export interface SqliteStatements {
  prepare(text: string): SQLite.Statement;
  /** The texts of the writes prepared since the last call; null when too many to track. */
  takeWritten(): readonly string[] | null;
  /** Called with every read prepared while set. */
  observeRead: ((text: string) => void) | null;
}

const CACHE_LIMIT = 20_000;
// Memoised answers can be pages of tens of kilobytes: at most ~1,000 of them (tens of MB) at a time.
const MEMO_LIMIT = 1_000;

/** The bound values as a key (type-tagged: SQLite compares 1 and '1' differently in some columns). */
export function valuesKey(values: readonly unknown[]): string {
  let key = '';
  for (const value of values) key += typeof value === 'number' ? `\u0000n${value}` : value === null ? '\u0000z' : `\u0000s${String(value)}`;
  return key;
}

export function frozen<T>(rows: T[]): readonly T[] {
  for (const row of rows) Object.freeze(row);
  return Object.freeze(rows);
}

export function addTo<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  let set = index.get(key);
  if (set === undefined) index.set(key, (set = new Set()));
  set.add(value);
}

/** `tables` and `versions`: the ones the connection's statement cache uses (database.ts). */
export function sqliteReadCache(
  db: Kysely<DB>,
  connection: SQLite.Database,
  statements: SqliteStatements,
  caching = true,
  tables = new TableDependencies(connection),
  versions: Pick<SqliteVersionBumps, 'changes'> = new SqliteVersionBumps(connection, tables),
): ReadCache {
  const dataVersion = connection.prepare('pragma data_version').pluck();
  // Rows by statement (its template, or its text for compiled queries), then by bound values.
  let cache = new Map<TemplateStringsArray | string, Map<string, readonly unknown[]>>();
  let cachedRows = 0;
  // Whole computed values (e.g. a page of events with its count).
  let memos = new Map<string, unknown>();
  // Which cached statements and memos read each table: a write to the table drops them.
  let rowsReading = new Map<string, Set<TemplateStringsArray | string>>();
  let memosReading = new Map<string, Set<string>>();
  // What each memo read: a hit adds them to the readings in progress.
  let memoTables = new Map<string, ReadonlySet<string>>();
  // Write sequence: each change seen moves it; a memo is kept only if nothing it read moved meanwhile.
  let sequence = 0;
  let droppedAllAt = 0;
  const writtenAt = new Map<string, number>();
  let seenDataVersion = -1;
  // Reads of data_version so far (`commitChecks`).
  let checks = 0;
  // The tables read by the memo computations in progress (all of them get every read: an answer
  // may depend on more tables than it read, never on fewer).
  const recording = new Set<Set<string>>();

  function dropAll(): void {
    sequence += 1;
    droppedAllAt = sequence;
    cache = new Map();
    memos = new Map();
    rowsReading = new Map();
    memosReading = new Map();
    memoTables = new Map();
    cachedRows = 0;
  }

  function dropReadersOf(table: string): void {
    writtenAt.set(table, sequence);
    const statementKeys = rowsReading.get(table);
    if (statementKeys !== undefined) {
      for (const key of statementKeys) {
        const byValues = cache.get(key);
        if (byValues !== undefined) {
          cachedRows -= byValues.size;
          cache.delete(key);
        }
      }
      rowsReading.delete(table);
    }
    const memoKeys = memosReading.get(table);
    if (memoKeys !== undefined) {
      for (const key of memoKeys) {
        memos.delete(key);
        memoTables.delete(key);
      }
      memosReading.delete(table);
    }
  }

  /**
   * Bring the cache up to the database: after commits by other connections (data_version moved) the
   * versions of the tables they wrote moved (table-versions.ts): drop what read those; this
   * connection's writes drop what read their tables.
   */
  function catchUp(arrivedAt?: number): void {
    if (arrivedAt === undefined || arrivedAt === checks) catchUpWithOthers();
    catchUpWithOwnWrites();
  }

  function catchUpWithOthers(): void {
    checks += 1;
    const version = dataVersion.get() as number;
    if (version !== seenDataVersion) {
      // Noted before the versions are read: a commit after this read moves data_version again.
      seenDataVersion = version;
      const changed = versions.changes();
      if (changed === null) {
        tables.reset(); // it may have been a migration
        dropAll();
      } else if (changed.length > 0) {
        sequence += 1;
        for (const table of changed) dropReadersOf(table);
      }
    }
  }

  function catchUpWithOwnWrites(): void {
    const written = statements.takeWritten();
    if (written === null) {
      tables.reset();
      dropAll();
    } else {
      for (const text of written) {
        const changed = tables.written(text);
        if (changed === null) {
          if (TableDependencies.changesSchema(text)) tables.reset();
          dropAll();
          continue;
        }
        sequence += 1;
        for (const table of changed) dropReadersOf(table);
      }
    }
    if (cachedRows >= CACHE_LIMIT || memos.size >= MEMO_LIMIT) dropAll();
  }

  function record(text: string): void {
    const read = tables.read(text);
    for (const reads of recording) for (const table of read) reads.add(table);
  }

  function startRecording(reads: Set<string>): void {
    recording.add(reads);
    statements.observeRead = record;
  }

  function stopRecording(reads: Set<string>): void {
    recording.delete(reads);
    if (recording.size === 0) statements.observeRead = null;
  }

  /** Keep `value` under `key` unless a table of `reads` changed since `startedAt` (or everything was dropped). */
  function keep(key: string, value: unknown, reads: ReadonlySet<string>, startedAt: number): void {
    catchUp();
    if (droppedAllAt > startedAt) return;
    for (const table of reads) if ((writtenAt.get(table) ?? 0) > startedAt || NEVER_CACHED.has(table)) return;
    memos.set(key, value);
    memoTables.set(key, reads);
    for (const table of reads) addTo(memosReading, table, key);
  }

  function execute<T>(statementKey: TemplateStringsArray | string, text: string, values: readonly unknown[], options?: ReadOptions): Promise<readonly T[]> {
    if (recording.size > 0) record(text);
    // A transaction is open on the one connection (another request's, between its awaits): queue
    // behind it through Kysely rather than read its uncommitted rows.
    if (connection.inTransaction) return db.executeQuery<T>(CompiledQuery.raw(text, [...values])).then((result) => result.rows);
    if (!options?.cache || !caching) return Promise.resolve(statements.prepare(text).all(...values) as T[]);
    // The cache is brought up to date in the same synchronous step as the statement runs, so cached
    // rows are always exactly what the database held.
    catchUp();
    let byValues = cache.get(statementKey);
    if (byValues === undefined) {
      const read = tables.read(text);
      if (read.some((table) => NEVER_CACHED.has(table))) return Promise.resolve(statements.prepare(text).all(...values) as T[]);
      cache.set(statementKey, (byValues = new Map()));
      for (const table of read) addTo(rowsReading, table, statementKey);
    }
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
    caching,
    all: <T>(statement: Statement, options?: ReadOptions) => execute<T>(statement.strings, sqliteText(statement.strings), statement.values, options),
    compiled: <T>(query: CompiledQuery<T>, options?: ReadOptions) => execute<T>(query.sql, query.sql, query.parameters, options),
    commitChecks: () => checks,
    async memo<T>(key: string, compute: () => Promise<T>, arrivedAt?: number): Promise<T> {
      if (connection.inTransaction || !caching) return compute();
      catchUp(arrivedAt);
      if (memos.has(key)) {
        if (recording.size > 0) for (const reads of recording) for (const table of memoTables.get(key)!) reads.add(table);
        return memos.get(key) as T;
      }
      const startedAt = sequence;
      const reads = new Set<string>();
      startRecording(reads);
      let value: T;
      try {
        value = await compute();
      } finally {
        stopRecording(reads);
      }
      // Kept only if nothing it read changed while `compute` awaited.
      keep(key, value, reads, startedAt);
      return value;
    },
  };
}
