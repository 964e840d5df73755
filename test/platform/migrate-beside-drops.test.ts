// Migrating one schema while another install in the same PostgreSQL database drops its schemas or
// tables (as test files do beside each other): Kysely's Migrator lists every schema's tables to find its
// own, and that listing fails when a schema, table or column it saw is dropped before it looks the
// name up again; migrate.ts asks again.
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPostgres } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { createTestDatabase, testDialect } from '../helpers/database.js';

describe.skipIf(testDialect() !== 'postgres')('migrating beside dropped schemas', () => {
  it('applies every migration while another connection drops schemas of the same database', async () => {
    const testDb = await createTestDatabase();
    await testDb.database.close();
    const url = testDb.url!;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const others = Array.from({ length: 40 }, (_, index) => `${testDb.schema}_other_${index}`);
    const database = openPostgres({ url, schema: testDb.schema!, poolSize: 2 });
    try {
      for (const other of others) await admin.query(`create schema ${other}; create table ${other}.t (a int, b int)`);
      // The drops start with the migration, one after another, while its first listings run.
      const dropping = (async () => {
        for (const other of others) await admin.query(`drop schema ${other} cascade`);
      })();
      const applied = await migrateToLatest(database);
      await dropping;
      expect(applied.length).toBeGreaterThan(50);
      expect(await migrateToLatest(database)).toEqual([]);
    } finally {
      for (const other of others) await admin.query(`drop schema if exists ${other} cascade`);
      await admin.end();
      await database.close();
      await testDb.drop();
    }
  }, 120_000);

  it('applies every migration while another connection drops the tables of its schema', async () => {
    const testDb = await createTestDatabase();
    await testDb.database.close();
    const url = testDb.url!;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const other = `${testDb.schema}_tables`;
    const columns = Array.from({ length: 30 }, (_, index) => `c${index} text`).join(', ');
    const tables = Array.from({ length: 60 }, (_, index) => `${other}.t${index}`);
    const database = openPostgres({ url, schema: testDb.schema!, poolSize: 2 });
    try {
      await admin.query(`create schema ${other}; ${tables.map((table) => `create table ${table} (${columns});`).join(' ')}`);
      // The schema stays: what disappears under the listing is a table it saw, and that table's columns.
      const dropping = (async () => {
        for (const table of tables) await admin.query(`drop table ${table}`);
      })();
      const applied = await migrateToLatest(database);
      await dropping;
      expect(applied.length).toBeGreaterThan(50);
    } finally {
      await admin.query(`drop schema if exists ${other} cascade`);
      await admin.end();
      await database.close();
      await testDb.drop();
    }
  }, 120_000);
});
