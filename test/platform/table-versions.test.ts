// Every way Kiln writes bumps the versions of the tables it wrote, in the writing transaction (issue
// 20; migrations/20261127T0900-table-versions.ts, table-versions.ts): the read caches of other
// processes and nodes trust these versions, so a path that wrote without bumping would leave them
// serving old rows. Versions are read through a second connection, as another process would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { testDialect } from '../helpers/database.js';
import { inTransaction, type Database } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { q } from '../../src/platform/db/statements.js';

let kiln: TestKiln;
let other: Database;
let counter = 0;

beforeAll(async () => {
  kiln = await testKiln();
  other = kiln.testDb.reopen();
});
afterAll(async () => {
  await other.close();
  await kiln.close();
});

async function versions(): Promise<Map<string, number>> {
  const { rows } = await sql<{ name: string; version: number }>`select name, version from table_versions`.execute(other.db);
  return new Map(rows.map((row) => [row.name, Number(row.version)]));
}

/** The tables whose versions `write` moved. */
async function bumpedBy(write: () => Promise<unknown>): Promise<string[]> {
  const before = await versions();
  await write();
  const after = await versions();
  return [...after].filter(([name, version]) => version !== (before.get(name) ?? 0)).map(([name]) => name).sort();
}

const key = () => `versions-${(counter += 1)}`;
const now = () => kiln.clock.now();

describe('the write paths', () => {
  it('the query builder outside a transaction', async () => {
    expect(await bumpedBy(() => kiln.deps.db.insertInto('rate_limits').values({ key: key(), window_start: 0, count: 1 }).execute())).toEqual(['rate_limits']);
    expect(await bumpedBy(() => kiln.deps.db.updateTable('rate_limits').set({ count: 2 }).where('window_start', '=', 0).execute())).toEqual(['rate_limits']);
    expect(await bumpedBy(() => kiln.deps.db.deleteFrom('rate_limits').where('count', '=', 2).execute())).toEqual(['rate_limits']);
  });

  it.runIf(testDialect() === 'sqlite')('SQLite: a change outside a transaction that matched no row bumps nothing (an idle job claim)', async () => {
    expect(await bumpedBy(() => kiln.deps.db.updateTable('rate_limits').set({ count: 3 }).where('window_start', '=', -1).execute())).toEqual([]);
    expect(await bumpedBy(() => sql`update rate_limits set count = 3 where window_start = ${-1} returning key`.execute(kiln.deps.db))).toEqual([]);
    expect(await bumpedBy(() => kiln.deps.db.deleteFrom('rate_limits').where('window_start', '=', -1).execute())).toEqual([]);
    // The same statements bump as soon as they match a row.
    await kiln.deps.db.insertInto('rate_limits').values({ key: key(), window_start: -1, count: 1 }).execute();
    expect(await bumpedBy(() => sql`update rate_limits set count = 3 where window_start = ${-1} returning key`.execute(kiln.deps.db))).toEqual(['rate_limits']);
    expect(await bumpedBy(() => kiln.deps.db.deleteFrom('rate_limits').where('window_start', '=', -1).execute())).toEqual(['rate_limits']);
  });

  it('raw SQL through the builder', async () => {
    expect(await bumpedBy(() => sql`insert into rate_limits (key, window_start, count) values (${key()}, ${0}, ${1})`.execute(kiln.deps.db))).toEqual(['rate_limits']);
  });

  it('a transaction: the builder and trx.all, bumped with its commit and not before', async () => {
    let during: Map<string, number> | null = null;
    const before = await versions();
    const bumped = await bumpedBy(() =>
      inTransaction(kiln.deps.db, async (trx) => {
        await trx.insertInto('rate_limits').values({ key: key(), window_start: 0, count: 1 }).execute();
        await trx.all(q`insert into jobs (kind, payload, state, run_at, max_attempts, created_at, updated_at) values (${'versions.test'}, ${'{}'}, ${'done'}, ${now()}, ${1}, ${now()}, ${now()})`);
        during = await versions();
      }),
    );
    expect(bumped).toEqual(['jobs', 'rate_limits']);
    expect(during).toEqual(before);
  });

  it('a transaction rolled back bumps nothing', async () => {
    const failing = inTransaction(kiln.deps.db, async (trx) => {
      await trx.insertInto('rate_limits').values({ key: key(), window_start: 0, count: 1 }).execute();
      throw new Error('undone');
    });
    expect(await bumpedBy(() => failing.catch(() => undefined))).toEqual([]);
  });

  it('the group commit: a write and a work', async () => {
    expect(await bumpedBy(() => kiln.deps.groupCommit.write(q`insert into rate_limits (key, window_start, count) values (${key()}, ${0}, ${1})`))).toEqual(['rate_limits']);
    const work = () =>
      kiln.deps.groupCommit.transaction(async (tx) => {
        await tx.all(q`update rate_limits set count = count + 1 where window_start = ${0}`);
        await tx.all(q`insert into jobs (kind, payload, state, run_at, max_attempts, created_at, updated_at) values (${'versions.test'}, ${'{}'}, ${'done'}, ${now()}, ${1}, ${now()}, ${now()})`);
      });
    expect(await bumpedBy(work)).toEqual(['jobs', 'rate_limits']);
  });

  it('a delete bumps the tables its foreign keys cascade into', async () => {
    const owner = await kiln.createUser('versions-owner');
    const project = await kiln.createProject(owner, 'versions-cascade');
    await kiln.api('POST', `/projects/${project.id}/environments`, { token: owner.token, body: { name: 'production' } });
    const bumped = await bumpedBy(() => sql`delete from projects where id = ${project.id}`.execute(kiln.deps.db));
    expect(bumped).toEqual(expect.arrayContaining(['projects', 'environments']));
  });

  it('a plain insert bumps its table only: it cascades into nothing', async () => {
    const owner = await kiln.createUser('versions-insert');
    const project = await kiln.createProject(owner, 'versions-insert');
    const bumped = await bumpedBy(() => kiln.api('POST', `/projects/${project.id}/environments`, { token: owner.token, body: { name: 'production' } }));
    expect(bumped).toContain('environments');
    expect(bumped).not.toContain('deployments');
  });

  it('a table no cache reads (NEVER_CACHED): SQLite bumps nothing for it, PostgreSQL its trigger', async () => {
    const counts = () => kiln.deps.groupCommit.write(q`update alert_management_event_counts set events = events + 1 where alert_id = ${-1}`);
    // (Other tables may move meanwhile: jobs left by earlier tests write activity events.)
    const bumped = await bumpedBy(counts);
    if (testDialect() === 'sqlite') expect(bumped).not.toContain('alert_management_event_counts');
    else expect(bumped).toContain('alert_management_event_counts');
  });

  it('an API request, the way every route writes', async () => {
    const owner = await kiln.createUser('versions-api');
    const project = await kiln.createProject(owner, 'versions-api');
    const bumped = await bumpedBy(() => kiln.api('PUT', `/projects/${project.id}`, { token: owner.token, body: { description: 'changed' } }));
    expect(bumped).toContain('projects');
  });
});

describe('schema changes', () => {
  it.runIf(testDialect() === 'sqlite')('SQLite: DDL bumps the schema row', async () => {
    expect(await bumpedBy(() => sql`create table versions_scratch (id integer primary key)`.execute(kiln.deps.db))).toEqual(['*']);
    expect(await bumpedBy(() => sql`insert into versions_scratch (id) values (1)`.execute(kiln.deps.db))).toEqual(['versions_scratch']);
  });

  it.runIf(testDialect() === 'postgres')('PostgreSQL: a table made after the versions migration is tracked once migrations run', async () => {
    await sql`create table versions_scratch (id bigint primary key)`.execute(kiln.deps.db);
    await migrateToLatest({ ...kiln.testDb.database, db: kiln.deps.db });
    expect(await bumpedBy(() => sql`insert into versions_scratch (id) values (1)`.execute(kiln.deps.db))).toEqual(['versions_scratch']);
    expect(await bumpedBy(() => sql`truncate versions_scratch`.execute(kiln.deps.db))).toEqual(['versions_scratch']);
  });

  it.runIf(testDialect() === 'postgres')('PostgreSQL: every table has the trigger and a version row', async () => {
    const { rows } = await sql<{ name: string; triggered: boolean }>`
      select c.relname as name, exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'kiln_table_version') as triggered
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'
        and c.relname not in ('table_versions', 'table_version_commits', 'kysely_migration', 'kysely_migration_lock')`.execute(kiln.deps.db);
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.filter((row) => !row.triggered)).toEqual([]);
    const known = await versions();
    expect(rows.filter((row) => !known.has(row.name))).toEqual([]);
  });
});

describe.runIf(testDialect() === 'postgres')('PostgreSQL: concurrent transactions', () => {
  it('two transactions writing two tables in opposite orders both commit (the bumps wait for the commit, in name order)', async () => {
    // Each holds its first table's statement trigger fired before the other writes it: a bump taken at
    // the write would hold that table's version row and the two would deadlock.
    let firstWrote!: () => void;
    let secondWrote!: () => void;
    const firstDone = new Promise<void>((resolve) => (firstWrote = resolve));
    const secondDone = new Promise<void>((resolve) => (secondWrote = resolve));
    const job = () => q`insert into jobs (kind, payload, state, run_at, max_attempts, created_at, updated_at) values (${'versions.test'}, ${'{}'}, ${'done'}, ${now()}, ${1}, ${now()}, ${now()})`;
    const limit = () => q`insert into rate_limits (key, window_start, count) values (${key()}, ${0}, ${1})`;
    const before = await versions();
    await Promise.all([
      inTransaction(kiln.deps.db, async (trx) => {
        await trx.all(limit());
        firstWrote();
        await secondDone;
        await trx.all(job());
      }),
      inTransaction(other.db, async (trx) => {
        await trx.all(job());
        secondWrote();
        await firstDone;
        await trx.all(limit());
      }),
    ]);
    const after = await versions();
    // Each commit bumped both.
    expect(after.get('jobs')! - before.get('jobs')!).toBe(2);
    expect(after.get('rate_limits')! - before.get('rate_limits')!).toBe(2);
  });
});
