import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let dev: TestUser;
let stranger: TestUser;
let project: { id: number };

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  dev = await kiln.createUser('dev');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'app');
});
afterAll(() => kiln.close());

describe('POST /api/v4/projects/:id/members', () => {
  describe('as the owner', () => {
    it('adds a member (201) with the member entity', async () => {
      const { status, body } = await kiln.api('POST', `/projects/${project.id}/members`, { token: owner.token, body: { user_id: dev.id, access_level: ACCESS.developer } });
      expect(status).toBe(201);
      expect(body).toMatchObject({ id: dev.id, username: 'dev', access_level: 30, expires_at: null, state: 'active', web_url: 'http://kiln.test/dev' });
      expect((await kiln.api('GET', `/projects/${project.id}`, { token: dev.token })).status).toBe(200);
    });

    it('answers 409 "Member already exists" for an existing member', async () => {
      const { status, body } = await kiln.api('POST', `/projects/${project.id}/members`, { token: owner.token, body: { user_id: dev.id, access_level: ACCESS.developer } });
      expect(status).toBe(409);
      expect(body).toEqual({ message: 'Member already exists' });
    });

    it('refuses an access level that is not 10/20/30/40/50', async () => {
      const { status, body } = await kiln.api('POST', `/projects/${project.id}/members`, { token: owner.token, body: { user_id: stranger.id, access_level: 35 } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { access_level: ['is not included in the list'] } });
    });

    it('answers 404 User Not Found for an unknown user', async () => {
      const { status, body } = await kiln.api('POST', `/projects/${project.id}/members`, { token: owner.token, body: { user_id: 999999, access_level: 30 } });
      expect(status).toBe(404);
      expect(body).toEqual({ message: '404 User Not Found' });
    });

    it('answers 400 "access_level is missing" without an access level', async () => {
      const { body } = await kiln.api('POST', `/projects/${project.id}/members`, { token: owner.token, body: { user_id: stranger.id } });
      expect(body).toEqual({ error: 'access_level is missing' });
    });
  });

  describe('as a developer', () => {
    it('answers 403 {"message":"403 Forbidden"}', async () => {
      const { status, body } = await kiln.api('POST', `/projects/${project.id}/members`, { token: dev.token, body: { user_id: stranger.id, access_level: ACCESS.guest } });
      expect(status).toBe(403);
      expect(body).toEqual({ message: '403 Forbidden' });
    });
  });

  describe('as a non-member of a private project', () => {
    it('answers 404 Project Not Found', async () => {
      const { status, body } = await kiln.api('POST', `/projects/${project.id}/members`, { token: stranger.token, body: { user_id: stranger.id, access_level: ACCESS.owner } });
      expect(status).toBe(404);
      expect(body).toEqual({ message: '404 Project Not Found' });
    });
  });
});

describe('GET /api/v4/projects/:id/members', () => {
  it('lists direct members with pagination headers', async () => {
    const { status, body, headers } = await kiln.api('GET', `/projects/${project.id}/members`, { token: dev.token });
    expect(status).toBe(200);
    expect(body.map((member: { username: string }) => member.username)).toEqual(['dev']);
    expect(headers['x-total']).toBe('1');
  });

  it('narrows them by query, user_ids and skip_users, as python-gitlab’s members.list(user_ids=…) sends', async () => {
    const list = async (search: string) => (await kiln.api('GET', `/projects/${project.id}/members?${search}`, { token: dev.token })).body.map((member: { username: string }) => member.username);
    expect(await list(`user_ids[]=${dev.id}&user_ids[]=99999`)).toEqual(['dev']);
    expect(await list(`user_ids[]=${owner.id}`)).toEqual([]);
    expect(await list(`skip_users[]=${dev.id}`)).toEqual([]);
    expect(await list('query=DE')).toEqual(['dev']);
    expect(await list('query=nobody')).toEqual([]);
    const wrong = await kiln.api('GET', `/projects/${project.id}/members?user_ids[]=x`, { token: dev.token });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain('user_ids');
  });
});

describe('PUT /api/v4/projects/:id/members/:user_id', () => {
  it('as the owner changes the access level', async () => {
    const { status, body } = await kiln.api('PUT', `/projects/${project.id}/members/${dev.id}`, { token: owner.token, body: { access_level: ACCESS.maintainer } });
    expect(status).toBe(200);
    expect(body.access_level).toBe(ACCESS.maintainer);
    await kiln.api('PUT', `/projects/${project.id}/members/${dev.id}`, { token: owner.token, body: { access_level: ACCESS.developer } });
  });

  it('answers 404 for a user who is not a member', async () => {
    const { status, body } = await kiln.api('PUT', `/projects/${project.id}/members/${stranger.id}`, { token: owner.token, body: { access_level: ACCESS.developer } });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Member Not Found' });
  });
});

describe('DELETE /api/v4/projects/:id/members/:user_id', () => {
  it('as the owner removes a member (204, no body) who then loses access', async () => {
    const temp = await kiln.createUser('temp');
    await kiln.addMember(owner, 'projects', project.id, temp, ACCESS.reporter);
    const response = await kiln.request('DELETE', `/api/v4/projects/${project.id}/members/${temp.id}`, { token: owner.token });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: temp.token })).status).toBe(404);
  });

  it('a member may remove themself', async () => {
    const leaver = await kiln.createUser('leaver');
    await kiln.addMember(owner, 'projects', project.id, leaver, ACCESS.guest);
    expect((await kiln.api('DELETE', `/projects/${project.id}/members/${leaver.id}`, { token: leaver.token })).status).toBe(204);
  });

  it('as a developer removing someone else answers 403', async () => {
    const other = await kiln.createUser('other');
    await kiln.addMember(owner, 'projects', project.id, other, ACCESS.guest);
    expect((await kiln.api('DELETE', `/projects/${project.id}/members/${other.id}`, { token: dev.token })).status).toBe(403);
  });

  it('answers 404 Member Not Found for a non-member', async () => {
    const { status, body } = await kiln.api('DELETE', `/projects/${project.id}/members/${stranger.id}`, { token: owner.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Member Not Found' });
  });
});

describe('/api/v4/groups/:id/members', () => {
  it('membership of a group reaches projects of its subgroups; removing it takes access away', async () => {
    const group = await kiln.createGroup(owner, 'team');
    const sub = await kiln.createGroup(owner, 'backend', { parent_id: group.id });
    const inner = await kiln.createProject(owner, 'api', { namespace_id: sub.id });
    const member = await kiln.createUser('team-member');
    await kiln.addMember(owner, 'groups', group.id, member, ACCESS.maintainer);
    const listed = await kiln.api('GET', `/groups/${group.id}/members`, { token: member.token });
    expect(listed.body.map((m: { username: string; access_level: number }) => [m.username, m.access_level])).toEqual([['owner', 50], ['team-member', 40]]);
    // Maintainer inherited from the top group lets them add members to the project below.
    expect((await kiln.api('POST', `/projects/${inner.id}/members`, { token: member.token, body: { user_id: stranger.id, access_level: ACCESS.guest } })).status).toBe(201);
    expect((await kiln.api('DELETE', `/groups/${group.id}/members/${member.id}`, { token: owner.token })).status).toBe(204);
    expect((await kiln.api('GET', `/projects/${inner.id}`, { token: member.token })).status).toBe(404);
  });

  it('a membership that has expired grants nothing', async () => {
    const group = await kiln.createGroup(owner, 'expiring');
    const visitor = await kiln.createUser('visitor');
    const added = await kiln.api('POST', `/groups/${group.id}/members`, { token: owner.token, body: { user_id: visitor.id, access_level: ACCESS.reporter, expires_at: '2026-11-25' } });
    expect(added.status).toBe(201);
    expect(added.body.expires_at).toBe('2026-11-25');
    expect((await kiln.api('GET', `/groups/${group.id}`, { token: visitor.token })).status).toBe(200);
    kiln.clock.advance(4 * 24 * 3600_000);
    try {
      expect((await kiln.api('GET', `/groups/${group.id}`, { token: visitor.token })).status).toBe(404);
    } finally {
      kiln.clock.advance(-4 * 24 * 3600_000);
    }
  });
});
