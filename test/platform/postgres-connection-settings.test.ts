// What every PostgreSQL connection of a node is opened with (src/platform/db/database.ts, openPostgres):
// JIT compilation off, whatever the server's default, and the schema it was given. PostgreSQL only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openPostgres, type Database } from '../../src/platform/db/database.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/database.js';

describe.skipIf(testDialect() !== 'postgres')('PostgreSQL connection settings', () => {
  let testDb: TestDatabase;
  // The test database is opened by openPostgres with its schema; a second pool goes without one.
  let withSchema: Database;
  let withoutSchema: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    withSchema = testDb.database;
    withoutSchema = openPostgres({ url: testDb.url!, poolSize: 1 });
  });

  afterAll(async () => {
    await withSchema?.close();
    await withoutSchema?.close();
    await testDb?.drop();
  });

  const setting = async (database: Database, name: 'jit' | 'search_path') =>
    (await sql<{ setting: string }>`select current_setting(${name}) as setting`.execute(database.db)).rows[0].setting;

  it('compiles no statement with JIT, with or without a schema, on every connection of the pool', async () => {
    // The server's own default is on (PostgreSQL 11 and later): the connection's option decides.
    const serverDefault = (await sql<{ boot_val: string }>`select boot_val from pg_settings where name = 'jit'`.execute(withoutSchema.db)).rows[0].boot_val;
    expect(serverDefault).toBe('on');
    expect(await setting(withoutSchema, 'jit')).toBe('off');
    // Two statements at once on a pool with no idle connection open two connections.
    expect(await Promise.all([setting(withSchema, 'jit'), setting(withSchema, 'jit')])).toEqual(['off', 'off']);
  });

  it('keeps the schema it was given beside the JIT option', async () => {
    expect(await setting(withSchema, 'search_path')).toBe(testDb.schema);
    expect(await setting(withoutSchema, 'search_path')).not.toBe(testDb.schema);
  });
});
