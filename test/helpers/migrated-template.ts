// A migrated, empty database to copy for each test Kiln, built once per set of migrations.
//
// Migrating from nothing is ~75 migrations: 0.4 s on SQLite and 0.7–3 s on PostgreSQL (more under
// the load of a full run), paid by every test file that starts a Kiln, twice over (once per
// database). A copy costs a file copy on SQLite and `CREATE DATABASE … TEMPLATE` on PostgreSQL
// (tens of milliseconds). The template's name carries a digest of the migration files, so a changed
// or added migration builds a new one; Kiln's own start still runs the migrator, which then finds
// nothing to do, so a test Kiln is migrated exactly as a real one. Templates of other migration sets
// are left in place: another checkout's run may be copying its own.
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPostgres, openSqlite } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';

const MIGRATIONS = fileURLToPath(new URL('../../src/platform/db/migrations/', import.meta.url));

/** The schema every copied PostgreSQL database holds Kiln's tables in. */
export const TEMPLATE_SCHEMA = 'kiln';

function migrationsDigest(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS).sort()) {
    hash.update(name).update('\0').update(readFileSync(join(MIGRATIONS, name))).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

let sqliteTemplate: Promise<string> | null = null;

/**
 * Copies the migrated SQLite template to `file`. Workers that find no template build one each under a
 * name of their own and rename it into place: a rename is atomic, and either copy is a good template.
 */
export async function copyMigratedSqlite(file: string): Promise<void> {
  sqliteTemplate ??= (async () => {
    const template = join(tmpdir(), `kiln-test-template-${migrationsDigest()}.sqlite3`);
    if (existsSync(template)) return template;
    const building = `${template}.${process.pid}-${randomBytes(4).toString('hex')}`;
    const database = openSqlite(building, 'NORMAL', { readCache: false });
    await migrateToLatest(database);
    await database.close();
    rmSync(`${building}.migration-lock`, { force: true });
    renameSync(building, template);
    return template;
  })();
  copyFileSync(await sqliteTemplate, file);
}

function databaseUrl(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

let postgresTemplate: Promise<string> | null = null;

/** Builds the PostgreSQL template database once per server and set of migrations; answers its name. */
async function postgresTemplateName(url: string): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `kiln_test_template_${migrationsDigest()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Workers of one run (and runs side by side) build it one at a time; the others wait and find it.
      await admin.query(`select pg_advisory_lock(hashtext('kiln test template'))`);
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (rowCount === 0) {
        const building = `${name}_building`;
        await admin.query(`drop database if exists ${building} with (force)`);
        await admin.query(`create database ${building}`);
        const buildingUrl = databaseUrl(url, building);
        const setup = new pg.Client({ connectionString: buildingUrl });
        await setup.connect();
        await setup.query(`create schema ${TEMPLATE_SCHEMA}`);
        await setup.end();
        const database = openPostgres({ url: buildingUrl, schema: TEMPLATE_SCHEMA, poolSize: 2 });
        await migrateToLatest(database);
        await database.close();
        // Renamed only once complete, so a build cut short is never copied.
        await admin.query(`alter database ${building} rename to ${name}`);
      }
      await admin.query(`select pg_advisory_unlock(hashtext('kiln test template'))`);
      return name;
    } finally {
      await admin.end();
    }
  })();
  return postgresTemplate;
}

/** A new database on `url`'s server copied from the migrated template: its URL, and how to drop it. */
export async function copyMigratedPostgres(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const template = await postgresTemplateName(url);
  const name = `kiln_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(url, name),
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
