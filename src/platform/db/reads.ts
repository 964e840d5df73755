// Hot-path reads without the query builder, and a read cache for the lookups every request makes.
//
// Why: on the API's hot paths (token → user, project → access level) Kysely's per-query work
// (building, compiling, the driver's connection mutex, promises) cost about as much CPU as SQLite
// spends running the statement, and the same few rows are read again on every request
// (docs/performance.md). Statements are written with the `q` tag; its placeholders come from the
// template's positions, so the text is never rewritten by hand and the values are always bound.
//
// The cache (SQLite only) is correct across processes without knowing which tables a statement
// reads: it is dropped whenever the database may have changed, i.e. when `PRAGMA data_version`
// moves (a commit by any other connection: a `kiln worker`, a second `kiln serve`) or when this
// connection prepared a statement that writes. Cached rows are frozen: callers share them.
import { CompiledQuery, sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { DB } from './schema.js';
import { groupCommit } from './group-commit.js';
import type { ConnectionGate } from './connection-gate.js';

export interface Statement {
  strings: TemplateStringsArray;
  values: unknown[];
}

/** `q\`select … where id = ${id}\``: a statement with bound values, for `Reads.all`. */
export function q(strings: TemplateStringsArray, ...values: unknown[]): Statement {
  return { strings, values };
}

/** The same statement for a Kysely executor (a transaction), with Kysely's own placeholders. */
function asRaw<T>(statement: Statement): RawBuilder<T> {
  return sql<T>(statement.strings, ...statement.values);
}

/** What a write did: its RETURNING rows (none without RETURNING) and how many rows it changed. */
export interface Written<T> {
  rows: readonly T[];
  changes: number;
}

export interface ReadOptions {
  /** Serve identical statements from memory until the database changes (SQLite outside transactions). */
  cache?: boolean;
}

export interface Reads {
  /** Rows of a read-only statement. Rows may be shared between callers: never mutate them. */
  all<T>(statement: Statement, options?: ReadOptions): Promise<readonly T[]>;
  /** Rows of a read-only query built with Kysely (`builder.compile()`), with the same cache. */
  compiled<T>(query: CompiledQuery<T>, options?: ReadOptions): Promise<readonly T[]>;
  /**
   * A value computed from reads only, remembered under `key` until the database changes (SQLite; on
   * PostgreSQL `compute` always runs). `key` must name every input of `compute` besides the data.
   * The value is shared between callers: never change it.
   */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /**
   * One writing statement, outside the query builder, for a write-per-request hot path: committed
   * when the promise resolves. On SQLite the writes submitted in one turn of the event loop share a
   * transaction (group-commit.ts); each is still undone alone if it fails. Writes submitted together
   * may run in any order (concurrently, on PostgreSQL's pool): none may depend on another. Inside a
   * transaction use the transaction (`sqlRunner(trx)`).
   *
   * With a `precondition` (a read), the write runs only if that read returns a row, else nothing is
   * written (`changes` 0). Pass the same precondition object for as long as it asks the same thing:
   * on SQLite it is checked once for all the writes of a batch that share it. Such a write must not
   * change what any precondition reads.
   */
  run<T>(statement: Statement, precondition?: Statement): Promise<Written<T>>;
  /**
   * One transaction of raw statements, committed when the promise resolves, for a hot path that
   * writes several rows. On SQLite it joins the writes of the same turn (group-commit.ts) in a
   * savepoint of its own, undone alone if `work` throws. `work` must use only `tx` and await nothing
   * else that touches the database: the connection is held for the whole batch, so a query through
   * `deps.db` or `deps.reads` from inside would wait for the batch forever.
   */
  transact<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

/** Raw statements inside a transaction, the same on both dialects (see `Reads.transact`). */
export interface SqlRunner {
  all<T>(statement: Statement): Promise<readonly T[]>;
}

/** Where raw statements of a write run: a `SqlRunner`, or the query builder (a transaction or the database). */
export type SqlTarget = SqlRunner | Kysely<DB> | Transaction<DB>;

export function sqlRunner(target: SqlTarget): SqlRunner {
  if ('all' in target) return target;
  return { all: async <T>(statement: Statement) => (await asRaw<T>(statement).execute(target)).rows };
}

/** Statement texts by template, per placeholder style (the template object is unique per call site). */
function textCache(placeholder: (index: number) => string) {
  const texts = new WeakMap<TemplateStringsArray, string>();
  return (strings: TemplateStringsArray): string => {
    let text = texts.get(strings);
    if (text === undefined) {
      text = strings.reduce((joined, part, index) => `${joined}${placeholder(index)}${part}`);
      texts.set(strings, text);
    }
    return text;
  };
}

const postgresText = textCache((index) => `$${index}`);
const sqliteText = textCache(() => '?');

export function postgresReads(db: Kysely<DB>): Reads {
  const compiled = async <T>(query: CompiledQuery<T>): Promise<readonly T[]> => (await db.executeQuery<T>(query)).rows;
  const raw = <T>(written: Statement) => CompiledQuery.raw(postgresText(written.strings), written.values) as CompiledQuery<T>;
  const statement = <T>(written: Statement) => compiled<T>(raw<T>(written));
  return {
    all: statement,
    // Two statements, not one transaction: a change that commits between them is ordered after
    // this write, as it would be had it committed a moment later.
    async run<T>(written: Statement, precondition?: Statement): Promise<Written<T>> {
      if (precondition && (await statement(precondition)).length === 0) return { rows: [], changes: 0 };
      const result = await db.executeQuery<T>(raw<T>(written));
      return { rows: result.rows, changes: Number(result.numAffectedRows ?? result.rows.length) };
    },
    compiled,
    memo: (_key, compute) => compute(),
    transact: (work) => db.transaction().execute((trx) => work(sqlRunner(trx))),
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

export function sqliteReads(db: Kysely<DB>, connection: SQLite.Database, statements: SqliteStatements, gate: ConnectionGate, caching = true): Reads {
  const dataVersion = connection.prepare('pragma data_version').pluck();
  // Rows by statement (its template, or its text for compiled queries), then by bound values;
  // replaced wholesale when the version moves.
  let cache = new Map<TemplateStringsArray | string, Map<string, readonly unknown[]>>();
  let cachedRows = 0;
  let cachedAt = '';
  // Whole computed values (e.g. a page of events with its count), cleared with the rows.
  let memos = new Map<string, unknown>();
  // Preparing each write through the statement cache moves its write count: cached reads are dropped.
  const group = groupCommit(db, connection, gate, (text) => statements.prepare(text), (statement) => sqliteText(statement.strings));

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
    run: group.write,
    transact: group.transact,
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
