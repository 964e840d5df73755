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
async function generalPage(user: AuthUser | null, input: Record<string, unknown>): Promise<{ count: number; body: string }> {
  const page = pageOf(input);
  const query = visibleProjectsQuery(kiln.deps, user, {});
  const rows = await query.limit(page.perPage).offset(page.offset).execute();
  const all = await query.execute();
  const namespaces = await namespacesOf(kiln.deps, rows);
  return { count: all.length, body: JSON.stringify(rows.map((row) => projectEntity(kiln.config.baseUrl, row, namespaces.get(Number(row.namespace_id))!))) };
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
