// The database side of backup and restore (backup.ts, restore.ts): a SQLite snapshot through the
// driver itself (`VACUUM INTO` and `quick_check` have no query-builder form), and the few reads of a
// backup's or a target's state, on either dialect.
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/schema.js';

export type Rows = (text: string) => Array<Record<string, unknown>>;

/** Copy the live database at `source` into `target` in one read transaction (writers go on in the WAL). */
export function vacuumInto(source: string, target: string): void {
  const live = new SQLite(source, { fileMustExist: true, timeout: 10_000 });
  try {
    live.pragma('busy_timeout = 10000');
    live.prepare('VACUUM INTO ?').run(target);
  } finally {
    live.close();
  }
}

/** Check the copy with SQLite's quick_check, then read it with `read` while it is open. */
export function readCheckedCopy<T>(file: string, read: (rows: Rows) => T): T {
  const copy = new SQLite(file, { fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the database copy fails SQLite's quick_check: ${String(check)}`);
    return read((text) => copy.prepare(text).all() as Array<Record<string, unknown>>);
  } finally {
    copy.close();
  }
}

export const SNAPSHOT_READS = {
  migrations: 'select name from kysely_migration order by name',
  fingerprint: 'select fingerprint from instance_secrets_fingerprint where id = 1',
  repositories: 'select shard, disk_path from repositories order by id',
  lfsObjects: 'select oid, size from lfs_objects order by id',
  uploads: 'select project_id, secret, size from uploads order by id',
} as const;

/** Rows of one of our own fixed statements (SNAPSHOT_READS) on PostgreSQL. */
export async function postgresRows(db: Kysely<DB>, text: string): Promise<Array<Record<string, unknown>>> {
  return (await sql.raw<Record<string, unknown>>(text).execute(db)).rows;
}

export async function currentSchema(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0].schema;
}

/** Whether Kiln's migrations have run in the current schema (a database that is not empty). */
export async function hasMigrationsTable(db: Kysely<DB>): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = current_schema() and table_name = 'kysely_migration'`.execute(db);
  return rows[0].n > 0;
}
