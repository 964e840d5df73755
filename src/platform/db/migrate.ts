// Migrations live in ./migrations, named by date, frozen once landed, and never import application code.
// On PostgreSQL they run under an advisory lock so several nodes starting together do not race.
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { Database } from './database.js';

const folder = join(fileURLToPath(new URL('.', import.meta.url)), 'migrations');

class FolderProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const names = (await readdir(folder)).filter((name) => /^\d{8}T\d{4}-[\w-]+\.(js|ts)$/.test(name) && !name.endsWith('.d.ts'));
    const migrations: Record<string, Migration> = {};
    for (const name of names.sort()) {
      migrations[name.replace(/\.(js|ts)$/, '')] = (await import(pathToFileURL(join(folder, name)).href)) as Migration;
    }
    return migrations;
  }
}

/** Whether `error` is PostgreSQL's "schema … does not exist" about a schema other than `own`. */
function droppedMeanwhile(error: unknown, own: string | undefined): boolean {
  const dropped = /^schema "(.+)" does not exist$/.exec(String((error as Error | undefined)?.message ?? ''));
  return dropped !== null && dropped[1] !== own;
}

/** PostgreSQL's own account of a failed statement (the server routine that refused it, and where): a failure outside any one migration names no migration. */
function serverDetail(error: unknown): string {
  const fields = error as { routine?: string; where?: string; schema?: string } | undefined;
  const said = [fields?.routine && `routine ${fields.routine}`, fields?.schema && `schema ${fields.schema}`, fields?.where && `where ${fields.where}`].filter(Boolean);
  return said.length > 0 ? ` (${said.join('; ')})` : '';
}

const ADVISORY_LOCK_KEY = 74_105_108; // "Kil"

/**
 * Kysely takes no lock on SQLite, so two processes migrating one file at once (two `kiln migrate`,
 * or `kiln serve` and `kiln worker` starting together) would both run every migration. An exclusive
 * transaction on a separate lock file serialises them across processes; the operating system drops
 * the lock if the holder dies, so a crash never leaves it stuck.
 */
async function withSqliteMigrationLock<T>(file: string | undefined, work: () => Promise<T>): Promise<T> {
  if (!file) return work();
  const lock = new SQLite(`${file}.migration-lock`, { timeout: 120_000 });
  try {
    lock.exec('begin exclusive');
    return await work();
  } finally {
    if (lock.inTransaction) lock.exec('rollback');
    lock.close();
  }
}

/** Applies the pending migrations; returns the names of those this call applied (none: up to date). */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const run = async (db: Kysely<any>, schema?: string): Promise<string[]> => {
    // Features land migrations from parallel branches, so a later-merged migration may sort earlier.
    // On PostgreSQL the bookkeeping tables are pinned to the current schema: without that, Kysely
    // sees another schema's kysely_migration table in the same database, skips creating its own,
    // and fails (several installs or test schemas in one database).
    const migrator = new Migrator({ db, provider: new FolderProvider(), allowUnorderedMigrations: true, migrationTableSchema: schema });
    let { error, results } = await migrator.migrateToLatest();
    // Kysely's Migrator looks for its tables by listing every table of every schema in the database,
    // asking has_schema_privilege(name) of each schema it saw: a schema that another install (or test)
    // drops meanwhile fails that listing. Nothing was applied then; ask again, a little later each time.
    for (let attempt = 1; attempt <= 10 && droppedMeanwhile(error, schema); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      ({ error, results } = await migrator.migrateToLatest());
    }
    const failed = results?.find((result) => result.status === 'Error');
    if (error || failed) throw new Error(`migration ${failed?.migrationName ?? '(outside any migration)'} failed: ${String(error)}${serverDetail(error)}`);
    return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
  };
  if (database.dialect === 'sqlite') return withSqliteMigrationLock(database.file, () => run(database.db));
  // Hold a session-level advisory lock on one pooled connection for the whole migration.
  return database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${ADVISORY_LOCK_KEY}, hashtext(current_schema()))`.execute(connection);
    try {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(connection);
      return await run(connection, rows[0].schema);
    } finally {
      await sql`select pg_advisory_unlock(${ADVISORY_LOCK_KEY}, hashtext(current_schema()))`.execute(connection);
    }
  });
}
