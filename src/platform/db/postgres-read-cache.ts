// The read cache on PostgreSQL: the same cache as SQLite's (read-cache.ts), per node, exact across
// nodes through the table versions (migrations/20261127T0900-table-versions.ts).
//
// Why: without it every authenticated read cost its token, user, project and access lookups as
// sequential round trips (3 for GET /projects/:id, 4 for a page; docs/performance.md). With it a
// request whose answers are cached costs ONE round trip: the versions of the tables, read once per
// request, before anything is served.
//
// Exactness: an entry is stamped with the versions read BEFORE it was computed (its data is at least
// that new) and served to a request only while no table it read has a newer version than that
// request's versions, which are read after the request arrived: a write committed on any node before
// a request arrived is seen by it. A request that writes reads the versions again before its next
// cached read (its own write must show). Outside a request (jobs, the CLI, a request whose
// asynchronous context was lost, and whatever a request left running after its response, such as the
// job worker it woke) nothing is cached: every read runs.
//
// Which request a read belongs to is an AsyncLocalStorage scope that the app opens for each request
// (`requestScope`, app.ts). Which tables a statement reads: the tables it names
// (table-dependencies.ts); a memoised answer depends on every table read while it was computed,
// statements outside the cache included (the pool's clients report them, `instrument`).
import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type Kysely } from 'kysely';
import type pg from 'pg';
import type { DB } from './schema.js';
import { postgresText, type Statement } from './statements.js';
import { mentionedTables } from './table-dependencies.js';
import { SCHEMA_VERSION } from './table-versions.js';
import { addTo, frozen, valuesKey, type ReadCache, type ReadOptions } from './read-cache.js';
import type { WorkScope } from './work-scope.js';

type Versions = ReadonlyMap<string, number>;

interface RequestVersions {
  /** Until the response is sent: work the request leaves behind (a job it woke) caches nothing. */
  open: boolean;
  versions: Versions | null;
  fetching: { promise: Promise<Versions | null>; generation: number } | null;
  /** Moved by every write this request completed: versions read before it are too old. */
  generation: number;
  /** The tick of its arrival or of its last completed write: versions read before it are too old. */
  asOf: number;
}

interface Scope {
  request: RequestVersions;
  /** The tables read by the memoised answers being computed in this scope (outermost first). */
  reads: ReadonlyArray<Set<string>>;
}

interface Stamped {
  tables: readonly string[];
  /** The version of each of `tables` when the value was computed. */
  stamp: readonly number[];
}

interface Rows extends Stamped {
  rows: readonly unknown[];
}

interface Memo extends Stamped {
  value: unknown;
}

// A named statement: parsed and planned once per connection. Versions only grow, so their sum moves
// exactly when one of them did: the rows are sent only then (usually nothing is), in the same
// snapshot as the sum.
const VERSIONS_TEXT = 'select name, version from table_versions where (select coalesce(sum(version), 0) from table_versions) <> $1::numeric';
const READ = /^\s*select\b/i;
const UNDEFINED_TABLE = '42P01';
const FEATURE_NOT_SUPPORTED = '0A000';
const CACHE_LIMIT = 20_000;
const MEMO_LIMIT = 1_000;
const REFUSED = 'deps.readCache was used';

/** `caching` false (KILN_READ_CACHE=false): no request scope is opened, so every read runs. */
export function postgresReadCache(db: Kysely<DB>, pool: pg.Pool, works: WorkScope, caching = true): ReadCache {
  const scopes = new AsyncLocalStorage<Scope>();
  // The newest versions any request read: an entry computed under older ones is never stored.
  const latest = new Map<string, number>();
  let statements = new Map<TemplateStringsArray | string, Map<string, Rows>>();
  let memos = new Map<string, Memo>();
  let rowsReading = new Map<string, Set<TemplateStringsArray | string>>();
  let memosReading = new Map<string, Set<string>>();
  let cachedRows = 0;
  const tablesByText = new Map<string, readonly string[]>();

  function dropAll(): void {
    statements = new Map();
    memos = new Map();
    rowsReading = new Map();
    memosReading = new Map();
    cachedRows = 0;
  }

  function dropReadersOf(table: string): void {
    for (const key of rowsReading.get(table) ?? []) {
      cachedRows -= statements.get(key)?.size ?? 0;
      statements.delete(key);
    }
    rowsReading.delete(table);
    for (const key of memosReading.get(table) ?? []) memos.delete(key);
    memosReading.delete(table);
  }

  /** Learn versions a request read: entries of the tables that moved are stale for everyone after it. */
  function advance(versions: Versions): void {
    let schemaMoved = false;
    for (const [table, version] of versions) {
      const before = latest.get(table);
      if (before !== undefined && version <= before) continue;
      latest.set(table, version);
      if (before === undefined) continue;
      if (table === SCHEMA_VERSION) schemaMoved = true;
      else dropReadersOf(table);
    }
    if (schemaMoved) {
      tablesByText.clear();
      dropAll();
    }
  }

  // The versions the database last answered with, and their sum (-1: none yet).
  let known: { versions: Versions; sum: number } = { versions: new Map(), sum: -1 };

  // One read of the versions serves every request that arrived (or finished a write) before it was
  // sent: moved by each arrival and each completed write, so a read sent at a tick >= a request's
  // `asOf` saw every commit that request must see. Requests arriving while a read is on its way wait
  // for it and then share the next one: under concurrent requests a few reads serve many requests
  // (round trips per cached request below 1), at the cost of up to one more round trip of latency.
  let tick = 0;
  let reading: { promise: Promise<Versions | null>; sentAt: number } | null = null;

  async function sharedVersions(asOf: number): Promise<Versions | null> {
    for (;;) {
      const current = reading;
      if (current !== null && current.sentAt >= asOf) return current.promise;
      if (current !== null) {
        // Older than this request: it cannot serve it. Wait (its failure is its own requests') and share the next.
        await current.promise.catch(() => undefined);
        continue;
      }
      const next = { promise: fetchVersions(), sentAt: tick };
      reading = next;
      const done = () => {
        if (reading === next) reading = null;
      };
      next.promise.then(done, done);
      return next.promise;
    }
  }

  async function fetchVersions(): Promise<Versions | null> {
    const asked = known;
    let result: pg.QueryResult<{ name: string; version: number }>;
    try {
      result = await namedQuery<{ name: string; version: number }>({ name: 'kiln-table-versions', text: VERSIONS_TEXT, values: [asked.sum] });
    } catch (error) {
      // Not migrated yet (backup and restore open the database as it is): nothing is cached.
      if ((error as { code?: string }).code === UNDEFINED_TABLE) return null;
      throw error;
    }
    if (result.rows.length === 0) return asked.versions;
    const versions = new Map<string, number>();
    let sum = 0;
    for (const row of result.rows) {
      const version = Number(row.version);
      versions.set(row.name, version);
      sum += version;
    }
    if (sum > known.sum) known = { versions, sum };
    advance(versions);
    return versions;
  }

  /** The request's versions, read after it arrived and after its last write completed. */
  async function versionsOf(request: RequestVersions): Promise<Versions | null> {
    for (;;) {
      if (request.versions !== null) return request.versions;
      let fetching = request.fetching;
      if (fetching === null || fetching.generation !== request.generation) {
        const generation = request.generation;
        const promise = sharedVersions(request.asOf).then((versions) => {
          if (request.generation === generation) request.versions = versions;
          return versions;
        });
        request.fetching = fetching = { promise, generation };
      }
      const versions = await fetching.promise;
      if (versions === null || fetching.generation === request.generation) return versions;
    }
  }

  function tablesRead(text: string): readonly string[] {
    let tables = tablesByText.get(text);
    if (tables === undefined) {
      if (tablesByText.size >= 5_000) tablesByText.clear();
      tablesByText.set(text, (tables = [SCHEMA_VERSION, ...mentionedTables(text, latest).filter((table) => table !== SCHEMA_VERSION)]));
    }
    return tables;
  }

  function record(scope: Scope, tables: readonly string[]): void {
    for (const reads of scope.reads) for (const table of tables) reads.add(table);
  }

  function stampOf(tables: Iterable<string>, versions: Versions): Stamped | null {
    const names = [...tables];
    const stamp = names.map((table) => versions.get(table) ?? 0);
    // Computed under versions older than some request already read: stale before it is stored.
    for (let index = 0; index < names.length; index += 1) if (stamp[index] < (latest.get(names[index]) ?? 0)) return null;
    return { tables: names, stamp };
  }

  function current(entry: Stamped, versions: Versions): boolean {
    for (let index = 0; index < entry.tables.length; index += 1) if (entry.stamp[index] < (versions.get(entry.tables[index]) ?? 0)) return false;
    return true;
  }

  async function run<T>(query: CompiledQuery<T>): Promise<readonly T[]> {
    return (await db.executeQuery<T>(query)).rows;
  }

  /**
   * A named statement on a pooled connection. Not `pool.query`: when it waits for a connection, pg
   * runs the query from the callback of whoever released one, in that caller's asynchronous context
   * (another request's), where `instrument` and the bench's counter would credit it.
   */
  async function namedQuery<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    works.refuse(REFUSED);
    const client = await pool.connect();
    try {
      return await client.query<R>(config);
    } finally {
      client.release();
    }
  }

  // The hot lookups (`all`, a `q` template) as named statements: parsed and planned once per
  // connection, not per request. A migration elsewhere may change what `select *` returns: that
  // named plan then fails once (feature_not_supported) and the read runs unnamed.
  const names = new WeakMap<TemplateStringsArray, string>();
  const unnamed = new WeakSet<TemplateStringsArray>();
  async function runNamed<T>(written: Statement, text: string): Promise<readonly T[]> {
    if (unnamed.has(written.strings)) return run(CompiledQuery.raw(text, written.values) as CompiledQuery<T>);
    let name = names.get(written.strings);
    if (name === undefined) names.set(written.strings, (name = `kiln-read-${(namesGiven += 1)}`));
    try {
      return (await namedQuery({ name, text, values: written.values })).rows as T[];
    } catch (error) {
      if ((error as { code?: string }).code !== FEATURE_NOT_SUPPORTED) throw error;
      unnamed.add(written.strings);
      return run(CompiledQuery.raw(text, written.values) as CompiledQuery<T>);
    }
  }
  let namesGiven = 0;

  async function cached<T>(key: TemplateStringsArray | string, query: CompiledQuery<T>, options: ReadOptions | undefined, execute: () => Promise<readonly T[]>): Promise<readonly T[]> {
    const scope = scopes.getStore();
    if (scope === undefined || !scope.request.open) return execute();
    if (!options?.cache) {
      // Uncached, but a memo computing in this request depends on it all the same.
      if (scope.reads.length > 0) record(scope, tablesRead(query.sql));
      return execute();
    }
    works.refuse(REFUSED);
    const versions = await versionsOf(scope.request);
    if (versions === null) return execute();
    const tables = tablesRead(query.sql);
    record(scope, tables);
    const byValues = statements.get(key);
    const valueKey = valuesKey(query.parameters);
    const hit = byValues?.get(valueKey);
    if (hit !== undefined && current(hit, versions)) return hit.rows as readonly T[];
    const rows = frozen([...(await execute())]);
    const stamped = stampOf(tables, versions);
    if (stamped === null) return rows;
    if (cachedRows >= CACHE_LIMIT) dropAll();
    let entries = statements.get(key);
    if (entries === undefined) {
      statements.set(key, (entries = new Map()));
      for (const table of tables) addTo(rowsReading, table, key);
    }
    if (!entries.has(valueKey)) cachedRows += 1;
    entries.set(valueKey, { rows, ...stamped });
    return rows;
  }

  /** Every statement a pooled connection sends: reads are recorded, writes make the request read the versions again. */
  function instrument(client: pg.PoolClient): void {
    const query = client.query as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: unknown, ...args: unknown[]) {
      const scope = scopes.getStore();
      if (scope === undefined) return query.apply(this, args);
      const config = args[0] as string | { text?: string };
      const text = typeof config === 'string' ? config : (config?.text ?? '');
      if (READ.test(text)) {
        if (scope.reads.length > 0) record(scope, tablesRead(text));
        return query.apply(this, args);
      }
      const result = query.apply(this, args) as Promise<unknown> | undefined;
      const wrote = () => {
        scope.request.generation += 1;
        scope.request.asOf = tick += 1;
        scope.request.versions = null;
      };
      if (result && typeof result.then === 'function') result.then(wrote, wrote);
      else wrote();
      return result;
    };
  }
  pool.on('connect', instrument);

  function requestScope(response: Parameters<NonNullable<ReadCache['requestScope']>>[0], next: () => void): void {
    const request: RequestVersions = { open: true, versions: null, fetching: null, generation: 0, asOf: (tick += 1) };
    const end = () => (request.open = false);
    response.once('finish', end);
    response.once('close', end);
    scopes.run({ request, reads: [] }, next);
  }

  return {
    caching,
    all<T>(written: Statement, options?: ReadOptions) {
      const text = postgresText(written.strings);
      return cached<T>(written.strings, CompiledQuery.raw(text, written.values) as CompiledQuery<T>, options, () => runNamed<T>(written, text));
    },
    compiled: <T>(query: CompiledQuery<T>, options?: ReadOptions) => cached<T>(query.sql, query, options, () => run(query)),
    async memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const scope = scopes.getStore();
      if (scope === undefined || !scope.request.open) return compute();
      works.refuse(REFUSED);
      const versions = await versionsOf(scope.request);
      if (versions === null) return compute();
      const hit = memos.get(key);
      if (hit !== undefined && current(hit, versions)) {
        record(scope, hit.tables);
        return hit.value as T;
      }
      const reads = new Set<string>([SCHEMA_VERSION]);
      const value = await scopes.run({ request: scope.request, reads: [...scope.reads, reads] }, compute);
      record(scope, [...reads]);
      const stamped = stampOf(reads, versions);
      if (stamped === null) return value;
      if (memos.size >= MEMO_LIMIT) dropAll();
      memos.set(key, { value, ...stamped });
      for (const table of reads) addTo(memosReading, table, key);
      return value;
    },
    requestScope: caching ? requestScope : undefined,
  };
}
