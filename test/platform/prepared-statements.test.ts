// PostgreSQL's named statements (src/platform/db/prepared-statements.ts): a text run again is prepared
// once per connection and planned no more; texts of several statements, transaction control and DDL
// never are; the names are bounded. The database part runs on PostgreSQL only (SQLite keeps prepared
// statements by text already, database.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { StatementNames } from '../../src/platform/db/prepared-statements.js';
import { openPostgres, type Database } from '../../src/platform/db/database.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/database.js';

describe('StatementNames', () => {
  it('names a text the second time it runs, and keeps that name', () => {
    const names = new StatementNames();
    const text = 'select * from users where id = $1';
    expect(names.nameOf(text)).toBeUndefined();
    const name = names.nameOf(text);
    expect(name).toMatch(/^kiln_\d+$/);
    expect(names.nameOf(text)).toBe(name);
    expect(names.nameOf('select * from projects where id = $1')).toBeUndefined();
  });

  it('renames a text with a name never given before, which it then keeps', () => {
    const names = new StatementNames();
    const text = 'select * from users where id = $1';
    names.nameOf(text);
    const first = names.nameOf(text);
    names.nameOf('select $1');
    const other = names.nameOf('select $1');
    const renamed = names.renamed(text);
    expect(new Set([first, other, renamed]).size).toBe(3);
    expect(names.nameOf(text)).toBe(renamed);
  });

  it('never names transaction control or DDL', () => {
    const names = new StatementNames();
    for (const text of ['begin', 'commit', 'savepoint sp1', 'alter table t add column c int', 'create index i on t (c)']) {
      expect([names.nameOf(text), names.nameOf(text), names.nameOf(text)]).toEqual([undefined, undefined, undefined]);
    }
  });

  it('gives at most its bound of names; other texts run unnamed', () => {
    const names = new StatementNames(2);
    const texts = ['select $1', 'select $1, $2', 'select $1, $2, $3'];
    for (const text of texts) names.nameOf(text);
    expect(texts.map((text) => names.nameOf(text))).toEqual(['kiln_1', 'kiln_2', undefined]);
    expect(names.nameOf('select $1, $2, $3')).toBeUndefined();
  });
});

describe.skipIf(testDialect() !== 'postgres')('named statements on PostgreSQL', () => {
  let testDb: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await testDb.database.close();
    // One connection, so that every statement below runs on the connection whose statements are read.
    database = openPostgres({ url: testDb.url!, schema: testDb.schema!, poolSize: 1 });
  });

  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  const prepared = async () => (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(database.db)).rows.map((row) => row.statement);

  it('a statement with values run twice is prepared once on its connection and answers as before', async () => {
    await sql`create table named_probe (id bigint primary key, title text)`.execute(database.db);
    await sql`insert into named_probe values (1, 'one'), (2, 'two')`.execute(database.db);
    const read = (id: number) => sql<{ title: string }>`select title from named_probe where id = ${id}`.execute(database.db);
    expect((await read(1)).rows).toEqual([{ title: 'one' }]);
    expect((await read(2)).rows).toEqual([{ title: 'two' }]);
    expect((await read(1)).rows).toEqual([{ title: 'one' }]);
    const statements = await prepared();
    expect(statements.filter((text) => text.includes('from named_probe'))).toHaveLength(1);
    // DDL is never named, nor a text run only once.
    expect(statements.filter((text) => /create table|insert into named_probe values \(1/.test(text))).toEqual([]);
  });

  it('a single query without values is named too; a text of several statements never is, and still runs', async () => {
    const constant = () => sql<{ title: string }>`select title from named_probe where id = 2`.execute(database.db);
    const several = () => sql`update named_probe set title = title where id = 1; update named_probe set title = title where id = 2`.execute(database.db);
    for (let run = 0; run < 3; run += 1) {
      expect((await constant()).rows).toEqual([{ title: 'two' }]);
      await several();
    }
    const statements = await prepared();
    expect(statements.filter((text) => text.includes('where id = 2') && !text.includes(';'))).toHaveLength(1);
    expect(statements.filter((text) => text.includes('update named_probe'))).toEqual([]);
  });

  it('a table changed under a prepared select * (another node migrated) is prepared again, not failed', async () => {
    const read = () => sql<Record<string, unknown>>`select * from named_probe where id = ${1}`.execute(database.db);
    await read();
    await read();
    const named = async () => (await prepared()).filter((text) => text.includes('select * from named_probe')).length;
    expect(await named()).toBe(1);
    await sql`alter table named_probe add column body text`.execute(database.db);
    expect((await read()).rows).toEqual([{ id: 1, title: 'one', body: null }]);
    expect((await read()).rows).toEqual([{ id: 1, title: 'one', body: null }]);
    // Prepared again under a new name, the later run used it (no third statement).
    expect(await named()).toBe(2);
  });

  it('a connection the server ended is replaced and prepares its statements again', async () => {
    const read = () => sql<{ title: string }>`select title from named_probe where id = ${2}`.execute(database.db);
    await read();
    await read();
    const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db)).rows[0].pid;
    const admin = openPostgres({ url: testDb.url!, poolSize: 1 });
    try {
      await sql`select pg_terminate_backend(${pid})`.execute(admin.db);
    } finally {
      await admin.close();
    }
    // The pool drops the ended connection (the statements that meet it fail, unavailable.ts); then the
    // new connection prepares the statement again and answers.
    let answered: unknown = null;
    for (let attempt = 0; attempt < 5 && answered === null; attempt += 1) answered = await read().then((result) => result.rows, () => null);
    expect(answered).toEqual([{ title: 'two' }]);
    expect((await read()).rows).toEqual([{ title: 'two' }]);
  });
});
