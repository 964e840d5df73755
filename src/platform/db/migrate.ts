// Migrations live in ./migrations, named by date, frozen once landed, and never import application code.
// On PostgreSQL they run under an advisory lock so several nodes starting together do not race.
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
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

/**
 * Whether a run failed in Kysely's listing of every schema's tables (before any migration: no results)
 * because another install in the database dropped or changed its own tables meanwhile. The listing
 * asks has_schema_privilege(schema) and pg_get_serial_sequence(table, column) of every row its catalog
 * scan saw, and both look the names up again: "schema … does not exist", "relation … does not exist",
 * or "column … of relation … does not exist" for a table dropped in between. Nothing was applied then.
 * Not a race when it is this install's own schema that is gone.
 */
function listingRaced(outcome: MigrationResultSet, own: string | undefined): boolean {
  if (outcome.results !== undefined || !outcome.error) return false;
  const message = String((outcome.error as Error).message ?? '');
  return message !== `schema "${own}" does not exist` && /^(schema|relation|column) "[^"]+" (of relation "[^"]+" )?does not exist$/.test(message);
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
    let outcome = await migrator.migrateToLatest();
    for (let attempt = 1; attempt <= 10 && listingRaced(outcome, schema); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      outcome = await migrator.migrateToLatest();
    }
    const { error, results } = outcome;
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
