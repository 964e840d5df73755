// Reads outside the query builder (`deps.reads`), and the row cache of the look-ups every request
// makes: the token and its user, the project, the namespace, the caller's membership levels.
//
// Why outside the builder: on the hot paths Kysely's per-query work (building, compiling, its
// connection mutex, promises) cost about as much CPU as SQLite spends running the statement.
//
// The row cache (SQLite only). A look-up names the tables its statement reads (`cached(statement,
// tables)`, the list written beside the statement in its queries file). The WRITE declares what it
// changed: a temporary trigger on each of those tables, on this process's connection only, calls
// back into this file for every row inserted, updated or deleted, in the writing statement itself,
// so whatever wrote it (the builder, the group commit, a migration) moves that table's generation
// and every cached look-up that read the table is stale from then on. A commit by another process
// (`kiln worker`, `kiln admin`, the sqlite3 shell) moves `PRAGMA data_version`, read before every
// cached look-up: then everything is stale. Nothing is cached while a transaction is open.
//
// PostgreSQL: nothing is kept. Knowing that a row cached on one node is still current needs a round
// trip to the database, and the look-ups a request makes are one round trip already (the token read
// with the route's project and the caller's levels in one statement: accounts/token-with-project-
// queries.ts), so a cache could only make requests stale, not faster.
import { CompiledQuery, type Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { DB } from './schema.js';
import { sqliteText, postgresText, type Statement } from './statements.js';
import type { WorkScope } from './work-scope.js';
import { BoundedMap } from '../bounded-map.js';

/** A table a cached look-up reads (a plain name of the schema). */
export type CachedTable = string;

export interface Reads {
  /** Rows of a read-only statement (`q`), run now. */
  all<T>(statement: Statement): Promise<readonly T[]>;
  /** Rows of a read-only query built with Kysely (`builder.compile()`), run now. */
  compiled<T>(query: CompiledQuery<T>): Promise<readonly T[]>;
  /**
   * Rows of a hot look-up that reads only `tables`, kept (SQLite) until a row of one of them is
   * written. The rows are shared between callers: never change them.
   */
  cached<T>(statement: Statement, tables: readonly CachedTable[]): Promise<readonly T[]>;
}

const CACHE_LIMIT = 20_000;
const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;
const REFUSED = 'deps.reads was used';

export function frozen<T>(rows: T[]): readonly T[] {
  for (const row of rows) Object.freeze(row);
  return Object.freeze(rows);
}

/** The bound values as a key (type-tagged: SQLite compares 1 and '1' differently in some columns). */
function valuesKey(values: readonly unknown[]): string {
  let key = '';
  for (const value of values) key += typeof value === 'number' ? `\u0000n${value}` : value === null ? '\u0000z' : `\u0000s${String(value)}`;
  return key;
}

interface Entry {
  rows: readonly unknown[];
  /** The generation of each named table when the rows were read. */
  generations: readonly number[];
  tables: readonly CachedTable[];
}

/** `prepare`: the connection's statement cache (database.ts); `caching` false keeps nothing. */
export function sqliteReads(db: Kysely<DB>, connection: SQLite.Database, prepare: (text: string) => SQLite.Statement, works: WorkScope, caching: boolean): Reads {
  // Per watched table: how many times its rows were written since it was first watched.
  const generations = new Map<string, number>();
  const entries = new BoundedMap<string, Entry>(CACHE_LIMIT);
  const texts = new WeakMap<TemplateStringsArray, string>();
  // A short number per statement text, for the entries' keys: a key made with the text itself (often
  // kilobytes) is a new string each look-up, which the Map must hash whole (~20 % of a cached look-up's
  // CPU); the kept text's own hash is computed once.
  const textNumbers = new Map<string, number>();
  const dataVersion = connection.prepare('pragma data_version').pluck();
  const schemaVersion = connection.prepare('pragma schema_version').pluck();
  let seenDataVersion = -1;
  let watchedSchema = -1;

  const everything = () => {
    for (const [table, generation] of generations) generations.set(table, generation + 1);
  };
  // Called by the triggers below, inside the writing statement.
  connection.function('kiln_rows_changed', { deterministic: false, varargs: false }, (table: unknown) => {
    const generation = generations.get(table as string);
    if (generation !== undefined) generations.set(table as string, generation + 1);
    return null;
  });

  /** Temporary triggers on a table: they live with this connection only, and go with the table. */
  function trigger(table: string): void {
    if (!TABLE_NAME.test(table)) throw new Error(`reads: not a table name: ${table}`);
    for (const event of ['insert', 'update', 'delete']) {
      connection.exec(`create temp trigger if not exists kiln_rows_${table}_${event} after ${event} on main.${table} begin select kiln_rows_changed('${table}'); end`);
    }
  }

  /**
   * After a schema change (a table rebuilt, which drops its temporary triggers) the watched tables are
   * watched again. Read only when `PRAGMA data_version` moved: Kiln changes the schema only by migrating
   * before it serves, so a change while it runs is another process's commit, which moves data_version.
   */
  function rewatchAfterSchemaChange(): void {
    const schema = schemaVersion.get() as number;
    if (schema === watchedSchema) return;
    for (const table of generations.keys()) trigger(table);
    // Whatever changed meanwhile, nothing read before is trusted.
    everything();
    watchedSchema = schemaVersion.get() as number;
  }

  /** The tables a look-up reads are watched from its first use. */
  function watch(tables: readonly CachedTable[]): void {
    for (const table of tables) {
      if (generations.has(table)) continue;
      trigger(table);
      generations.set(table, 0);
    }
  }

  function run<T>(text: string, values: readonly unknown[]): Promise<readonly T[]> {
    works.refuse(REFUSED);
    // A transaction is open on the one connection (another request's, between its awaits): queue
    // behind it through Kysely rather than read its uncommitted rows.
    if (connection.inTransaction) return db.executeQuery<T>(CompiledQuery.raw(text, [...values])).then((result) => result.rows);
    return Promise.resolve(prepare(text).all(...values) as T[]);
  }

  function textOf(strings: TemplateStringsArray): string {
    let text = texts.get(strings);
    if (text === undefined) texts.set(strings, (text = sqliteText(strings)));
    return text;
  }

  return {
    all: <T>(statement: Statement) => run<T>(textOf(statement.strings), statement.values),
    compiled: <T>(query: CompiledQuery<T>) => run<T>(query.sql, query.parameters),
    cached<T>(statement: Statement, tables: readonly CachedTable[]): Promise<readonly T[]> {
      const text = textOf(statement.strings);
      if (!caching || connection.inTransaction) return run<T>(text, statement.values);
      works.refuse(REFUSED);
      const version = dataVersion.get() as number;
      if (version !== seenDataVersion) {
        seenDataVersion = version;
        everything();
        rewatchAfterSchemaChange();
      }
      watch(tables);
      let textNumber = textNumbers.get(text);
      if (textNumber === undefined) textNumbers.set(text, (textNumber = textNumbers.size));
      const key = `${textNumber}${valuesKey(statement.values)}`;
      const entry = entries.get(key);
      if (entry !== undefined && entry.tables.every((table, index) => generations.get(table) === entry.generations[index])) return Promise.resolve(entry.rows as readonly T[]);
      // Read and kept in one synchronous step: no write can come between.
      const rows = frozen(prepare(text).all(...statement.values) as T[]);
      entries.set(key, { rows, tables, generations: tables.map((table) => generations.get(table)!) });
      return Promise.resolve(rows);
    },
  };
}

export function postgresReads(db: Kysely<DB>): Reads {
  const run = async <T>(query: CompiledQuery<T>): Promise<readonly T[]> => (await db.executeQuery<T>(query)).rows;
  const all = <T>(statement: Statement) => run<T>(CompiledQuery.raw(postgresText(statement.strings), statement.values) as CompiledQuery<T>);
  return { all, compiled: run, cached: (statement) => all(statement) };
}
