// Group commit: the batched writes of a write-per-request hot path (the alert endpoint, the OAuth
// refresh grant), as `deps.groupCommit`: one statement (`write`, optionally under a precondition) or
// one transaction of raw statements (`transaction`, a "work"), committed before the promise resolves.
//
// Why (SQLite): a commit costs more than the statements it commits. Measured on this project's
// machine: one grouping UPDATE as its own transaction ~18 µs; ten sharing a transaction ~11 µs each;
// an append of a narrow row 14 µs alone and ~2.4 µs in tens (the locks, the WAL frames and the commit
// are the cost, not the SQL). So the writes and works submitted in the same turn of the event loop
// run in ONE transaction, committed before any of their promises resolves: a caller that answers
// after its write resolved still only acknowledges committed data (a `kill -9` loses nothing that was
// answered). Each sees the ones submitted before it, exactly as if each had been committed alone, and
// each fails alone: a failed statement is undone by SQLite, a work that throws by its savepoint.
// PostgreSQL has a pool and no such batching: each write and work is its own statement or transaction.
//
// A write may name a precondition, a read that must return a row for the write to run. Writes that
// share one precondition object check it once per batch, not once each: the hot path's writes all
// hold only while the alert integration is as remembered, and that check costs half the write.
//
// The contract of a work: it uses only its `tx`, and awaits nothing else that touches the database.
// Anything else (deps.db, deps.reads, another group-commit call) throws at once (work-scope.ts).
import { CompiledQuery, type Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { DB } from './schema.js';
import { builderTx, postgresText, sqliteText, type Statement, type Tx, type Written } from './statements.js';
import type { ConnectionGate } from './connection-gate.js';
import type { WorkScope } from './work-scope.js';

export interface GroupCommit {
  /**
   * One writing statement, committed when the promise resolves. Writes submitted together may run in
   * any order (concurrently, on PostgreSQL's pool): none may depend on another. Inside a transaction
   * use the transaction's `all` instead.
   *
   * With a `precondition` (a read), the write runs only if that read returns a row, else nothing is
   * written (`changes` 0). Pass the same precondition object for as long as it asks the same thing:
   * on SQLite it is checked once for all the writes of a batch that share it. Such a write must not
   * change what any precondition reads.
   */
  write<T>(statement: Statement, precondition?: Statement): Promise<Written<T>>;
  /**
   * One transaction of raw statements (a work), committed when the promise resolves, for a hot path
   * that writes several rows; undone alone if `work` throws. `work` must use only `tx` and await
   * nothing else that touches the database (see the top of this file).
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}

const REFUSED = 'deps.groupCommit was used';

export function postgresGroupCommit(db: Kysely<DB>, works: WorkScope): GroupCommit {
  return {
    // Two statements, not one transaction: a change that commits between them is ordered after
    // this write, as it would be had it committed a moment later.
    async write<T>(written: Statement, precondition?: Statement): Promise<Written<T>> {
      works.refuse(REFUSED);
      if (precondition && (await db.executeQuery(postgresQuery(precondition))).rows.length === 0) return { rows: [], changes: 0 };
      const result = await db.executeQuery<T>(postgresQuery<T>(written));
      return { rows: result.rows, changes: Number(result.numAffectedRows ?? result.rows.length) };
    },
    async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      works.refuse(REFUSED);
      return db.transaction().execute((trx) => works.run(() => work(builderTx(trx))));
    },
  };
}

function postgresQuery<T>(statement: Statement): CompiledQuery<T> {
  return CompiledQuery.raw(postgresText(statement.strings), statement.values) as CompiledQuery<T>;
}

type Outcome = { value: unknown } | { error: unknown };

interface Pending {
  /** A single statement, run synchronously, or a work over the transaction. */
  write?: Statement;
  precondition?: Statement;
  work?: (tx: Tx) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** What the statement did, between running it and the commit (runStatements). */
  outcome?: Outcome;
}

function isStatement(item: Pending): boolean {
  return item.write !== undefined;
}

/** `gate` keeps the query builder off the connection during a batch with works; `prepare` is the connection's statement cache. */
export function sqliteGroupCommit(
  db: Kysely<DB>,
  connection: SQLite.Database,
  gate: ConnectionGate,
  works: WorkScope,
  prepare: (text: string) => SQLite.Statement,
): GroupCommit {
  // IMMEDIATE takes the write lock up front, so no statement of the batch can meet SQLITE_BUSY halfway.
  const begin = connection.prepare('begin immediate');
  const commit = connection.prepare('commit');
  const rollback = connection.prepare('rollback');
  const savepoint = connection.prepare('savepoint work');
  const release = connection.prepare('release work');
  const undo = connection.prepare('rollback to work');
  let pending: Pending[] = [];
  const NOT_WRITTEN: Written<unknown> = Object.freeze({ rows: Object.freeze([]), changes: 0 });

  // Prepared statements by template object (each call site's own), one look-up where the text and
  // then the connection's statement cache were two.
  const prepared = new WeakMap<TemplateStringsArray, SQLite.Statement>();
  function preparedOf(strings: TemplateStringsArray): SQLite.Statement {
    let statement = prepared.get(strings);
    if (statement === undefined) {
      statement = prepare(sqliteText(strings));
      prepared.set(strings, statement);
    }
    return statement;
  }

  function execute(written: Statement): Written<unknown> {
    const statement = preparedOf(written.strings);
    if (statement.reader) {
      const rows = statement.all(...written.values);
      return { rows, changes: rows.length };
    }
    // better-sqlite3 wants run() for a write without RETURNING; it has no rows to give.
    return { rows: NOT_WRITTEN.rows, changes: statement.run(...written.values).changes };
  }

  // What a work sees: the batch's transaction. Statements run synchronously; the promise is the
  // same interface as the query builder's transactions (PostgreSQL) so a work is written once.
  const tx: Tx = { all: <T>(statement: Statement) => Promise.resolve(execute(statement).rows as readonly T[]) };

  /** Whether each precondition held, for the writes of the current batch since its last work. */
  const held = new Map<Statement, boolean>();

  function holds(precondition: Statement): boolean {
    let result = held.get(precondition);
    if (result === undefined) {
      result = preparedOf(precondition.strings).get(...precondition.values) !== undefined;
      held.set(precondition, result);
    }
    return result;
  }

  function runWrite(write: Statement, precondition: Statement | undefined): Outcome {
    // Writes under a precondition must not change what preconditions read (GroupCommit.write); any other
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
      const value = await works.run(() => work(tx));
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

  /**
   * A batch of statements only, synchronously (nothing else can touch the connection meanwhile), each
   * settled once the transaction committed: the hot path's batch, without the outcome list and the
   * promise of runBatch.
   */
  function runStatements(batch: Pending[]): void {
    held.clear();
    try {
      begin.run();
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    for (const item of batch) {
      item.outcome = runWrite(item.write!, item.precondition);
      // Only a few errors (I/O, full disk) make SQLite roll the whole transaction back, and then
      // nothing of this batch may be reported as written.
      if ('error' in item.outcome && !connection.inTransaction) {
        for (const failed of batch) failed.reject(item.outcome.error);
        return;
      }
    }
    try {
      commit.run();
    } catch (error) {
      if (connection.inTransaction) rollback.run();
      for (const item of batch) item.reject(error);
      return;
    }
    for (const item of batch) {
      const outcome = item.outcome!;
      if ('value' in outcome) item.resolve(outcome.value);
      else item.reject(outcome.error);
    }
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
    // Closed with no transaction open: the WAL is being started over (background-checkpoints.ts).
    // The batch waits for it, and takes what is submitted meanwhile.
    if (gate.closed && !connection.inTransaction) {
      void gate.opened().then(flush);
      return;
    }
    const batch = pending;
    pending = [];
    if (!connection.inTransaction && batch.every(isStatement)) {
      // Statements only: the whole batch runs synchronously, so nothing else can touch the
      // connection meanwhile.
      runStatements(batch);
      return;
    }
    // A work awaits between its statements: no other statement may run inside this transaction
    // meanwhile. When the query builder holds no connection, close the gate to it for the batch
    // (connection-gate.ts; reads meanwhile queue behind it, see read-cache.ts).
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
    try {
      works.refuse(REFUSED);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      // setImmediate runs after the poll phase: every request read in this turn has submitted by then.
      if (pending.length === 0) setImmediate(flush);
      // One shape for every item (`outcome` included), so the loops over a batch stay monomorphic.
      pending.push({ write, precondition, work, resolve, reject, outcome: undefined });
    });
  }

  return {
    write: <T>(statement: Statement, precondition?: Statement) => submit(statement, precondition, undefined) as Promise<Written<T>>,
    transaction: <T>(work: (tx: Tx) => Promise<T>) => submit(undefined, undefined, work) as Promise<T>,
  };
}
