// Who may use the one SQLite connection while a group-commit batch with works is open.
//
// A work (group-commit.ts) awaits between its statements, so other code runs in between; none of it
// may run a statement inside the batch's transaction (it would read uncommitted rows, or write rows
// that the batch's commit or rollback decides about). Kysely's own connection lock gave that
// guarantee, but taking it (`db.connection().execute`) builds a query builder per call: measured
// ~1.5 µs per alert on the endpoint's mixed load, where 2 % of the posts carry a work. The gate is
// the same guarantee at the driver: while it is closed the query builder's connection requests wait,
// and the group commit only closes it when the builder holds no connection.
//
// The same drivers refuse a connection asked for from inside a work (work-scope.ts): that request
// would wait for the batch forever on SQLite, and leave the work's transaction on PostgreSQL.
import { PostgresDialect, SqliteDialect, type DatabaseConnection, type Driver, type PostgresDialectConfig, type SqliteDialectConfig } from 'kysely';
import type { WorkScope } from './work-scope.js';

export class ConnectionGate {
  #closed: { promise: Promise<void>; open(): void } | null = null;
  /** Connections the query builder has asked for and not yet released. */
  #held = 0;

  /** Nobody else is using the connection and no batch holds it: a batch may close the gate. */
  get free(): boolean {
    return this.#held === 0 && this.#closed === null;
  }

  /** Closed by a batch with works, or for the WAL restart (background-checkpoints.ts). */
  get closed(): boolean {
    return this.#closed !== null;
  }

  /** Resolves once the gate is open (at once when it is). */
  async opened(): Promise<void> {
    for (let closed = this.#closed; closed; closed = this.#closed) await closed.promise;
  }

  close(): void {
    let open!: () => void;
    const promise = new Promise<void>((resolve) => (open = resolve));
    this.#closed = { promise, open };
  }

  open(): void {
    const closed = this.#closed;
    this.#closed = null;
    closed?.open();
  }

  /** The query builder's way in: wait while closed, then count the connection as held. */
  async enter(): Promise<void> {
    // Checked again after each wait: another batch may have closed it meanwhile.
    await this.opened();
    this.#held += 1;
  }

  leave(): void {
    this.#held -= 1;
  }
}

/**
 * Kysely's SQLite dialect whose driver refuses connections inside a work, passes the gate before
 * every connection it hands out, and begins transactions IMMEDIATE.
 *
 * Kysely begins them DEFERRED: the transaction reads on a snapshot and takes the write lock at its
 * first write. When another process (`kiln worker` beside `kiln serve`, or one starting) holds the
 * lock then, or has committed since the snapshot, SQLite cannot wait for it, because the snapshot
 * would be stale: the write fails at once with SQLITE_BUSY, whatever the busy timeout, and a request
 * that looked before it wrote would answer 500. IMMEDIATE takes the lock at BEGIN, where the busy
 * timeout applies, so the transaction waits for the other process's commit and then reads what it
 * wrote. Within one process the gate serialises transactions already; this costs them nothing more.
 */
export class GatedSqliteDialect extends SqliteDialect {
  readonly #gate: ConnectionGate;
  readonly #works: WorkScope;
  readonly #beginImmediate: () => void;

  /**
   * `beginImmediate` runs BEGIN IMMEDIATE on the connection itself, not through the statement cache
   * Kysely prepares its queries with: SQLite does not count that BEGIN as read-only, and the cache
   * would note it as a write of unknown tables, which empties the read cache (database.ts).
   */
  constructor(config: SqliteDialectConfig, gate: ConnectionGate, works: WorkScope, beginImmediate: () => void) {
    super(config);
    this.#gate = gate;
    this.#works = works;
    this.#beginImmediate = beginImmediate;
  }

  override createDriver(): Driver {
    const driver = guardedDriver(super.createDriver(), this.#works, this.#gate);
    driver.beginTransaction = async () => this.#beginImmediate();
    return driver;
  }
}

/** Kysely's PostgreSQL dialect whose driver refuses connections inside a work. */
export class GuardedPostgresDialect extends PostgresDialect {
  readonly #works: WorkScope;

  constructor(config: PostgresDialectConfig, works: WorkScope) {
    super(config);
    this.#works = works;
  }

  override createDriver(): Driver {
    return guardedDriver(super.createDriver(), this.#works, null);
  }
}

// A transaction's own statements run on the connection it acquired (Kysely's SingleConnectionProvider)
// and never come through acquireConnection: only statements outside any transaction, and the start
// of a new one, are checked.
function guardedDriver(inner: Driver, works: WorkScope, gate: ConnectionGate | null): Driver {
  return {
    init: () => inner.init(),
    async acquireConnection(): Promise<DatabaseConnection> {
      works.refuse('deps.db (the query builder, or the read cache through it) was used');
      if (gate === null) return inner.acquireConnection();
      await gate.enter();
      try {
        return await inner.acquireConnection();
      } catch (error) {
        gate.leave();
        throw error;
      }
    },
    async releaseConnection(connection) {
      gate?.leave();
      await inner.releaseConnection(connection);
    },
    beginTransaction: (connection, settings) => inner.beginTransaction(connection, settings),
    commitTransaction: (connection) => inner.commitTransaction(connection),
    rollbackTransaction: (connection) => inner.rollbackTransaction(connection),
    savepoint: inner.savepoint && ((connection, name, compile) => inner.savepoint!(connection, name, compile)),
    rollbackToSavepoint: inner.rollbackToSavepoint && ((connection, name, compile) => inner.rollbackToSavepoint!(connection, name, compile)),
    releaseSavepoint: inner.releaseSavepoint && ((connection, name, compile) => inner.releaseSavepoint!(connection, name, compile)),
    destroy: () => inner.destroy(),
  };
}
