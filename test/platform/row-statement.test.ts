// SQLite reads build their rows with a literal compiled per statement (row-statement.ts): the rows
// must be exactly what better-sqlite3 builds itself (names, order, repeated names, values), through
// every method the data layer calls, and a schema change must not leave a statement's old columns.
import { afterEach, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { compileRowMapper, withCompiledRows } from '../../src/platform/db/row-statement.js';
import { openSqlite, withStatementCache, type Database } from '../../src/platform/db/database.js';

const connection = new SQLite(':memory:');
connection.exec("create table t (id integer primary key, name text, score real, data blob); insert into t values (1, 'a', 1.5, x'00ff'), (2, null, null, null)");

const TEXTS = [
  'select * from t order by id',
  'select id, name as id from t order by id',
  'select t.id, u.id, t.name from t join t as u on u.id = t.id order by t.id',
  'select 1 as "with space", 2 as "0", 3 as "constructor", 4 as "quote""d"',
  'select count(*) from t',
];

describe('compiled rows', () => {
  it.each(TEXTS)('match better-sqlite3 rows for %s', (text) => {
    const native = connection.prepare(text);
    const compiled = withCompiledRows(connection.prepare(text));
    expect(compiled.all()).toStrictEqual(native.all());
    expect(compiled.get()).toStrictEqual(native.get());
    expect([...compiled.iterate()]).toStrictEqual([...native.iterate()]);
    for (const [a, b] of compiled.all().map((row, i) => [row, native.all()[i]] as const)) expect(Object.keys(a as object)).toEqual(Object.keys(b as object));
  });

  it('answer undefined for get without a row, and bind values as the statement does', () => {
    const compiled = withCompiledRows(connection.prepare('select id, name from t where id = ?'));
    expect(compiled.get(3)).toBeUndefined();
    expect(compiled.all([1])).toEqual([{ id: 1, name: 'a' }]);
  });

  it('leave a statement with a __proto__ column to better-sqlite3', () => {
    const statement = connection.prepare('select 1 as __proto__, 2 as b');
    expect(withCompiledRows(statement)).toBe(statement);
    expect(() => compileRowMapper([['__proto__', 'a']])).toThrow();
  });

  it('map fields in the given order', () => {
    const map = compileRowMapper([['b', 'x_b'], ['a', 'x_a']]);
    expect(Object.keys(map({ x_a: 1, x_b: 2, other: 3 }))).toEqual(['b', 'a']);
    expect(map({ x_a: 1, x_b: 2 })).toEqual({ b: 2, a: 1 });
  });
});

describe('the statement cache after DDL', () => {
  let database: Database | undefined;
  afterEach(async () => database?.close());

  it('reads a column added after `select *` was prepared', async () => {
    const statements = withStatementCache(new SQLite(':memory:'));
    statements.prepare('create table s (id integer primary key)').run();
    statements.prepare('insert into s (id) values (1)').run();
    expect(statements.prepare('select * from s').all()).toEqual([{ id: 1 }]);
    statements.prepare("alter table s add column label text default 'x'").run();
    expect(statements.prepare('select * from s').all()).toEqual([{ id: 1, label: 'x' }]);
    statements.close();
  });

  it('keeps rows through the query builder', async () => {
    database = openSqlite(':memory:');
    await sql`create table k (id integer primary key, name text)`.execute(database.db);
    await sql`insert into k values (1, 'one')`.execute(database.db);
    const { rows } = await sql`select * from k`.execute(database.db);
    expect(rows).toEqual([{ id: 1, name: 'one' }]);
    await sql`alter table k add column extra integer`.execute(database.db);
    expect((await sql`select * from k`.execute(database.db)).rows).toEqual([{ id: 1, name: 'one', extra: null }]);
  });
});
