// GET /projects without filters is one statement that returns the page as JSON built by the database
// (accounts/project-page-queries.ts). It must answer byte for byte what the general listing answers:
// visibleProjectsQuery's projects, presented by projectEntity and serialised by JSON.stringify.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { visibleProjectsPage } from '../../src/accounts/visible-projects-page.js';
import { namespacesOf, visibleProjectsQuery } from '../../src/accounts/finders.js';
import { projectEntity } from '../../src/accounts/entities.js';
import { findUser } from '../../src/accounts/lookup.js';
import { toAuthUser } from '../../src/accounts/user-entities.js';
import { pageOf } from '../../src/platform/http/pagination.js';
import type { AuthUser } from '../../src/platform/auth/principal.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { ensureStoredProjectEntities } from '../../src/accounts/stored-project-entities.js';
import { inTransaction } from '../../src/platform/db/database.js';
import type { DbTransaction } from '../../src/platform/db/statements.js';
import { testDialect } from '../helpers/database.js';
import { join } from 'node:path';
import { childDatabaseEnv, holdTransaction } from '../platform/process-helpers.js';

let kiln: TestKiln;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;
let expired: TestUser;

// Every character JSON escapes, quotes and backslashes, non-ASCII, astral and line-separator text.
const AWKWARD = `${Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('').slice(1)}"\\/é😀\u2028\u2029\u007f<tag>&'`;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('page-owner');
  member = await kiln.createUser('page-member');
  outsider = await kiln.createUser('page-outsider');
  expired = await kiln.createUser('page-expired');
  const top = await kiln.createGroup(owner, 'page-top', { visibility: 'internal' });
  const sub = await kiln.createGroup(owner, 'page-sub', { parent_id: top.id, visibility: 'internal' });
  await kiln.addMember(owner, 'groups', top.id, member, ACCESS.developer);
  const inSub = await kiln.createProject(owner, 'in-sub', { namespace_id: sub.id });
  await kiln.createProject(owner, 'in-top', { namespace_id: top.id, visibility: 'internal' });
  await kiln.createProject(owner, 'open', { visibility: 'public' });
  const direct = await kiln.createProject(owner, 'direct');
  await kiln.addMember(owner, 'projects', direct.id, outsider, ACCESS.reporter);
  const lapsed = await kiln.createProject(owner, 'lapsed');
  await kiln.addMember(owner, 'projects', lapsed.id, expired, ACCESS.reporter);
  await kiln.deps.db.updateTable('members').set({ expires_at: '2020-01-01' }).where('user_id', '=', expired.id).execute();
  for (let i = 0; i < 12; i += 1) await kiln.createProject(owner, `bulk-${i}`, { visibility: i % 3 === 0 ? 'public' : 'private' });
  // Values of every shape a column can hold.
  await kiln.deps.db
    .updateTable('projects')
    .set({ description: AWKWARD, name: `in ${AWKWARD}`, topics: JSON.stringify(['ops', AWKWARD, '']), avatar: 'logo-1.png', issues_access_level: 'disabled', star_count: 7, creator_id: null, created_at: 1, last_activity_at: 4_102_444_799_999 })
    .where('id', '=', inSub.id)
    .execute();
  await kiln.deps.db.updateTable('namespaces').set({ avatar: 'group_logo.svg', name: `Sub ${AWKWARD}` }).where('id', '=', sub.id).execute();
  await kiln.deps.db.updateTable('projects').set({ topics: 'not json', repository_access_level: 'private' }).where('id', '=', direct.id).execute();
  await kiln.deps.db.updateTable('projects').set({ topics: '{"a":1}' }).where('id', '=', lapsed.id).execute();
});
afterAll(() => kiln.close());

async function authUser(user: TestUser | 'root'): Promise<AuthUser> {
  return toAuthUser(await findUser(kiln.deps, user === 'root' ? 'root' : user.username));
}

/** The general listing's answer for the same caller and page, as the route built it before. */
async function generalPage(user: AuthUser | null, input: Record<string, unknown>, baseUrl = kiln.config.baseUrl): Promise<{ count: number; body: string }> {
  const page = pageOf(input);
  const query = visibleProjectsQuery(kiln.deps, user, {});
  const rows = await query.limit(page.perPage).offset(page.offset).execute();
  const all = await query.execute();
  const namespaces = await namespacesOf(kiln.deps, rows);
  return { count: all.length, body: JSON.stringify(rows.map((row) => projectEntity({ ...kiln.config, baseUrl }, row, namespaces.get(Number(row.namespace_id))!))) };
}

describe('the one-statement project page', () => {
  const callers: Array<[string, () => Promise<AuthUser | null>]> = [
    ['an anonymous caller', async () => null],
    ['the owner', () => authUser(owner)],
    ['a member of the parent group', () => authUser(member)],
    ['a direct project member outside the groups', () => authUser(outsider)],
    ['a user whose membership expired', () => authUser(expired)],
    ['an administrator', () => authUser('root')],
  ];
  for (const [who, caller] of callers) {
    it(`answers ${who} the bytes and count of the general listing, on every page`, async () => {
      const user = await caller();
      for (const input of [{}, { per_page: '5' }, { per_page: '5', page: '2' }, { per_page: '7', page: '3' }, { per_page: '5', page: '40' }]) {
        const expected = await generalPage(user, input);
        const actual = await visibleProjectsPage(kiln.deps, user, pageOf(input));
        expect(actual.body.text).toBe(expected.body);
        expect(actual.count).toBe(expected.count);
      }
    });
  }

  it('is what GET /projects answers, with the headers of the count', async () => {
    const { statusCode, body, headers } = await kiln.request('GET', '/api/v4/projects?per_page=5&page=2', { token: member.token });
    expect(statusCode).toBe(200);
    const expected = await generalPage(await authUser(member), { per_page: '5', page: '2' });
    expect(body).toBe(expected.body);
    expect(headers['x-total']).toBe(String(expected.count));
    expect(headers['x-total-pages']).toBe(String(Math.ceil(expected.count / 5)));
  });
});

// The page reads entities stored by triggers (accounts/project-entity-queries.ts): every change the
// API makes to what an entity shows must reach them.
describe('the stored project entities', () => {
  /** The stored page equals the general listing's, presented with the URLs the entities were stored with. */
  async function expectCurrent(baseUrl = kiln.config.baseUrl): Promise<void> {
    const root = await authUser('root');
    const expected = await generalPage(root, { per_page: '100' }, baseUrl);
    const actual = await visibleProjectsPage(kiln.deps, root, pageOf({ per_page: '100' }));
    expect(JSON.parse(actual.body.text)).toEqual(JSON.parse(expected.body));
    expect(actual.body.text).toBe(expected.body);
  }

  it('follow renames, moves, stars, edits and deletions through the API', async () => {
    const group = await kiln.createGroup(owner, 'entity-group');
    const child = await kiln.createGroup(owner, 'entity-child', { parent_id: group.id });
    const other = await kiln.createGroup(owner, 'entity-other');
    const project = await kiln.createProject(owner, 'entity-project', { namespace_id: child.id });
    const doomed = await kiln.createProject(owner, 'entity-doomed', { namespace_id: child.id });
    await expectCurrent();
    // A parent's new name and path reach the projects of its subgroup (their full paths and namespace).
    await kiln.apiAs(owner, 'PUT', `/groups/${group.id}`, { name: 'Entity Renamed', path: 'entity-renamed' });
    await expectCurrent();
    await kiln.apiAs(owner, 'PUT', `/projects/${project.id}`, { description: 'changed', topics: ['one', 'two'], issues_access_level: 'disabled' });
    await kiln.apiAs(owner, 'POST', `/projects/${project.id}/star`);
    await expectCurrent();
    await kiln.apiAs(owner, 'PUT', `/projects/${project.id}/transfer`, { namespace: other.id });
    await expectCurrent();
    await kiln.apiAs(owner, 'DELETE', `/projects/${doomed.id}`);
    expect(await kiln.deps.db.selectFrom('projects').select('id').where('id', '=', doomed.id).execute()).toEqual([]);
    expect(await kiln.deps.db.selectFrom('project_entities').select('project_id').where('project_id', '=', doomed.id).execute()).toEqual([]);
    await expectCurrent();
  });

  it('are rebuilt when the instance starts with another base URL, and left alone when it starts with the same', async () => {
    const [{ project_id }] = await kiln.deps.db.selectFrom('project_entities').select('project_id').limit(1).execute();
    // A start with the same code and URL installs nothing: a row changed behind the triggers' back stays.
    await kiln.deps.db.updateTable('project_entities').set({ tail: ',"stale":true}' }).where('project_id', '=', project_id).execute();
    await ensureStoredProjectEntities(kiln.deps);
    const stale = await kiln.deps.db.selectFrom('project_entities').select('tail').where('project_id', '=', project_id).executeTakeFirstOrThrow();
    expect(stale.tail).toBe(',"stale":true}');
    const elsewhere = 'https://code.example.org:8443';
    await ensureStoredProjectEntities({ ...kiln.deps, config: { ...kiln.deps.config, baseUrl: elsewhere } });
    await expectCurrent(elsewhere);
    // The triggers write the new URLs too, and going back rebuilds with the old ones.
    await kiln.apiAs(owner, 'POST', '/projects', { name: 'entity-after-move' });
    await expectCurrent(elsewhere);
    await ensureStoredProjectEntities(kiln.deps);
    await expectCurrent();
  });

  // Another process installing at the same moment (nodes started together after an upgrade) is
  // modelled by a child that takes the install's lock (SQLite's write lock, PostgreSQL's advisory
  // lock), records a definition of its own and commits a moment later. The start must wait for it and
  // then install over it, not fail: on SQLite a transaction that has read before it writes gets
  // SQLITE_BUSY at once while another holds the write lock, whatever the busy timeout. Had it not
  // waited, the child's later commit would leave the child's definition in place.
  it('wait for another process installing at the same moment, then install over it', async () => {
    const holder = holdInstallLock(500);
    await holder.held;
    const elsewhere = 'https://waited.example.org';
    await ensureStoredProjectEntities({ ...kiln.deps, config: { ...kiln.deps.config, baseUrl: elsewhere } });
    await holder.exited;
    const [definition] = await kiln.deps.db.selectFrom('derived_definitions').select('digest').where('name', '=', 'project_entities').execute();
    expect(definition.digest).not.toBe('installed-by-another');
    await expectCurrent(elsewhere);
    await ensureStoredProjectEntities(kiln.deps);
    await expectCurrent();
  });

  // PostgreSQL runs writers side by side (SQLite one at a time): a project edited while its group is
  // renamed by a transaction that has not committed yet must end with both changes in its entity,
  // whichever commits first.
  it.skipIf(testDialect() !== 'postgres')('hold both of two concurrent changes, to a project and to its namespace', async () => {
    const group = await kiln.createGroup(owner, 'entity-race');
    const project = await kiln.createProject(owner, 'entity-race-project', { namespace_id: group.id });
    for (const first of ['namespace', 'project'] as const) {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const begun = new Promise<void>((resolve) => (started = resolve));
      const renameNamespace = (trx: DbTransaction) => trx.updateTable('namespaces').set({ name: `Race ${first}` }).where('id', '=', group.id).execute();
      const editProject = (trx: DbTransaction) => trx.updateTable('projects').set({ description: `raced ${first}` }).where('id', '=', project.id).execute();
      const [firstWrite, secondWrite] = first === 'namespace' ? [renameNamespace, editProject] : [editProject, renameNamespace];
      const firstTransaction = inTransaction(kiln.deps.db, async (trx) => {
        await firstWrite(trx);
        started();
        await held;
      });
      await begun;
      const secondTransaction = inTransaction(kiln.deps.db, async (trx) => {
        await secondWrite(trx);
      });
      // The second waits, or has computed its entity from what it could see: let the first commit.
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      await Promise.all([firstTransaction, secondTransaction]);
      await expectCurrent();
      const page = await visibleProjectsPage(kiln.deps, await authUser('root'), pageOf({ per_page: '100' }));
      const stored = (JSON.parse(page.body.text) as Array<{ id: number }>).find((entity) => entity.id === project.id);
      expect(stored).toMatchObject({ description: `raced ${first}`, name_with_namespace: `Race ${first} / entity-race-project`, namespace: { name: `Race ${first}` } });
    }
  });
});

/**
 * A child process that takes the stored entities' install lock, records another definition's digest
 * and commits after `ms`.
 */
function holdInstallLock(ms: number): { held: Promise<void>; exited: Promise<void> } {
  const record = "update derived_definitions set digest = 'installed-by-another' where name = 'project_entities'";
  if (testDialect() === 'sqlite') return holdTransaction('sqlite', join(kiln.testDb.dataDir, 'kiln.sqlite3'), [record], ms);
  const lock = "select pg_advisory_xact_lock(74105108, hashtext('derived_definitions'))";
  return holdTransaction('postgres', childDatabaseEnv(kiln.testDb).KILN_DATABASE_URL, [lock, record], ms);
}
