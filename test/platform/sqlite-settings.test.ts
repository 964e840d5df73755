// The serving SQLite connection's settings (platform/db/database.ts, docs/decisions.md): each one is a
// durability or speed decision that a refactoring could drop without any other test noticing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openSqlite, type Database } from '../../src/platform/db/database.js';
import { testDialect } from '../helpers/database.js';

describe.runIf(testDialect() === 'sqlite')('the serving SQLite connection', () => {
  let dir: string;
  let database: Database;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kiln-sqlite-settings-'));
    database = openSqlite(join(dir, 'kiln.sqlite3'));
  });
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function pragma(name: string): Promise<unknown> {
    const { rows } = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(database.db);
    return Object.values(rows[0]!)[0];
  }

  it('is in WAL mode with synchronous=NORMAL, foreign keys on and a 64 MiB page cache', async () => {
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('synchronous')).toBe(1);
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('cache_size')).toBe(-65536);
  });

  it('keeps temporary storage (a savepoint sub-journal) in memory', async () => {
    expect(await pragma('temp_store')).toBe(2);
  });
});
