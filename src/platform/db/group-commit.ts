// Group commit for SQLite's write-per-request hot path (`Reads.run` and `Reads.transact`, the alert
// endpoint).
//
// Why: a commit costs more than the statements it commits. Measured on this project's machine: one
// grouping UPDATE as its own transaction ~18 µs; ten sharing a transaction ~11 µs each; an append of
// a narrow row 14 µs alone and ~2.4 µs in tens (the locks, the WAL frames and the commit are the
// cost, not the SQL). So the writes and works submitted in the same turn of the event loop run in ONE
// transaction, committed before any of their promises resolves: a caller that answers after its
// write resolved still only acknowledges committed data (a `kill -9` loses nothing that was
// answered). Each sees the ones submitted before it, exactly as if each had been committed alone, and
// each fails alone: a failed statement is undone by SQLite, a work that throws by its savepoint.
//
// A write may name a precondition, a read that must return a row for the write to run. Writes that
// share one precondition object check it once per batch, not once each: the hot path's writes all
// hold only while the alert integration is as remembered, and that check costs half the write.
import type { Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { DB } from './schema.js';
import type { SqlRunner, Statement, Written } from './reads.js';
import type { ConnectionGate } from './connection-gate.js';

type Outcome = { value: unknown } | { error: unknown };

interface Pending {
  /** A single statement, run synchronously, or a work over the transaction. */
  write?: Statement;
  precondition?: Statement;
  work?: (tx: SqlRunner) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface GroupCommit {
  write<T>(statement: Statement, precondition?: Statement): Promise<Written<T>>;
  transact<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

/**
 * `gate` keeps the query builder off the connection during a batch with works; `prepare` is the
 * connection's statement cache (it also tells the read cache that a write ran); `textOf` turns a
 * written statement into SQLite's text.
 */
export function groupCommit(db: Kysely<DB>, connection: SQLite.Database, gate: ConnectionGate, prepare: (text: string) => SQLite.Statement, textOf: (statement: Statement) => string): GroupCommit {
  // IMMEDIATE takes the write lock up front, so no statement of the batch can meet SQLITE_BUSY halfway.
  const begin = connection.prepare('begin immediate');
  const commit = connection.prepare('commit');
  const rollback = connection.prepare('rollback');
  const savepoint = connection.prepare('savepoint work');
  const release = connection.prepare('release work');
  const undo = connection.prepare('rollback to work');
  let pending: Pending[] = [];
  const NOT_WRITTEN: Written<unknown> = Object.freeze({ rows: Object.freeze([]), changes: 0 });

  function execute(written: Statement): Written<unknown> {
    const statement = prepare(textOf(written));
    if (statement.reader) {
      const rows = statement.all(...written.values);
      return { rows, changes: rows.length };
    }
    // better-sqlite3 wants run() for a write without RETURNING; it has no rows to give.
    return { rows: NOT_WRITTEN.rows, changes: statement.run(...written.values).changes };
  }

  // What a work sees: the batch's transaction. Statements run synchronously; the promise is the
  // same interface as the query builder's transactions (PostgreSQL) so a work is written once.
  const tx: SqlRunner = { all: <T>(statement: Statement) => Promise.resolve(execute(statement).rows as readonly T[]) };

  /** Whether each precondition held, for the writes of the current batch since its last work. */
  const held = new Map<Statement, boolean>();

  function holds(precondition: Statement): boolean {
    let result = held.get(precondition);
    if (result === undefined) {
      result = prepare(textOf(precondition)).get(...precondition.values) !== undefined;
      held.set(precondition, result);
    }
    return result;
  }

  function runWrite(write: Statement, precondition: Statement | undefined): Outcome {
    // Writes under a precondition must not change what preconditions read (Reads.run); any other
    // write may, so they are checked again after it.
    if (precondition === undefined) held.clear();
    try {
      return { value: precondition === undefined || holds(precondition) ? execute(write) : NOT_WRITTEN };
    } catch (error) {
      return { error };
    }
  }

  async function runWork(work: NonNullable<Pending['work']>): Promise<Outcome> {
    // A work may change what a precondition read: check them again after it.
    held.clear();
    savepoint.run();
    try {
      const value = await work(tx);
      release.run();
      return { value };
    } catch (error) {
      if (connection.inTransaction) {
        undo.run();
        release.run();
      }
      return { error };
    }
  }

  /** Run the batch in one transaction; `failed` when nothing of it was committed. */
  async function runBatch(batch: Pending[]): Promise<Outcome[] | { failed: unknown }> {
    held.clear();
    try {
      begin.run();
    } catch (error) {
      return { failed: error };
    }
    const outcomes: Outcome[] = [];
    for (const item of batch) {
      const outcome = item.write ? runWrite(item.write, item.precondition) : await runWork(item.work!);
      outcomes.push(outcome);
      // Only a few errors (I/O, full disk) make SQLite roll the whole transaction back, and then
      // nothing of this batch may be reported as written.
      if ('error' in outcome && !connection.inTransaction) return { failed: outcome.error };
    }
    try {
      commit.run();
    } catch (error) {
      if (connection.inTransaction) rollback.run();
      return { failed: error };
    }
    return outcomes;
  }

  function settle(batch: Pending[], result: Outcome[] | { failed: unknown }): void {
    if (!Array.isArray(result)) {
      for (const item of batch) item.reject(result.failed);
      return;
    }
    batch.forEach((item, index) => {
      const outcome = result[index];
      if ('value' in outcome) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }

  function flush(): void {
    const batch = pending;
    pending = [];
    if (!connection.inTransaction && batch.every((item) => item.write)) {
      // Statements only: the whole batch runs synchronously, so nothing else can touch the
      // connection meanwhile. runBatch awaits nothing on this path, so its outcome is ready at once.
      void runBatch(batch).then((result) => settle(batch, result));
      return;
    }
    // A work awaits between its statements: no other statement may run inside this transaction
    // meanwhile. When the query builder holds no connection, close the gate to it for the batch
    // (connection-gate.ts; reads meanwhile queue behind it, see reads.ts).
    if (!connection.inTransaction && gate.free) {
      gate.close();
      runBatch(batch).then(
        (result) => {
          gate.open();
          settle(batch, result);
        },
        (error: unknown) => {
          gate.open();
          settle(batch, { failed: error });
        },
      );
      return;
    }
    // The builder holds the connection (a transaction may be open across turns): take its
    // connection lock for the whole batch, which waits for it.
    db.connection()
      .execute(() => runBatch(batch))
      .then((result) => settle(batch, result), (error: unknown) => settle(batch, { failed: error }));
  }

  function submit(write: Statement | undefined, precondition: Statement | undefined, work: Pending['work']): Promise<unknown> {
    return new Promise((resolve, reject) => {
      // setImmediate runs after the poll phase: every request read in this turn has submitted by then.
      if (pending.length === 0) setImmediate(flush);
      pending.push({ write, precondition, work, resolve, reject });
    });
  }

  return {
    write: <T>(statement: Statement, precondition?: Statement) => submit(statement, precondition, undefined) as Promise<Written<T>>,
    transact: <T>(work: (tx: SqlRunner) => Promise<T>) => submit(undefined, undefined, work) as Promise<T>,
  };
}
