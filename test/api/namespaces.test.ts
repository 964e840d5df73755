// GET /namespaces, /namespaces/:id and /namespaces/:id/exists, as GitLab's namespaces API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { cleanPath } from '../../src/namespaces/suggest-path.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let team: any;
let sub: any;
let other: any;
let hidden: any;
let aliceNamespace: any;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  carol = await kiln.createUser('carol');
  team = await kiln.createGroup(alice, 'team', { visibility: 'internal' });
  sub = await kiln.createGroup(alice, 'sub', { parent_id: team.id, visibility: 'internal' });
  other = await kiln.createGroup(bob, 'other-team', { visibility: 'public' });
  hidden = await kiln.createGroup(bob, 'hidden', { visibility: 'private' });
  await kiln.addMember(bob, 'groups', other.id, alice, ACCESS.developer);
  await kiln.addMember(alice, 'groups', team.id, carol, ACCESS.guest);
  await kiln.addMember(alice, 'groups', sub.id, bob, ACCESS.reporter);
  const list = await kiln.api('GET', '/namespaces', { token: alice.token, query: { search: 'alice' } });
  aliceNamespace = list.body.find((namespace: any) => namespace.kind === 'user');
});
afterAll(() => kiln.close());

describe('GET /api/v4/namespaces', () => {
  describe('as a user', () => {
    it('lists their personal namespace and the groups they are a member of, by id, with pagination headers', async () => {
      const { status, body, headers } = await kiln.api('GET', '/namespaces', { token: alice.token });
      expect(status).toBe(200);
      expect(body.map((namespace: any) => namespace.full_path)).toEqual(['alice', 'team', 'team/sub', 'other-team']);
      expect(headers['x-total']).toBe('4');
      expect(body[0]).toEqual({ id: aliceNamespace.id, name: expect.any(String), path: 'alice', kind: 'user', full_path: 'alice', parent_id: null, avatar_url: 'http://kiln.test/-/avatars/alice.svg', web_url: 'http://kiln.test/alice' });
    });

    it('shows members_count_with_descendants only on groups the caller administers', async () => {
      const { body } = await kiln.api('GET', '/namespaces', { token: alice.token });
      const byPath = Object.fromEntries(body.map((namespace: any) => [namespace.full_path, namespace]));
      // team: alice (owner) and carol; its subgroup adds bob (alice is a member of both).
      expect(byPath.team.members_count_with_descendants).toBe(3);
      expect(byPath['team/sub'].members_count_with_descendants).toBe(2);
      expect(byPath['other-team']).not.toHaveProperty('members_count_with_descendants');
      expect(byPath.alice).not.toHaveProperty('members_count_with_descendants');
      expect(byPath.team).toMatchObject({ kind: 'group', web_url: 'http://kiln.test/groups/team', parent_id: null });
      expect(byPath['team/sub'].parent_id).toBe(team.id);
    });

    it('filters with owned_only, top_level_only, search and full_path_search', async () => {
      const paths = async (query: Record<string, string>) => (await kiln.api('GET', '/namespaces', { token: alice.token, query })).body.map((namespace: any) => namespace.full_path);
      expect(await paths({ owned_only: 'true' })).toEqual(['alice', 'team', 'team/sub']);
      expect(await paths({ top_level_only: 'true' })).toEqual(['alice', 'team', 'other-team']);
      expect(await paths({ search: 'team' })).toEqual(['team', 'other-team']);
      expect(await paths({ search: 'team/s', full_path_search: 'true' })).toEqual(['team/sub']);
      expect(await paths({ search: '%' })).toEqual([]);
    });

    it('does not list groups the user only inherits or cannot see', async () => {
      const { body } = await kiln.api('GET', '/namespaces', { token: carol.token });
      expect(body.map((namespace: any) => namespace.full_path)).toEqual(['carol', 'team']);
    });
  });

  describe('as an administrator', () => {
    it('lists every namespace', async () => {
      const { body } = await kiln.api('GET', '/namespaces', { token: kiln.root.token, query: { per_page: '100' } });
      expect(body.map((namespace: any) => namespace.full_path)).toEqual(expect.arrayContaining(['root', 'alice', 'bob', 'carol', 'team', 'team/sub', 'other-team', 'hidden']));
      expect(body.find((namespace: any) => namespace.full_path === 'hidden').members_count_with_descendants).toBe(1);
    });
  });

  describe('anonymously', () => {
    it('returns 401', async () => {
      expect((await kiln.api('GET', '/namespaces')).status).toBe(401);
    });
  });
});

describe('GET /api/v4/namespaces/:id', () => {
  describe('as a user', () => {
    it('returns a namespace by id or by URL-encoded full path', async () => {
      const byId = await kiln.api('GET', `/namespaces/${sub.id}`, { token: alice.token });
      expect(byId.status).toBe(200);
      expect(byId.body).toMatchObject({ id: sub.id, full_path: 'team/sub', kind: 'group', members_count_with_descendants: 2 });
      const byPath = await kiln.api('GET', '/namespaces/team%2Fsub', { token: alice.token });
      expect(byPath.body).toEqual(byId.body);
      expect((await kiln.api('GET', '/namespaces/alice', { token: alice.token })).body.kind).toBe('user');
    });

    it('reads a group the caller can read without being a member, without member counts', async () => {
      const { status, body } = await kiln.api('GET', `/namespaces/${other.id}`, { token: carol.token });
      expect(status).toBe(200);
      expect(body).not.toHaveProperty('members_count_with_descendants');
    });

    it("answers 404 Namespace Not Found for someone else's personal namespace, a private group and a missing one", async () => {
      for (const id of ['bob', String(hidden.id), 'hidden', 'nothing-here', '999999']) {
        const { status, body } = await kiln.api('GET', `/namespaces/${id}`, { token: carol.token });
        expect(status, id).toBe(404);
        expect(body).toEqual({ message: '404 Namespace Not Found' });
      }
    });
  });

  describe('as an administrator', () => {
    it("reads anyone's personal namespace", async () => {
      expect((await kiln.api('GET', '/namespaces/bob', { token: kiln.root.token })).body.kind).toBe('user');
    });
  });
});

describe('GET /api/v4/namespaces/:id/exists', () => {
  describe('as a user', () => {
    it('says whether a top-level path is taken, case-insensitively, and suggests a free one', async () => {
      expect((await kiln.api('GET', '/namespaces/TEAM/exists', { token: carol.token })).body).toEqual({ exists: true, suggests: ['TEAM1'] });
      expect((await kiln.api('GET', '/namespaces/alice/exists', { token: carol.token })).body).toEqual({ exists: true, suggests: ['alice1'] });
      expect((await kiln.api('GET', '/namespaces/fresh/exists', { token: carol.token })).body).toEqual({ exists: false, suggests: [] });
    });

    it('looks only among the children of parent_id when given', async () => {
      expect((await kiln.api('GET', '/namespaces/sub/exists', { token: carol.token })).body.exists).toBe(false);
      expect((await kiln.api('GET', '/namespaces/sub/exists', { token: carol.token, query: { parent_id: team.id } })).body).toEqual({ exists: true, suggests: ['sub1'] });
    });

    it('skips suggestions that are taken too', async () => {
      await kiln.createGroup(alice, 'team1');
      expect((await kiln.api('GET', '/namespaces/team/exists', { token: carol.token })).body.suggests).toEqual(['team2']);
    });

    it('refuses a parent_id that is not an integer', async () => {
      const { status, body } = await kiln.api('GET', '/namespaces/x/exists', { token: carol.token, query: { parent_id: 'abc' } });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'parent_id is invalid' });
    });
  });

  describe('anonymously', () => {
    it('returns 401', async () => {
      expect((await kiln.api('GET', '/namespaces/team/exists')).status).toBe(401);
    });
  });
});

describe('cleanPath (GitLab Namespace.clean_path)', () => {
  const CASES: Array<[string, string]> = [
    ['my group', 'mygroup'],
    ['user@example.com', 'user'],
    ['repo.git', 'repo'],
    ['--lead', 'lead'],
    ['trail...', 'trail'],
    ['!!!', 'blank'],
  ];
  for (const [input, output] of CASES) it(`${input} → ${output}`, () => expect(cleanPath(input)).toBe(output));
});
