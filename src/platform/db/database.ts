// One Kysely factory for both dialects: SQLite (embedded default) and PostgreSQL (scale-out).
import { Kysely, sql, type Transaction } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, ensurePrivateFile } from '../data-dir.js';
import type { DB } from './schema.js';
import { postgresReads, sqliteReads, type Reads } from './reads.js';
import { postgresGroupCommit, sqliteGroupCommit, type GroupCommit } from './group-commit.js';
import { builderTx, type DbTransaction } from './statements.js';
import { ConnectionGate, GatedSqliteDialect, GuardedPostgresDialect } from './connection-gate.js';
import { WorkScope } from './work-scope.js';
import { BoundedMap } from '../bounded-map.js';
import { startBackgroundCheckpoints } from './background-checkpoints.js';
import { withCompiledRows } from './row-statement.js';
import { preparingClient, StatementNames } from './prepared-statements.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Reads outside the query builder, and the row cache of the hot look-ups (reads.ts). */
  reads: Reads;
  /** Batched writes for write-per-request hot paths (group-commit.ts). */
  groupCommit: GroupCommit;
  /** The SQLite file (absent for PostgreSQL and in-memory databases). */
  file?: string;
  close(): Promise<void>;
}

export type Executor = Kysely<DB> | Transaction<DB>;
export type { DbTransaction };

// int8 (COUNT, BIGINT millisecond timestamps) arrives as a string from pg by default; every value we
// store fits in a double, so parse it as a number once here.
pg.types.setTypeParser(20, (value) => Number(value));

export interface PostgresOptions {
  url: string;
  schema?: string; // tests give every file its own schema
  poolSize?: number;
  /** How long opening a connection may take before it fails as unavailable (a server that does not answer). */
  connectTimeoutMs?: number;
  /** What the server's pg_stat_activity calls this node's connections. */
  applicationName?: string;
  /** Told when a connection the pool holds fails between statements (the server went away). */
  onConnectionError?: (error: Error) => void;
}

/** Opening a connection that takes longer fails as unavailable (a 503), rather than hang. */
export const CONNECT_TIMEOUT_MS = 2_000;
/** Waiting this long for a free connection of a busy pool fails the same way. */
export const POOL_WAIT_MS = 10_000;

export function openPostgres(options: PostgresOptions): Database {
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // JIT off: PostgreSQL compiles a statement whose estimated cost passes jit_above_cost, and Kiln's
    // statements are short reads whose estimates can pass it (a bounded count of 10,001 issues: 85 ms of
    // compiling for 8 ms of running; docs/performance.md, "PostgreSQL: where a request's time goes").
    options: ['-c jit=off', ...(options.schema ? [`-c search_path=${options.schema}`] : [])].join(' '),
    // The pool's timeout bounds the wait for a free connection; each new connection has its own, shorter.
    connectionTimeoutMillis: Math.max(POOL_WAIT_MS, connectTimeoutMs),
    // Statements run again are named, so each connection plans them once (prepared-statements.ts).
    Client: preparingClient(new StatementNames(), connectTimeoutMs),
    // A server that vanished without closing the socket (a failover, a cut network) is noticed.
    keepAlive: true,
    application_name: options.applicationName ?? 'kiln',
  });
  // The server may end any connection: a restart, a failover, pg_terminate_backend. node-postgres
  // reports it as an 'error' event on the client (and on the pool for an idle one); an event nobody
  // listens to ends the process. The pool drops the broken client (pg-pool checks it on release);
  // the statement that was running fails on its own and is answered 503 (unavailable.ts).
  const connectionError = (error: Error) => options.onConnectionError?.(error);
  pool.on('error', connectionError);
  pool.on('connect', (client) => client.on('error', connectionError));
  const works = new WorkScope();
  const db = new Kysely<DB>({ dialect: new GuardedPostgresDialect({ pool }, works) });
  return { db, dialect: 'postgres', reads: postgresReads(db), groupCommit: postgresGroupCommit(db, works), close: () => db.destroy() };
}

export interface SqliteOptions {
  /** false: the row cache keeps nothing (KILN_READ_CACHE=false). */
  readCache?: boolean;
  /** Checkpoint the WAL on a worker thread (background-checkpoints.ts), reporting its failures here. */
  backgroundCheckpoints?: { onError(message: string): void };
}

export function openSqlite(file: string, synchronous: 'NORMAL' | 'FULL' = 'NORMAL', options: SqliteOptions = {}): Database {
  if (file !== ':memory:') {
    // A directory made here is private; an existing one is the caller's (ensurePrivateDirectory).
    mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    // SQLite creates the file 0644 and its -wal and -shm with the file's mode: create it 0600 first.
    ensurePrivateFile(file, [`${file}-wal`, `${file}-shm`, `${file}-journal`]);
  }
  const connection = new SQLite(file);
  // WAL + synchronous=NORMAL: a commit survives kill -9 (docs/decisions.md, SQLite durability).
  connection.pragma('journal_mode = WAL');
  connection.pragma(`synchronous = ${synchronous}`);
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  // 64 MiB page cache instead of the 2 MiB default: writes keyed by random digests (tokens, codes)
  // touch random index pages; with 100k tokens a refresh rotation cost 1.4 ms CPU, with this 0.8 ms.
  connection.pragma('cache_size = -65536');
  // Temporary storage in memory: above all the sub-journal of a savepoint, which keeps the pages a
  // group-commit work changes that its batch had already changed (group-commit.ts undoes a failed
  // work alone). As a temporary file it cost a new alert's job insert ~32 µs of CPU against ~8.5 µs
  // (alerts bench with a webhook, chat and mail). Kiln's temporary tables and sorts are small
  // (paginated); a backup's VACUUM INTO runs on a connection of its own.
  connection.pragma('temp_store = memory');
  const statements = withStatementCache(connection, 500);
  const gate = new ConnectionGate();
  const works = new WorkScope();
  const beginImmediate = connection.prepare('begin immediate');
  const db = new Kysely<DB>({ dialect: new GatedSqliteDialect({ database: statements }, gate, works, () => beginImmediate.run()) });
  const onDisk = file !== ':memory:';
  const checkpoints = onDisk && options.backgroundCheckpoints ? startBackgroundCheckpoints(connection, file, gate, options.backgroundCheckpoints.onError) : undefined;
  return {
    db,
    dialect: 'sqlite',
    reads: sqliteReads(db, connection, (text) => statements.prepare(text), works, options.readCache ?? true),
    groupCommit: sqliteGroupCommit(db, connection, gate, works, (text) => statements.prepare(text)),
    file: onDisk ? file : undefined,
    async close() {
      // The worker's connection first: the last connection to close checkpoints and removes the WAL.
      await checkpoints?.stop();
      await db.destroy();
    },
  };
}

// DDL: a statement's columns may change with it (`select *`), so the rows compiled for it must go.
const DDL = /^\s*(?:create|alter|drop)\b/i;

/**
 * Kysely's SQLite driver prepares every query anew, and preparing cost more CPU than running the
 * query on the API's hot paths (measured: ~60% of a project GET). Prepared statements are reusable,
 * so keep the most recent ones by SQL text. Kysely runs them with all()/run() only, never holding
 * an iterator open, so sharing one statement between calls is safe.
 */
export function withStatementCache(connection: SQLite.Database, size = 500) {
  // Per connection; the oldest prepared out first. Not least-recently-used: moving an entry on every
  // hit cost more per statement (~0.3 µs, CPU profiles of the alert bench) than an evicted hot
  // statement costs to prepare again once, at the end of the line, after `size` new texts.
  const cache = new BoundedMap<string, SQLite.Statement>(size);
  return {
    close: () => connection.close(),
    prepare(text: string): SQLite.Statement {
      let statement = cache.get(text);
      if (statement === undefined) {
        statement = connection.prepare(text);
        if (statement.reader) statement = withCompiledRows(statement);
        cache.set(text, statement);
      }
      // After DDL a statement's columns may differ (`select *`): drop the compiled rows
      // (row-statement.ts) of every statement but this one.
      if (!statement.readonly && DDL.test(text)) {
        cache.clear();
        cache.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * Run `work` in a transaction of the query builder; nested calls reuse the outer one. `trx` is the
 * builder and a `Tx` (`trx.all(statement)`) for the helpers shared with group-commit works.
 */
export async function inTransaction<T>(executor: Executor, work: (trx: DbTransaction) => Promise<T>): Promise<T> {
  if (executor.isTransaction) return work(builderTx(executor as Transaction<DB>));
  return (executor as Kysely<DB>).transaction().execute((trx) => work(builderTx(trx)));
}

/** Unique-violation detection for both drivers: the database enforces invariants, callers map this to 400/409. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export async function ping(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}
