// Rows of SQLite reads built by a function compiled once per prepared statement.
//
// better-sqlite3 builds each row as an object property by property, internalising every column name
// again for every row, and an object of more than about twenty properties built that way is a
// dictionary (V8's slow mode): a project row (30 columns) or the token-with-project row (45) was one,
// so every later property read of it was a hash lookup and `Object.keys` sorted it. Reading the
// values as an array (`raw` mode) and building the object with a literal of the statement's column
// names gives every row of a statement the same fast shape, for less CPU than the native build
// (measured on the token-with-project statement: ~18 µs a row as objects, ~12 µs raw).
import type SQLite from 'better-sqlite3';

/**
 * A function that copies `source[from]` to `to` for each pair (`from` a column index or name), as one
 * object literal compiled once: every object it makes has the same fast shape. A repeated `to` keeps
 * its first position and its last value, as better-sqlite3's own rows do. The caller keeps
 * `__proto__` out (it would set the prototype instead of a property).
 */
function compileLiteral<Source>(fields: ReadonlyArray<readonly [to: string, from: string | number]>): (source: Source) => Record<string, unknown> {
  const body = fields.map(([to, from]) => `${JSON.stringify(to)}: source[${JSON.stringify(from)}]`).join(', ');
  return new Function('source', `return { ${body} };`) as (source: Source) => Record<string, unknown>;
}

/** Copies `row[from]` to `to` for each pair (for rows split into parts, e.g. a statement's prefixed columns). */
export function compileRowMapper(fields: ReadonlyArray<readonly [to: string, from: string]>): (row: Record<string, unknown>) => Record<string, unknown> {
  if (fields.some(([to]) => to === '__proto__')) throw new Error('compileRowMapper: __proto__ is not a field name');
  return compileLiteral<Record<string, unknown>>(fields);
}

/**
 * `statement` (a reader) behind the methods the data layer calls (`all`, `get`, `iterate`, `run`),
 * with rows built by the compiled literal. The statement is put in raw mode: it must not be handed
 * out anywhere else. A statement whose column names cannot be compiled is returned as it is.
 */
export function withCompiledRows(statement: SQLite.Statement): SQLite.Statement {
  const columns = statement.columns().map((column) => column.name);
  if (columns.includes('__proto__')) return statement;
  const build = compileLiteral<unknown[]>(columns.map((name, index) => [name, index] as const));
  statement.raw(true);
  const all = (...values: unknown[]) => {
    const raw = statement.all(...values) as unknown[][];
    const rows = new Array<Record<string, unknown>>(raw.length);
    for (let i = 0; i < raw.length; i += 1) rows[i] = build(raw[i]!);
    return rows;
  };
  const wrapped = {
    reader: statement.reader,
    readonly: statement.readonly,
    source: statement.source,
    database: statement.database,
    all,
    get(...values: unknown[]) {
      const raw = statement.get(...values) as unknown[] | undefined;
      return raw === undefined ? undefined : build(raw);
    },
    *iterate(...values: unknown[]) {
      for (const raw of statement.iterate(...values) as IterableIterator<unknown[]>) yield build(raw);
    },
    run: (...values: unknown[]) => statement.run(...values),
    columns: () => statement.columns(),
  };
  return wrapped as unknown as SQLite.Statement;
}
