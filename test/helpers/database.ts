// Each test file gets its own database: a temporary SQLite file, or (KILN_TEST_DIALECT=postgres) a
// fresh schema in KILN_TEST_DATABASE_URL that is dropped afterwards (or, already migrated, a copy of a
// template database on that server, dropped afterwards).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres, openSqlite, type Database } from '../../src/platform/db/database.js';
import { copyMigratedPostgres, copyMigratedSqlite, TEMPLATE_SCHEMA } from './migrated-template.js';

export type TestDialect = 'sqlite' | 'postgres';

export function testDialect(): TestDialect {
  return process.env.KILN_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestDatabase {
  database: Database;
  dataDir: string;
  /** For a second process or app on the same database. */
  url: string | null;
  schema: string | null;
  reopen(): Database;
  drop(): Promise<void>;
}

/**
 * `readCache: false` opens the database as KILN_READ_CACHE=false does (nothing kept, every read runs).
 * `migrated: true` starts from a copy of an already migrated database (migrated-template.ts) instead of
 * an empty one; on PostgreSQL that copy is a database of its own rather than a schema in the test one.
 */
export async function createTestDatabase(options: { readCache?: boolean; migrated?: boolean } = {}): Promise<TestDatabase> {
  const readCache = options.readCache ?? true;
  const dataDir = mkdtempSync(join(tmpdir(), 'kiln-test-'));
  if (testDialect() === 'sqlite') {
    const file = join(dataDir, 'kiln.sqlite3');
    if (options.migrated) await copyMigratedSqlite(file);
    return {
      database: openSqlite(file, 'NORMAL', { readCache }),
      dataDir,
      url: null,
      schema: null,
      reopen: () => openSqlite(file, 'NORMAL', { readCache }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const url = process.env.KILN_TEST_DATABASE_URL;
  if (!url) throw new Error('KILN_TEST_DIALECT=postgres needs KILN_TEST_DATABASE_URL');
  if (options.migrated) {
    const copy = await copyMigratedPostgres(url);
    const open = () => openPostgres({ url: copy.url, schema: TEMPLATE_SCHEMA, poolSize: 5 });
    return {
      database: open(),
      dataDir,
      url: copy.url,
      schema: TEMPLATE_SCHEMA,
      reopen: open,
      drop: async () => {
        await copy.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    database: openPostgres({ url, schema, poolSize: 5 }),
    dataDir,
    url,
    schema,
    reopen: () => openPostgres({ url, schema, poolSize: 5 }),
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
