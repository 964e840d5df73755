// Per-table versions on SQLite (why, and PostgreSQL's triggers: migrations/20261127T0900-table-versions.ts
// and docs/decisions.md, "Table versions"). Every statement Kiln runs on its SQLite connection is
// prepared through the connection's statement cache (database.ts) or the group commit, and both tell
// this file: it notes the tables each write may change (table-dependencies.ts, foreign-key cascades
// included) and bumps their rows in the same transaction, just before that transaction commits. A
// write outside any transaction is run in one of its own, with its bump. So another process's read
// cache that sees the database move reads which tables did (`changes`).
import type SQLite from 'better-sqlite3';
import { NEVER_CACHED, TableDependencies } from './table-dependencies.js';

/** The row of the schema: bumped by DDL and by writes whose target is unknown; every answer depends on it. */
export const SCHEMA_VERSION = '*';

const COMMIT = /^\s*(?:commit|end)\b/i;
const ROLLBACK = /^\s*rollback\s*(?:transaction\s*)?;?\s*$/i;
// What may change rows or the schema and can run inside a transaction. Other writing statements
// (pragmas, vacuum, analyze) change no rows a cache reads, and some refuse to run in a transaction.
const CHANGE = /^\s*(?:insert|replace|update|delete|with|create|drop|alter)\b/i;
const EXISTS = "select 1 from sqlite_master where type = 'table' and name = 'table_versions'";

type Method = 'run' | 'all' | 'get';

export class SqliteVersionBumps {
  readonly #connection: SQLite.Database;
  readonly #tables: TableDependencies;
  readonly #pending = new Set<string>();
  // undefined: not known yet whether the table exists (before its migration it does not).
  #bump: SQLite.Statement | null | undefined;
  /** The open transaction gave every table its row (undone if it rolls back). */
  #filled = false;
  #read: SQLite.Statement | null = null;
  /** The versions the read cache knows its entries are current for; null: unknown. */
  #seen: Map<string, number> | null = null;
  /** The tables this connection's open transaction bumped, known as seen once it commits. */
  #bumped: string[] = [];
  readonly #begin: SQLite.Statement;
  readonly #commit: SQLite.Statement;
  readonly #rollback: SQLite.Statement;
  readonly #wrapped = new WeakMap<SQLite.Statement, SQLite.Statement>();

  constructor(connection: SQLite.Database, tables: TableDependencies) {
    this.#connection = connection;
    this.#tables = tables;
    this.#begin = connection.prepare('begin immediate');
    this.#commit = connection.prepare('commit');
    this.#rollback = connection.prepare('rollback');
  }

  /**
   * Called with every statement the statement cache hands out, just before it runs; returns what to
   * run instead: the statement itself; a commit that first bumps what the transaction wrote; or for a
   * change outside a transaction, the statement in a transaction of its own that bumps its tables.
   */
  prepared(text: string, statement: SQLite.Statement): SQLite.Statement {
    if (statement.readonly) {
      // Transaction control is "read-only" to SQLite. Reads start with s or w: skip the patterns.
      const first = text.charCodeAt(0) | 0x20;
      if ((first === 0x63 || first === 0x65) && COMMIT.test(text)) return this.#wrap(statement, () => this.#committing(statement));
      if (first === 0x72 && ROLLBACK.test(text)) this.rolledBack();
      return statement;
    }
    if (this.#connection.inTransaction) {
      this.note(text);
      return statement;
    }
    if (!CHANGE.test(text)) return statement;
    return this.#wrap(statement, () => this.#inOwnTransaction(text, statement));
  }

  /** A write ran (or is about to run) in the open transaction: its tables change at the commit. */
  note(text: string): void {
    const changed = this.#tables.written(text);
    if (changed === null) {
      this.#pending.add(SCHEMA_VERSION);
      if (TableDependencies.changesSchema(text)) {
        this.#tables.reset();
        this.#bump = undefined;
        this.#read = null;
      }
      return;
    }
    for (const table of changed) if (table !== 'table_versions' && !NEVER_CACHED.has(table)) this.#pending.add(table);
  }

  /**
   * Inside the transaction, just before its commit: bump what it wrote. One UPDATE by primary key a
   * table (measured: ~4 µs a transaction, mostly the page it dirties; an upsert over json_each with
   * RETURNING cost ~30 µs).
   */
  beforeCommit(): void {
    if (this.#pending.size === 0) return;
    const bump = this.#bumpStatement();
    if (bump !== null) {
      for (const name of this.#pending) {
        bump.run(name);
        this.#bumped.push(name);
      }
    }
    this.#pending.clear();
  }

  /**
   * The transaction committed: the versions it bumped are this connection's own changes, which the
   * read cache dropped as it prepared them (read-cache.ts), so they are not news for it. Each moved
   * by one; had another process bumped one unseen, the version read next is higher than this and
   * that table still counts as changed.
   */
  committed(): void {
    if (this.#seen !== null) for (const name of this.#bumped) this.#seen.set(name, (this.#seen.get(name) ?? 0) + 1);
    this.#bumped = [];
    this.#filled = false;
  }

  /** The transaction was rolled back (or its commit failed): nothing it wrote changed. */
  rolledBack(): void {
    this.#pending.clear();
    // A version bumped and undone may be reached again by another commit: forget what was seen.
    if (this.#bumped.length > 0) this.#seen = null;
    this.#bumped = [];
    if (this.#filled) this.#bump = undefined;
    this.#filled = false;
  }

  /**
   * For the read cache, after another connection committed: which tables changed since the last call
   * (their versions moved), or null when it cannot tell (the first call, the schema changed, no
   * versions table yet): drop everything.
   */
  changes(): readonly string[] | null {
    if (this.#read === null) {
      if (this.#connection.prepare(EXISTS).get() === undefined) return null;
      this.#read = this.#connection.prepare('select name, version from table_versions');
    }
    const now = new Map<string, number>();
    for (const row of this.#read.all() as Array<{ name: string; version: number }>) now.set(row.name, row.version);
    const before = this.#seen;
    this.#seen = now;
    if (before === null || before.get(SCHEMA_VERSION) !== now.get(SCHEMA_VERSION)) return null;
    const changed: string[] = [];
    for (const [name, version] of now) if (before.get(name) !== version) changed.push(name);
    return changed;
  }

  /** Null before the versions table exists; on first use and after DDL, every table gets its row first. */
  #bumpStatement(): SQLite.Statement | null {
    if (this.#bump === undefined) {
      if (this.#connection.prepare(EXISTS).get() === undefined) return (this.#bump = null);
      this.#connection.prepare("insert into table_versions (name) select name from sqlite_master where type = 'table' and name not like 'sqlite_%' on conflict (name) do nothing").run();
      this.#filled = true;
      this.#bump = this.#connection.prepare('update table_versions set version = version + 1 where name = ?');
    }
    return this.#bump;
  }

  #wrap(statement: SQLite.Statement, make: () => SQLite.Statement): SQLite.Statement {
    let wrapped = this.#wrapped.get(statement);
    if (wrapped === undefined) this.#wrapped.set(statement, (wrapped = make()));
    return wrapped;
  }

  /** Kysely's `commit`: the bump first, in the transaction. */
  #committing(statement: SQLite.Statement): SQLite.Statement {
    return asStatement(statement, (method) => (...values) => {
      try {
        this.beforeCommit();
        const result = (statement[method] as (...args: unknown[]) => unknown)(...values);
        this.committed();
        return result;
      } catch (error) {
        this.rolledBack();
        throw error;
      }
    });
  }

  /** A change outside a transaction, run in one of its own with its bump. */
  #inOwnTransaction(text: string, statement: SQLite.Statement): SQLite.Statement {
    return asStatement(statement, (method) => (...values) => {
      this.#begin.run();
      try {
        this.note(text);
        const result = (statement[method] as (...args: unknown[]) => unknown)(...values);
        // A change that matched no row changed nothing (SQLite's triggers and cascades act per row),
        // so nothing is bumped: an idle job claim, say, then costs no page of the versions table.
        // DDL changes no rows but the schema: it is always bumped.
        if (changedNoRow(method, result) && !TableDependencies.changesSchema(text)) this.#pending.clear();
        this.beforeCommit();
        this.#commit.run();
        this.committed();
        return result;
      } catch (error) {
        this.#pending.clear();
        if (this.#connection.inTransaction) this.#rollback.run();
        this.rolledBack();
        throw error;
      }
    });
  }
}

/** Whether a statement's result says it changed no row (`run`: no changes; RETURNING: no row). */
function changedNoRow(method: Method, result: unknown): boolean {
  if (method === 'run') return (result as SQLite.RunResult).changes === 0;
  if (method === 'all') return (result as unknown[]).length === 0;
  return result === undefined;
}

/** What Kysely, the read cache and the group commit call on a statement, each through `around`. */
function asStatement(statement: SQLite.Statement, around: (method: Method) => (...values: unknown[]) => unknown): SQLite.Statement {
  const all = around('all');
  const wrapped = {
    reader: statement.reader,
    readonly: statement.readonly,
    source: statement.source,
    run: around('run'),
    all,
    get: around('get'),
    iterate: (...values: unknown[]) => (all(...values) as unknown[])[Symbol.iterator](),
  };
  return wrapped as unknown as SQLite.Statement;
}
