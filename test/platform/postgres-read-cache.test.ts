// The read cache on PostgreSQL (platform/db/postgres-read-cache.ts): served only inside a request,
// validated there by one read of the table versions, exact across nodes (here: a second pool on the
// same schema), and never kept from a computation that a commit overtook. Every test fails on a
// cache that serves an entry too long; the round-trip counts fail on one that caches nothing.
// The counter first: the cache wraps each pooled client's query as it connects.
import { statementsDuring } from './statement-counter.js';
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import type { Database } from '../../src/platform/db/database.js';
import { q } from '../../src/platform/db/statements.js';

const VERSIONS = 'the versions';
/** The texts, the read of the table versions named VERSIONS. */
const named = (texts: string[]) => texts.map((text) => (text.startsWith('select name, version from table_versions') ? VERSIONS : text));

describe.runIf(testDialect() === 'postgres')('postgresReadCache', () => {
  let testDb: TestDatabase;
  let node: Database;
  let otherNode: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await migrateToLatest(testDb.database);
    node = testDb.database;
    otherNode = testDb.reopen();
    await sql`insert into rate_limits (key, window_start, count) values ('a', 0, 1), ('b', 0, 1)`.execute(node.db);
  });
  afterAll(async () => {
    await otherNode.close();
    await testDb.drop();
  });

  const countOf = (key: string) => q`select count from rate_limits where key = ${key}`;

  /** `work` as one request of the cache; the response is sent when it returns. */
  async function request<T>(work: () => Promise<T>): Promise<T> {
    const response = new EventEmitter();
    try {
      return await new Promise<T>((resolve, reject) => node.readCache.requestScope!(response, () => void work().then(resolve, reject)));
    } finally {
      response.emit('finish');
    }
  }
  const readCount = async (key: string) => (await node.readCache.all<{ count: number }>(countOf(key), { cache: true }))[0].count;

  it('in a request: the versions once, then rows from memory; outside one: every read runs', async () => {
    expect(await request(() => readCount('a'))).toBe(1);
    const cached = named(await statementsDuring(() => request(async () => [await readCount('a'), await readCount('a')])));
    expect(cached).toEqual([VERSIONS]);
    const outside = await statementsDuring(async () => [await readCount('a'), await readCount('a')]);
    expect(outside).toHaveLength(2);
    expect(outside.every((text) => text.includes('from rate_limits'))).toBe(true);
  });

  it('a write committed on another node is seen by the next request', async () => {
    expect(await request(() => readCount('a'))).toBe(1);
    await sql`update rate_limits set count = 2 where key = 'a'`.execute(otherNode.db);
    expect(await request(() => readCount('a'))).toBe(2);
  });

  it('requests that arrive together share one read of the versions; one arriving after it was sent waits for the next', async () => {
    const before = await request(() => readCount('a'));
    const together = named(await statementsDuring(() => Promise.all([1, 2, 3, 4, 5, 6].map(() => request(() => readCount('a'))))));
    // The first request's read is sent alone; the five that arrived while it was on its way share one.
    expect(together).toEqual([VERSIONS, VERSIONS]);
    // A commit between a read being sent and a request arriving: that request must not take the read.
    const early = request(() => readCount('a'));
    await sql`update rate_limits set count = count + 10 where key = 'a'`.execute(otherNode.db);
    const after = await request(() => readCount('a'));
    await early;
    expect(after).toBe(before + 10);
    await sql`update rate_limits set count = ${before} where key = 'a'`.execute(otherNode.db);
  });

  it('a request that writes reads the versions again before its next cached read', async () => {
    const [before, after] = await request(async () => {
      const first = await readCount('b');
      await sql`update rate_limits set count = count + 1 where key = 'b'`.execute(node.db);
      return [first, await readCount('b')];
    });
    expect(after).toBe(before + 1);
  });

  it('a write to another table leaves the entry cached', async () => {
    await request(() => readCount('a'));
    await sql`insert into jobs (kind, payload, state, run_at, max_attempts, created_at, updated_at) values ('x', '{}', 'done', 0, 1, 0, 0)`.execute(otherNode.db);
    expect(named(await statementsDuring(() => request(() => readCount('a'))))).toEqual([VERSIONS]);
  });

  it('a memo computed while another node committed is not served after that commit', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let computed = 0;
    const memo = () =>
      node.readCache.memo('racing', async () => {
        computed += 1;
        const [row] = await node.readCache.all<{ count: number }>(countOf('a'));
        await released;
        return row.count;
      });
    const first = request(memo);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await sql`update rate_limits set count = 10 where key = 'a'`.execute(otherNode.db);
    release();
    expect(await first).not.toBe(10);
    // Stamped with the versions read before it was computed, which the commit moved past.
    expect(await request(memo)).toBe(10);
    expect(computed).toBe(2);
    expect(named(await statementsDuring(() => request(memo)))).toEqual([VERSIONS]);
  });

  it('a memo depends on the uncached reads of its computation too', async () => {
    const memo = () => node.readCache.memo('uncached-inside', async () => (await node.readCache.all<{ count: number }>(countOf('b')))[0].count);
    const before = await request(memo);
    await sql`update rate_limits set count = count + 5 where key = 'b'`.execute(otherNode.db);
    expect(await request(memo)).toBe(before + 5);
  });

  it('a named lookup whose table another node altered still answers, with the new columns', async () => {
    await sql`create table named_scratch (id bigint primary key)`.execute(node.db);
    await sql`insert into named_scratch (id) values (1)`.execute(node.db);
    const all = () => node.readCache.all<Record<string, unknown>>(q`select * from named_scratch`);
    expect(await all()).toEqual([{ id: 1 }]);
    await sql`alter table named_scratch add column note text default 'added'`.execute(otherNode.db);
    // PostgreSQL refuses a prepared `select *` whose columns changed: the read runs unnamed.
    expect(await Promise.all([all(), all(), all()])).toEqual([[{ id: 1, note: 'added' }], [{ id: 1, note: 'added' }], [{ id: 1, note: 'added' }]]);
  });

  it('what a request leaves running after its response caches nothing', async () => {
    let later!: Promise<string[]>;
    await request(async () => {
      await readCount('a');
      later = new Promise((resolve) => setTimeout(() => resolve(statementsDuring(() => readCount('a'))), 10));
    });
    const texts = await later;
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('from rate_limits');
  });
});
