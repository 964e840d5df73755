// Custom attributes (issue 38): /users|groups|projects/:id/custom_attributes for administrators only,
// set (made or changed), read, listed and deleted with GitLab's answers; the lists' custom_attributes
// filter and with_custom_attributes, ignored for everyone else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let group: any;
let project: any;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  group = await kiln.createGroup(alice, 'team', { visibility: 'public' });
  project = await kiln.createProject(alice, 'app', { namespace_id: group.id, visibility: 'public' });
  await kiln.createProject(alice, 'other', { namespace_id: group.id, visibility: 'public' });
});
afterAll(() => kiln?.close());

const owners = () => [['users', alice.id], ['groups', group.id], ['projects', project.id]] as const;

describe('custom attributes', () => {
  it('an administrator sets, changes, reads, lists and deletes them on users, groups and projects', async () => {
    const root = kiln.root.token;
    for (const [kind, id] of owners()) {
      const base = `/${kind}/${id}/custom_attributes`;
      expect(await kiln.api('PUT', `${base}/location`, { token: root, body: { value: 'Antarctica' } })).toMatchObject({ status: 200, body: { key: 'location', value: 'Antarctica' } });
      expect((await kiln.api('PUT', `${base}/location`, { token: root, body: { value: 'Mars' } })).body).toEqual({ key: 'location', value: 'Mars' });
      await kiln.api('PUT', `${base}/cost_center`, { token: root, body: { value: '42' } });
      expect((await kiln.api('GET', base, { token: root })).body).toEqual([{ key: 'cost_center', value: '42' }, { key: 'location', value: 'Mars' }]);
      expect((await kiln.api('GET', `${base}/location`, { token: root })).body).toEqual({ key: 'location', value: 'Mars' });
      expect((await kiln.api('DELETE', `${base}/cost_center`, { token: root })).status).toBe(204);
      expect(await kiln.api('DELETE', `${base}/cost_center`, { token: root })).toMatchObject({ status: 404, body: { message: '404 Custom attribute Not Found' } });
      expect(await kiln.api('GET', `${base}/cost_center`, { token: root })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      expect(await kiln.api('PUT', `${base}/empty`, { token: root, body: {} })).toMatchObject({ status: 400, body: { error: 'value is missing' } });
    }
    expect((await kiln.api('GET', '/users/999999/custom_attributes', { token: root })).status).toBe(404);
    expect((await kiln.api('GET', `/projects/${encodeURIComponent(project.path_with_namespace)}/custom_attributes`, { token: root })).body).toEqual([{ key: 'location', value: 'Mars' }]);
  });

  it('are refused to anyone else, even the owner of the project (403)', async () => {
    for (const [kind, id] of owners()) {
      const base = `/${kind}/${id}/custom_attributes`;
      expect((await kiln.api('GET', base, { token: alice.token })).status).toBe(403);
      expect((await kiln.api('PUT', `${base}/x`, { token: alice.token, body: { value: 'y' } })).status).toBe(403);
      expect((await kiln.api('DELETE', `${base}/location`, { token: alice.token })).status).toBe(403);
      expect((await kiln.api('GET', base)).status).toBe(401);
    }
  });

  it('filter the lists and are shown with with_custom_attributes, for administrators only', async () => {
    const root = kiln.root.token;
    const names = async (path: string, token: string, field = 'name') => (await kiln.api('GET', path, { token })).body.map((item: any) => item[field]);
    expect(await names('/projects?custom_attributes[location]=Mars', root)).toEqual(['app']);
    expect(await names('/projects?custom_attributes[location]=Venus', root)).toEqual([]);
    expect((await names('/projects?custom_attributes[location]=Venus', alice.token)).sort()).toEqual(['app', 'other']);
    expect(await names('/groups?custom_attributes[location]=Mars', root)).toEqual(['team']);
    expect(await names('/users?custom_attributes[location]=Mars', root, 'username')).toEqual(['alice']);
    expect((await names('/users?custom_attributes[location]=Mars', bob.token, 'username')).length).toBeGreaterThan(1);

    const listed = (await kiln.api('GET', '/projects?with_custom_attributes=true&custom_attributes[location]=Mars', { token: root })).body;
    expect(listed[0].custom_attributes).toEqual([{ key: 'location', value: 'Mars' }]);
    expect((await kiln.api('GET', `/projects/${project.id}?with_custom_attributes=true`, { token: root })).body.custom_attributes).toEqual([{ key: 'location', value: 'Mars' }]);
    expect((await kiln.api('GET', `/projects/${project.id}?with_custom_attributes=true`, { token: alice.token })).body.custom_attributes).toBeUndefined();
    expect((await kiln.api('GET', `/groups/${group.id}?with_custom_attributes=true`, { token: root })).body.custom_attributes).toEqual([{ key: 'location', value: 'Mars' }]);
    expect((await kiln.api('GET', `/users/${alice.id}?with_custom_attributes=true`, { token: root })).body.custom_attributes).toEqual([{ key: 'location', value: 'Mars' }]);
    expect((await kiln.api('GET', '/users?with_custom_attributes=true&username=bob', { token: root })).body[0].custom_attributes).toEqual([]);
    expect((await kiln.api('GET', `/groups/${group.id}`, { token: root })).body.custom_attributes).toBeUndefined();
  });
});
