// What an uncached read of the foundation costs in statements (docs/performance.md, issue 20): an
// authenticated GET /projects/:id is one statement (token, user, project, namespace and levels:
// accounts/token-with-project-queries.ts; a project shared with a group adds the groups, which the
// kept entity lacks), a page of GET /projects two (the token, and the page's entity keys with its
// bounded count; the rows and namespaces of entities not kept come on a miss).
// On PostgreSQL each statement is a round trip.
// Counted at the drivers, as bench/query-counter.ts counts them, for a request that finds nothing in
// the row cache (a write to the tables it reads just came before it); the cache's own checks (SQLite's
// data_version and schema_version pragmas) are left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { countStatements, invalidateLookups, type StatementCounter } from '../helpers/statement-counter.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { sql } from 'kysely';
import { testDialect } from '../helpers/database.js';
import { openPostgres } from '../../src/platform/db/database.js';
import { memberProjectKeysPage } from '../../src/accounts/finders.js';

let kiln: TestKiln;
let owner: TestUser;
let reader: TestUser;
let projectId = 0;
let projectPath = '';
let statements: StatementCounter;

beforeAll(async () => {
  // Before the app starts.
  statements = countStatements();
  kiln = await testKiln();
  owner = await kiln.createUser('stmt-owner');
  reader = await kiln.createUser('stmt-reader');
  const top = await kiln.createGroup(owner, 'stmt-top');
  const team = await kiln.createGroup(owner, 'stmt-team', { parent_id: top.id });
  await kiln.addMember(owner, 'groups', top.id, reader, ACCESS.developer);
  for (let i = 0; i < 25; i += 1) {
    const project = await kiln.createProject(owner, `service-${i}`, { namespace_id: team.id });
    if (i === 10) ({ id: projectId, path_with_namespace: projectPath } = project);
  }
  await kiln.createProject(owner, 'public-one', { visibility: 'public' });
});
afterAll(async () => {
  statements.restore();
  await kiln.close();
});

/** Statements run while answering, after a request that may write the token's last use. */
async function statementsOf(path: string, token?: string): Promise<{ count: number; status: number }> {
  await kiln.api('GET', path, { token });
  await invalidateLookups(kiln, reader.id, projectId);
  statements.count = 0;
  const { status } = await kiln.api('GET', path, { token });
  return { count: statements.count, status };
}

describe('statements per uncached read', () => {
  it('GET /projects/:id by id is one statement', async () => {
    expect(await statementsOf(`/projects/${projectId}`, reader.token)).toEqual({ count: 1, status: 200 });
  });

  it('GET /projects/:id by path is one statement', async () => {
    expect(await statementsOf(`/projects/${encodeURIComponent(projectPath)}`, reader.token)).toEqual({ count: 1, status: 200 });
  });

  // The project row says whether it has group links (has_group_links, kept with the links by
  // accounts/share-project.ts); the look-up reads the row, so a share and an unshare show at once.
  it('a project shared with a group is two statements, the second its shared_with_groups; unshared, one again', async () => {
    const shown = async () => (await kiln.api('GET', `/projects/${projectId}`, { token: reader.token })).body.shared_with_groups;
    expect(await shown()).toEqual([]);
    const guests = await kiln.createGroup(owner, 'stmt-guests', { visibility: 'public' });
    const shareWith = { group_id: guests.id, group_access: ACCESS.reporter };
    expect((await kiln.api('POST', `/projects/${projectId}/share`, { token: owner.token, body: shareWith })).status).toBe(201);
    const listed = [{ group_id: guests.id, group_name: 'stmt-guests', group_full_path: 'stmt-guests', group_access_level: ACCESS.reporter, expires_at: null }];
    expect(await shown()).toEqual(listed);
    expect(await statementsOf(`/projects/${projectId}`, reader.token)).toEqual({ count: 2, status: 200 });
    expect(JSON.stringify((await kiln.api('GET', `/projects/${projectId}`, { token: reader.token })).body)).not.toContain('has_group_links');
    expect((await kiln.api('DELETE', `/projects/${projectId}/share/${guests.id}`, { token: owner.token })).status).toBe(204);
    expect(await shown()).toEqual([]);
    expect(await statementsOf(`/projects/${projectId}`, reader.token)).toEqual({ count: 1, status: 200 });
  });

  it('a project-scoped route reads its project with the token: GET /projects/:id/members is the look-up and the listing', async () => {
    const { count, status } = await statementsOf(`/projects/${projectId}/members`, reader.token);
    expect(status).toBe(200);
    expect(count).toBeLessThanOrEqual(3);
  });

  it('a page of GET /projects whose entities are kept is two statements: the token, and the page with its count', async () => {
    // Newest first, five a page: the third page is service-15 to service-11, which invalidateLookups leaves alone.
    expect(await statementsOf('/projects?per_page=5&page=3', reader.token)).toEqual({ count: 2, status: 200 });
  });

  it('a project changed since its entity was kept adds its row and its namespace', async () => {
    // invalidateLookups updates service-10: on the fourth page of five, and on the first of twenty.
    expect(await statementsOf('/projects?per_page=5&page=4', reader.token)).toEqual({ count: 4, status: 200 });
    expect(await statementsOf('/projects?per_page=20', reader.token)).toEqual({ count: 4, status: 200 });
  });

  it('a page past the last reads its count on its own', async () => {
    // The reader sees the 25 projects of the group and the public one.
    const { body, headers } = await kiln.api('GET', '/projects?per_page=20&page=5', { token: reader.token });
    expect(body).toEqual([]);
    expect(headers).toMatchObject({ 'x-total': '26', 'x-total-pages': '2', 'x-next-page': '' });
    expect((await kiln.api('GET', '/projects?per_page=20&page=2', { token: reader.token })).headers).toMatchObject({ 'x-total': '26', 'x-prev-page': '1' });
    expect(await statementsOf('/projects?per_page=20&page=5', reader.token)).toEqual({ count: 3, status: 200 });
  });

  it('an anonymous page is one statement', async () => {
    expect(await statementsOf('/projects')).toEqual({ count: 1, status: 200 });
  });
});

describe('statements per read with the row cache off (KILN_READ_CACHE=false)', () => {
  let uncached: TestKiln;
  afterAll(async () => {
    await uncached?.close();
  });

  // Nothing is kept, so the project read with the token serves the route as it is: one statement
  // on either database (on PostgreSQL each one a round trip), never the same statement again.
  it('GET /projects/:id is one statement', async () => {
    uncached = await testKiln({ readCache: false });
    const owner = await uncached.createUser('off-owner');
    const project = await uncached.createProject(owner, 'off-service');
    await uncached.api('GET', `/projects/${project.id}`, { token: owner.token });
    // A write to what the read depends on, as invalidateLookups does: nothing remembered may answer it.
    await uncached.deps.db.updateTable('projects').set({ updated_at: uncached.clock.now() }).where('id', '=', project.id).execute();
    statements.count = 0;
    const { status } = await uncached.api('GET', `/projects/${project.id}`, { token: owner.token });
    expect({ count: statements.count, status }).toEqual({ count: 1, status: 200 });
  });

  // Off, nothing is kept between requests: nothing may be answered as another request was, whoever
  // asks and whatever for.
  it('answers each caller, project and page its own', async () => {
    const owner = await uncached.createUser('off-reader-a');
    const other = await uncached.createUser('off-reader-b');
    const first = await uncached.createProject(owner, 'off-first');
    const second = await uncached.createProject(owner, 'off-second', { visibility: 'public' });
    for (const project of [first, second, first]) {
      expect((await uncached.api('GET', `/projects/${project.id}`, { token: owner.token })).body).toMatchObject({ id: project.id, permissions: { project_access: { access_level: 50 } } });
    }
    expect((await uncached.api('GET', `/projects/${second.id}`, { token: other.token })).body).toMatchObject({ id: second.id, permissions: { project_access: null } });
    expect((await uncached.api('GET', `/projects/${first.id}`, { token: other.token })).status).toBe(404);
    const ids = async (token: string) => ((await uncached.api('GET', '/projects?per_page=100', { token })).body as Array<{ id: number }>).map((p) => p.id);
    expect(await ids(owner.token)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(await ids(other.token)).not.toContain(first.id);
    expect(await ids(other.token)).toContain(second.id);
  });
});

// PostgreSQL keeps a named statement's generic plan only when its estimate is no worse than the custom
// plans', and reads an unknown LIMIT as a tenth of the rows: the page of the caller's projects by
// membership, its size and offset bound, was planned on every run (pagination-queries.ts).
describe.skipIf(testDialect() !== 'postgres')('the first page of the caller\'s projects on PostgreSQL', () => {
  it('keeps a generic plan after five runs, and later pages share one statement text', async () => {
    // One connection, whose prepared statements pg_prepared_statements shows.
    const single = openPostgres({ url: kiln.testDb.url!, schema: kiln.testDb.schema!, poolSize: 1 });
    try {
      // A table of realistic size, analysed: at 27 projects any plan is cheap, and the generic one won
      // with the bounds bound as well. These 2,000 are copies of a project in someone else's namespace.
      const { rows: columns } = await sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = 'projects' and column_name not in ('id', 'name', 'path', 'full_path', 'full_path_lower')`.execute(single.db);
      const copied = sql.join(columns.map((column) => sql.ref(column.name)));
      await sql`insert into projects (name, path, full_path, full_path_lower, ${copied})
        select 'bulk-' || n, 'bulk-' || n, p.full_path || '-bulk-' || n, p.full_path_lower || '-bulk-' || n, ${copied}
        from projects p, generate_series(1, 2000) n where p.path = 'public-one'`.execute(single.db);
      await sql`analyze`.execute(single.db);
      const page = memberProjectKeysPage({ ...kiln.deps, db: single.db }, { id: reader.id, username: reader.username, name: reader.username, state: 'active', admin: false, otpRequired: false }, { membership: true })!;
      const first = page(20, 0);
      for (let run = 0; run < 7; run += 1) expect((await single.db.executeQuery(first)).rows).toHaveLength(20);
      const { rows } = await sql<{ generic_plans: number }>`select generic_plans from pg_prepared_statements where statement like '%member_projects%'`.execute(single.db);
      expect(rows).toHaveLength(1);
      expect(Number(rows[0].generic_plans)).toBeGreaterThan(0);
      expect(page(20, 20).sql).toBe(page(20, 40).sql);
    } finally {
      await single.close();
    }
  });
});
