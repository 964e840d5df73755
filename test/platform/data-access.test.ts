// The data-access layer beside the query builder (platform/db/README.md): the row cache, whose rows
// must never outlive a change, whoever made it (this connection, another process on the same
// database, a rolled-back transaction); the group commit, its writes and works; and the contract of
// a work, which fails at once instead of waiting forever.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/database.js';
import { q } from '../../src/platform/db/statements.js';
import { inTransaction, openSqlite, type Database } from '../../src/platform/db/database.js';
import { InsideWorkError } from '../../src/platform/db/work-scope.js';
import { statementsDuring } from './statement-counter.js';

let testDb: TestDatabase;
let database: Database;
let other: Database;

const valueOf = async (db: Database, id: number) =>
  (await db.reads.cached<{ v: string }>(q`select v from reads_probe where id = ${id}`, ['reads_probe']))[0]?.v;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = testDb.database;
  await sql`create table reads_probe (id integer primary key, v text not null)`.execute(database.db);
  await sql`insert into reads_probe (id, v) values (1, 'one'), (2, 'two')`.execute(database.db);
  other = testDb.reopen();
});

afterAll(async () => {
  await other.close();
  await database.close();
  await testDb.drop();
});

describe('the row cache and the group commit', () => {
  it('binds values by position and keeps statements with different values apart', async () => {
    expect(await valueOf(database, 1)).toBe('one');
    expect(await valueOf(database, 2)).toBe('two');
    expect(await valueOf(database, 3)).toBeUndefined();
    const rows = await database.reads.all<{ id: number }>(q`select id from reads_probe where id > ${0} and v <> ${'two'} order by id`);
    expect(rows.map((row) => Number(row.id))).toEqual([1]);
  });

  it('sees a write made through the query builder on the same connection at once', async () => {
    expect(await valueOf(database, 1)).toBe('one');
    await database.db.updateTable('reads_probe' as never).set({ v: 'uno' } as never).where('id' as never, '=', 1 as never).execute();
    expect(await valueOf(database, 1)).toBe('uno');
  });

  it('sees a write committed by another connection (another process) at once', async () => {
    expect(await valueOf(database, 2)).toBe('two');
    await sql`update reads_probe set v = 'dos' where id = 2`.execute(other.db);
    expect(await valueOf(database, 2)).toBe('dos');
    await sql`insert into reads_probe (id, v) values (3, 'tres')`.execute(other.db);
    expect(await valueOf(database, 3)).toBe('tres');
  });

  it('never returns rows of a transaction that is still open or rolled back', async () => {
    let during: Promise<string | undefined> | undefined;
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`update reads_probe set v = 'never' where id = 1`.execute(trx);
        during = valueOf(database, 1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await during).toBe('uno');
    expect(await valueOf(database, 1)).toBe('uno');
  });

  it.runIf(testDialect() === 'sqlite')('shares cached rows frozen, so no caller can change them for another', async () => {
    const [row] = await database.reads.cached<{ v: string }>(q`select v from reads_probe where id = ${1}`, ['reads_probe']);
    expect(() => {
      (row as { v: string }).v = 'changed';
    }).toThrow(TypeError);
    expect(await valueOf(database, 1)).toBe('uno');
  });

  it.runIf(testDialect() === 'sqlite')('keeps a look-up until its table is written, whoever wrote it: a raw statement, the group commit, a delete', async () => {
    // The statements a look-up ran, besides the checks for other processes' commits.
    const ran = async (id: number) => (await statementsDuring(() => valueOf(database, id))).filter((text) => text.includes('reads_probe'));
    expect(await valueOf(database, 1)).toBe('uno');
    expect(await ran(1)).toEqual([]);
    // A write to another table leaves it kept.
    await sql`create table if not exists reads_other (id integer primary key)`.execute(database.db);
    expect(await valueOf(database, 1)).toBe('uno');
    await sql`insert into reads_other (id) values (1)`.execute(database.db);
    expect(await ran(1)).toEqual([]);
    await database.groupCommit.write(q`update reads_probe set v = ${'un'} where id = ${1}`);
    expect(await valueOf(database, 1)).toBe('un');
    await database.groupCommit.write(q`insert into reads_probe (id, v) values (${9}, ${'nine'})`);
    expect(await valueOf(database, 9)).toBe('nine');
    await sql`delete from reads_probe where id = 9`.execute(database.db);
    expect(await valueOf(database, 9)).toBeUndefined();
    await sql`update reads_probe set v = 'uno' where id = 1`.execute(database.db);
  });

  it.runIf(testDialect() === 'sqlite')('with the cache turned off (KILN_READ_CACHE=false) every look-up runs', async () => {
    const uncached = openSqlite(database.file as string, 'NORMAL', { readCache: false });
    try {
      const [row] = await uncached.reads.cached<{ v: string }>(q`select v from reads_probe where id = ${1}`, ['reads_probe']);
      expect(Object.isFrozen(row)).toBe(false);
    } finally {
      await uncached.close();
    }
  });

  it('runs a writing statement with or without RETURNING, and the next cached read sees it', async () => {
    expect(await valueOf(database, 3)).toBe('tres');
    expect(await database.groupCommit.write(q`update reads_probe set v = ${'drei'} where id = ${3}`)).toEqual({ rows: [], changes: 1 });
    expect(await database.groupCommit.write(q`update reads_probe set v = ${'none'} where id = ${404}`)).toEqual({ rows: [], changes: 0 });
    expect(await valueOf(database, 3)).toBe('drei');
    const returned = await database.groupCommit.write<{ v: string }>(q`update reads_probe set v = ${'trois'} where id = ${3} returning v`);
    expect(returned.rows.map((row) => row.v)).toEqual(['trois']);
    expect(returned.changes).toBe(1);
    expect(await valueOf(database, 3)).toBe('trois');
  });

  it('commits writes submitted together before any of them resolves, each with its own rows', async () => {
    const [inserted, updated, second] = await Promise.all([
      database.groupCommit.write<{ v: string }>(q`insert into reads_probe (id, v) values (${10}, ${'a'}) returning v`),
      database.groupCommit.write<{ v: string }>(q`update reads_probe set v = v || ${'!'} where id = ${3} returning v`),
      database.groupCommit.write<{ id: number }>(q`insert into reads_probe (id, v) values (${11}, ${'c'}) returning id`),
    ]);
    expect(inserted.rows.map((row) => row.v)).toEqual(['a']);
    expect(updated.rows.map((row) => row.v)).toEqual(['trois!']);
    expect(second.rows.map((row) => Number(row.id))).toEqual([11]);
    // Committed: another connection (another process) sees every write the moment they resolved.
    const { rows } = await sql<{ id: number; v: string }>`select id, v from reads_probe where id in (3, 10, 11) order by id`.execute(other.db);
    expect(rows.map((row) => [Number(row.id), row.v])).toEqual([[3, 'trois!'], [10, 'a'], [11, 'c']]);
  });

  it('fails only the write that failed when writes were submitted together', async () => {
    const results = await Promise.allSettled([
      database.groupCommit.write(q`insert into reads_probe (id, v) values (${12}, ${'before'})`),
      database.groupCommit.write(q`insert into reads_probe (id, v) values (${10}, ${'duplicate id'})`),
      database.groupCommit.write(q`insert into reads_probe (id, v) values (${13}, ${'after'})`),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const { rows } = await sql<{ id: number; v: string }>`select id, v from reads_probe where id in (10, 12, 13) order by id`.execute(other.db);
    expect(rows.map((row) => [Number(row.id), row.v])).toEqual([[10, 'a'], [12, 'before'], [13, 'after']]);
  });

  it('never runs a write or a work inside a transaction of the query builder that is open at the time', async () => {
    let written: Promise<unknown> | undefined;
    let worked: Promise<unknown> | undefined;
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`update reads_probe set v = 'rolled back' where id = 1`.execute(trx);
        written = database.groupCommit.write(q`insert into reads_probe (id, v) values (${14}, ${'outside'})`);
        worked = database.groupCommit.transaction((tx) => tx.all(q`insert into reads_probe (id, v) values (${15}, ${'work outside'})`));
        // The transaction stays open across a turn of the event loop, as one awaiting I/O would.
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await written;
    await worked;
    const { rows } = await sql<{ id: number; v: string }>`select id, v from reads_probe where id in (1, 14, 15) order by id`.execute(other.db);
    expect(rows.map((row) => [Number(row.id), row.v])).toEqual([[1, 'uno'], [14, 'outside'], [15, 'work outside']]);
  });

  it('runs a work of several statements as one transaction, undone alone when it throws', async () => {
    const [kept, failed, write] = await Promise.allSettled([
      database.groupCommit.transaction(async (tx) => {
        await tx.all(q`insert into reads_probe (id, v) values (${20}, ${'work'})`);
        const rows = await tx.all<{ v: string }>(q`update reads_probe set v = v || ${'+'} where id = ${20} returning v`);
        return rows[0].v;
      }),
      database.groupCommit.transaction(async (tx) => {
        await tx.all(q`insert into reads_probe (id, v) values (${21}, ${'undone'})`);
        throw new Error('work failed');
      }),
      database.groupCommit.write(q`insert into reads_probe (id, v) values (${22}, ${'write'})`),
    ]);
    expect(kept).toEqual({ status: 'fulfilled', value: 'work+' });
    expect(failed).toMatchObject({ status: 'rejected', reason: { message: 'work failed' } });
    expect(write.status).toBe('fulfilled');
    const { rows } = await sql<{ id: number; v: string }>`select id, v from reads_probe where id in (20, 21, 22) order by id`.execute(other.db);
    expect(rows.map((row) => [Number(row.id), row.v])).toEqual([[20, 'work+'], [22, 'write']]);
  });

  it('runs a write under a precondition only while the precondition returns a row', async () => {
    await sql`insert into reads_probe (id, v) values (30, 'guard'), (31, 'counted')`.execute(database.db);
    const guard = q`select 1 from reads_probe where id = ${30} and v = ${'guard'}`;
    const append = () => database.groupCommit.write(q`update reads_probe set v = v || ${'+'} where id = ${31}`, guard);
    expect(await append()).toEqual({ rows: [], changes: 1 });
    // Another process changes what the precondition reads: the write no longer happens.
    await sql`update reads_probe set v = 'changed' where id = 30`.execute(other.db);
    expect(await append()).toEqual({ rows: [], changes: 0 });
    expect(await valueOf(other, 31)).toBe('counted+');
  });

  // SQLite's group commit checks a precondition once per batch; PostgreSQL runs writes submitted
  // together in any order (GroupCommit.write), so there is no batch to speak of.
  it.runIf(testDialect() === 'sqlite')('checks a shared precondition again after a write or a work without one in the same batch', async () => {
    await sql`insert into reads_probe (id, v) values (32, 'open'), (33, ''), (34, 'open')`.execute(database.db);
    const guard = q`select 1 from reads_probe where id = ${32} and v = ${'open'}`;
    const append = (mark: string) => database.groupCommit.write(q`update reads_probe set v = v || ${mark} where id = ${33}`, guard);
    // Submitted in one turn: on SQLite one batch, in this order.
    const results = await Promise.all([
      append('a'),
      database.groupCommit.write(q`update reads_probe set v = ${'closed'} where id = ${32}`),
      append('b'),
    ]);
    expect(results.map((result) => result.changes)).toEqual([1, 1, 0]);
    expect(await valueOf(other, 33)).toBe('a');

    const guard2 = q`select 1 from reads_probe where id = ${34} and v = ${'open'}`;
    const append2 = (mark: string) => database.groupCommit.write(q`update reads_probe set v = v || ${mark} where id = ${33}`, guard2);
    const afterWork = await Promise.all([
      append2('c'),
      database.groupCommit.transaction((tx) => tx.all(q`update reads_probe set v = ${'closed'} where id = ${34}`)),
      append2('d'),
    ]);
    expect([afterWork[0].changes, afterWork[2].changes]).toEqual([1, 0]);
    expect(await valueOf(other, 33)).toBe('ac');
  });

  it('keeps query-builder statements out of a work that is between two statements', async () => {
    // Another request, started outside the work, writes through the query builder while the work is
    // between two statements.
    const between = signal();
    const builderWrite = between.promise.then(() => sql`insert into reads_probe (id, v) values (41, 'kept')`.execute(database.db));
    const failed = database.groupCommit.transaction(async (tx) => {
      await tx.all(q`insert into reads_probe (id, v) values (${40}, ${'undone'})`);
      between.fire();
      // Long enough for the builder to run its statement if it could (works should not wait on
      // anything but their own statements; the gate holds even if one does).
      await new Promise((resolve) => setTimeout(resolve, 10));
      await tx.all(q`insert into reads_probe (id, v) values (${42}, ${'undone too'})`);
      throw new Error('work failed');
    });
    await expect(failed).rejects.toThrow('work failed');
    await builderWrite;
    // The work was undone alone; the builder's write ran outside it (after it, on SQLite).
    const { rows } = await sql<{ id: number; v: string }>`select id, v from reads_probe where id in (40, 41, 42) order by id`.execute(other.db);
    expect(rows.map((row) => [Number(row.id), row.v])).toEqual([[41, 'kept']]);
  });

  it('lets no read see a work before it commits', async () => {
    let seenDuring: string | undefined;
    // Another request, started outside the work, reads while the work is between two statements.
    const between = signal();
    const reading = between.promise.then(() => valueOf(database, 20)).then((value) => (seenDuring = value));
    await database.groupCommit.transaction(async (tx) => {
      await tx.all(q`update reads_probe set v = ${'in progress'} where id = ${20}`);
      between.fire();
      await Promise.resolve();
      await tx.all(q`update reads_probe set v = ${'done'} where id = ${20}`);
    });
    await reading;
    // SQLite's read waits for the batch's commit; PostgreSQL's sees a committed row, before or after.
    if (testDialect() === 'sqlite') expect(seenDuring).toBe('done');
    else expect(['work+', 'done']).toContain(seenDuring);
  });
});

describe('a group-commit work', () => {
  // Before the check, each of these waited forever on SQLite (the statement queued behind the batch
  // that waits for the work) and ran outside the work's transaction on PostgreSQL.
  const refusals: [string, () => Promise<unknown>][] = [
    ['the query builder (deps.db)', () => database.db.selectFrom('reads_probe' as never).selectAll().execute()],
    ['a raw statement through the query builder', () => sql`update reads_probe set v = 'outside' where id = 1`.execute(database.db)],
    ['a transaction of the query builder', () => database.db.transaction().execute(async () => undefined)],
    ['a read outside the builder (deps.reads)', () => database.reads.all(q`select v from reads_probe where id = ${1}`)],
    ['a look-up of the row cache', () => valueOf(database, 1)],
    ['another group-commit write', () => database.groupCommit.write(q`update reads_probe set v = ${'outside'} where id = ${1}`)],
    ['another group-commit work', () => database.groupCommit.transaction((tx) => tx.all(q`select 1`))],
  ];

  for (const [name, use] of refusals) {
    it(`fails at once when it uses ${name}, and is undone`, async () => {
      const work = database.groupCommit.transaction(async (tx) => {
        await tx.all(q`insert into reads_probe (id, v) values (${50}, ${'undone'})`);
        await use();
        return 'finished';
      });
      await expect(withinSeconds(2, work)).rejects.toThrow(InsideWorkError);
      await expect(work).rejects.toThrow(/inside a group-commit work.*through its `tx`/s);
      // Nothing of the work was kept, nothing was written outside it, and the database is usable.
      const { rows } = await sql<{ id: number; v: string }>`select id, v from reads_probe where id in (1, 50) order by id`.execute(other.db);
      expect(rows.map((row) => [Number(row.id), row.v])).toEqual([[1, 'uno']]);
      expect(await valueOf(database, 1)).toBe('uno');
    });
  }

  it('leaves statements outside the work alone while it runs, and after it', async () => {
    const between = signal();
    const outside = between.promise.then(() => database.db.selectFrom('reads_probe' as never).select('v' as never).where('id' as never, '=', 1 as never).execute());
    await database.groupCommit.transaction(async (tx) => {
      await tx.all(q`select 1`);
      between.fire();
    });
    expect(await outside).toEqual([{ v: 'uno' }]);
    expect(await valueOf(database, 1)).toBe('uno');
  });
});

describe('inTransaction', () => {
  it('runs raw statements (trx.all, the interface helpers share with works) inside the transaction', async () => {
    await expect(
      inTransaction(database.db, async (trx) => {
        await trx.all(q`insert into reads_probe (id, v) values (${60}, ${'rolled back'})`);
        const [row] = await trx.all<{ v: string }>(q`select v from reads_probe where id = ${60}`);
        expect(row.v).toBe('rolled back');
        // A nested call reuses the transaction.
        await inTransaction(trx, (inner) => inner.all(q`insert into reads_probe (id, v) values (${61}, ${'rolled back too'})`));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const { rows } = await sql<{ id: number }>`select id from reads_probe where id in (60, 61)`.execute(other.db);
    expect(rows).toEqual([]);
  });
});

/** A promise another piece of code resolves: continuations chained on it run where they were chained. */
function signal(): { promise: Promise<void>; fire(): void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

/** `promise`, or a failure when it has not settled within `seconds` (a deadlock). */
function withinSeconds<T>(seconds: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
