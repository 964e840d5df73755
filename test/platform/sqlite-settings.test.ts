// The serving SQLite connection's settings (platform/db/database.ts, docs/decisions.md): each one is a
// durability, speed or correctness decision that a refactoring could drop without any other test noticing.
// The statement counter is imported first: it wraps better-sqlite3's statements before any database opens.
import { statementsDuring } from './statement-counter.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { holdTransaction } from './process-helpers.js';
import { inTransaction, openSqlite, type Database } from '../../src/platform/db/database.js';
import { q } from '../../src/platform/db/statements.js';
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

  // `kiln worker` beside `kiln serve` on one file: a transaction that reads before it writes, begun
  // while the other process holds the write lock, must wait for that commit and then see it. Begun
  // DEFERRED, its first write failed at once with SQLITE_BUSY, whatever the busy timeout.
  it('begins transactions IMMEDIATE: one that reads, then writes, waits for another process and sees its commit', async () => {
    await sql`create table if not exists other_process (name text not null)`.execute(database.db);
    const file = join(dir, 'kiln.sqlite3');
    const other = holdTransaction('sqlite', file, ["insert into other_process values ('other')"], 300);
    await other.held;
    const seen = await inTransaction(database.db, async (trx) => {
      const rows = await trx.selectFrom('other_process' as never).selectAll().execute();
      await sql`insert into other_process values ('this')`.execute(trx);
      return rows;
    });
    expect(seen).toEqual([{ name: 'other' }]);
    await other.exited;
  });

  // A builder transaction (BEGIN IMMEDIATE … COMMIT) that wrote other tables leaves the row cache's
  // look-ups kept: only a write to a table a look-up read moves it.
  it('keeps the row cache across a builder transaction that wrote other tables', async () => {
    await sql`create table if not exists kept_reads (id integer primary key, name text not null)`.execute(database.db);
    await sql`create table if not exists other_writes (name text not null)`.execute(database.db);
    await sql`insert or replace into kept_reads values (1, 'kept')`.execute(database.db);
    const keptRead = () => database.reads.cached(q`select name from kept_reads where id = ${1}`, ['kept_reads']);
    expect(await keptRead()).toEqual([{ name: 'kept' }]);
    await inTransaction(database.db, async (trx) => {
      await sql`insert into other_writes values ('elsewhere')`.execute(trx);
    });
    const ran = await statementsDuring(async () => expect(await keptRead()).toEqual([{ name: 'kept' }]));
    expect(ran.filter((text) => text.includes('kept_reads'))).toEqual([]);
  });
});
