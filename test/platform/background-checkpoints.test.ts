// SQLite WAL checkpoints on a worker thread (platform/db/background-checkpoints.ts): committed pages
// reach the database file without the writing connection checkpointing, and closing stops the worker
// before the main connection, which then removes the WAL as the last connection does.
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openSqlite } from '../../src/platform/db/database.js';
import { BACKSTOP_CHECKPOINT_PAGES, WAL_RESTART_BYTES } from '../../src/platform/db/background-checkpoints.js';
import { q } from '../../src/platform/db/statements.js';
import { testDialect } from '../helpers/database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-checkpoints-'));
  dirs.push(dir);
  return join(dir, 'kiln.sqlite3');
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

// SQLite's own machinery: run once, in the SQLite project.
describe.skipIf(testDialect() !== 'sqlite')('background WAL checkpoints', () => {
  it('copy committed pages into the database file while the writer only appends to the WAL', async () => {
    const file = tempFile();
    const errors: string[] = [];
    const database = openSqlite(file, 'NORMAL', { backgroundCheckpoints: { onError: (message) => errors.push(message) } });
    try {
      const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db);
      expect(rows[0].wal_autocheckpoint).toBe(BACKSTOP_CHECKPOINT_PAGES);
      await sql`create table filler (id integer primary key, text text not null)`.execute(database.db);
      const sizeBefore = statSync(file).size;
      // ~2 MiB in a few hundred pages: far below the writer's own (backstop) checkpoint.
      await database.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 500; i += 1) await sql`insert into filler (text) values (${'x'.repeat(4000)})`.execute(trx);
      });
      expect(await until(() => statSync(file).size > sizeBefore + 1_900_000)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await database.close();
    }
    // Both connections closed: the last one checkpointed and removed the WAL.
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('are off unless asked for (tests and one-shot commands checkpoint in the writer)', async () => {
    const database = openSqlite(tempFile());
    try {
      const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db);
      expect(rows[0].wal_autocheckpoint).toBe(1000);
    } finally {
      await database.close();
    }
  });

  it('let a process whose only work left is closing the database finish closing', () => {
    // The worker does not keep a process alive, but closing must: a script that opens, writes and
    // closes runs to its last line.
    const file = tempFile();
    // The built module (dist/, built by `npm test` when sources changed), as the CLI tests use it.
    const database = fileURLToPath(new URL('../../dist/src/platform/db/database.js', import.meta.url));
    const script = `
      const { openSqlite } = await import(${JSON.stringify(database)});
      const db = openSqlite(${JSON.stringify(file)}, 'NORMAL', { backgroundCheckpoints: { onError: () => {} } });
      await db.db.schema.createTable('t').addColumn('id', 'integer').execute();
      await db.close();
      console.log('closed');`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(output.trim()).toBe('closed');
  });

  it('start the WAL over under a steady stream of commits, the writers waiting at the gate for it (not on a lock)', async () => {
    const file = tempFile();
    const errors: string[] = [];
    const database = openSqlite(file, 'NORMAL', { backgroundCheckpoints: { onError: (message) => errors.push(message) } });
    const walSize = () => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
    try {
      await sql`create table filler (id integer primary key, text text not null)`.execute(database.db);
      const text = 'x'.repeat(4000);
      let largest = 0;
      let restarts = 0;
      let written = 0;
      // Never a turn without a commit waiting: batches of the group commit and builder writes, each
      // turn, until three WAL restarts' worth was written and the WAL started over at least once (on a
      // loaded machine the worker's copying, which syncs, can lag the appends; at most ten restarts' worth).
      const enough = (3 * WAL_RESTART_BYTES) / 4000 + 2_000;
      while (written < enough || (restarts === 0 && written < 10 * enough)) {
        const before = walSize();
        await Promise.all([
          ...Array.from({ length: 20 }, () => database.groupCommit.write(q`insert into filler (text) values (${text})`)),
          database.db.insertInto('filler' as never).values({ text } as never).execute(),
        ]);
        written += 21;
        const after = walSize();
        largest = Math.max(largest, after);
        if (after < before) restarts += 1;
      }
      expect(restarts).toBeGreaterThan(0);
      // Bounded: the restart size and what the stream appends before the next look (every 100 ms, later
      // on a loaded machine) and while the quiet moment is arranged. On CI's loaded machine the worker
      // once lagged to just past the writer's backstop (64 MiB); without the restart the WAL only grows
      // (100 MB after 15 s of such writes, and this loop may write ten restarts' worth).
      expect(largest).toBeLessThan(6 * WAL_RESTART_BYTES);
      expect(errors).toEqual([]);
      const { rows } = await sql<{ n: number }>`select count(*) as n from filler`.execute(database.db);
      expect(Number(rows[0].n)).toBe(written);
    } finally {
      await database.close();
    }
  }, 60_000);
});
