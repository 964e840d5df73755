// GET /projects/:id/members/:user_id and GET /groups/:id/members/:user_id: one direct member, as
// GitLab's members API answers it; python-gitlab's members.get(…) (and so member.save()) reads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let stranger: TestUser;
let project: { id: number };
let group: { id: number };

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('developer');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'private-one');
  await kiln.api('POST', `/projects/${project.id}/members`, { token: owner.token, body: { user_id: developer.id, access_level: 30 } });
  group = (await kiln.api('POST', '/groups', { token: owner.token, body: { name: 'crew', path: 'crew' } })).body;
  await kiln.api('POST', `/groups/${group.id}/members`, { token: owner.token, body: { user_id: developer.id, access_level: 30 } });
});
afterAll(() => kiln.close());

for (const kind of ['projects', 'groups'] as const) {
  describe(`GET /api/v4/${kind}/:id/members/:user_id`, () => {
    const id = () => (kind === 'projects' ? project.id : group.id);

    describe('as a member', () => {
      it('answers the member with their access level', async () => {
        const { status, body } = await kiln.api('GET', `/${kind}/${id()}/members/${developer.id}`, { token: developer.token });
        expect(status).toBe(200);
        expect(body).toMatchObject({ id: developer.id, username: 'developer', access_level: 30, expires_at: null });
      });

      it('answers 404 for a user who is not a direct member', async () => {
        const { status, body } = await kiln.api('GET', `/${kind}/${id()}/members/${stranger.id}`, { token: developer.token });
        expect(status).toBe(404);
        expect(body).toEqual({ message: '404 Not found' });
      });
    });
  });
}

describe('GET /api/v4/projects/:id/members/:user_id', () => {
  describe('as a user who cannot read the private project', () => {
    it('answers 404', async () => {
      expect((await kiln.api('GET', `/projects/${project.id}/members/${developer.id}`, { token: stranger.token })).status).toBe(404);
    });
  });
});

describe('GET /api/v4/:kind/:id/members/all', () => {
  it('lists members with those inherited from the groups above, each once at their highest level', async () => {
    const inner = await kiln.createProject(owner, 'in-crew', { namespace_id: group.id });
    await kiln.api('POST', `/projects/${inner.id}/members`, { token: owner.token, body: { user_id: stranger.id, access_level: 20 } });
    await kiln.api('POST', `/projects/${inner.id}/members`, { token: owner.token, body: { user_id: developer.id, access_level: 40 } });
    const all = await kiln.api('GET', `/projects/${inner.id}/members/all`, { token: owner.token });
    expect(all.status).toBe(200);
    const levels = Object.fromEntries(all.body.map((member: { username: string; access_level: number }) => [member.username, member.access_level]));
    expect(levels).toEqual({ owner: 50, developer: 40, stranger: 20 });
    expect((await kiln.api('GET', `/projects/${inner.id}/members/all?query=strang`, { token: owner.token })).body.map((member: { id: number }) => member.id)).toEqual([stranger.id]);
    expect(await kiln.api('GET', `/projects/${inner.id}/members/all/${developer.id}`, { token: owner.token })).toMatchObject({ status: 200, body: { id: developer.id, access_level: 40 } });
    expect((await kiln.api('GET', `/groups/${group.id}/members/all/${stranger.id}`, { token: owner.token })).status).toBe(404);
    // A personal project's owner is its Owner.
    expect((await kiln.api('GET', `/projects/${project.id}/members/all`, { token: owner.token })).body.map((member: { username: string; access_level: number }) => [member.username, member.access_level])).toEqual([['owner', 50], ['developer', 30]]);
  });
});
