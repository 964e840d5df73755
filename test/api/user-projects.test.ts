// GET /users/:user_id/projects (GitLab's lib/api/projects.rb): the projects in a user's personal
// namespace that the caller can see, with the filters of GET /projects; a user by id or username, 404
// for one that does not exist. python-gitlab's user.projects.list() calls it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  await kiln.createProject(alice, 'open-tool', { visibility: 'public' });
  await kiln.createProject(alice, 'inside-tool', { visibility: 'internal' });
  await kiln.createProject(alice, 'own-notes', { visibility: 'private' });
  await kiln.createProject(bob, 'bobs-tool', { visibility: 'public' });
});
afterAll(() => kiln?.close());

const names = async (path: string, user?: TestUser) => {
  const response = await kiln.api('GET', path, user ? { token: user.token } : {});
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as Array<{ path: string }>).map((project) => project.path);
};

describe('GET /users/:user_id/projects', () => {
  it("lists the projects of the user's namespace the caller can see, newest first", async () => {
    expect(await names(`/users/${alice.id}/projects`, alice)).toEqual(['own-notes', 'inside-tool', 'open-tool']);
    expect(await names('/users/alice/projects', kiln.root)).toEqual(['own-notes', 'inside-tool', 'open-tool']);
    expect(await names('/users/alice/projects', bob)).toEqual(['inside-tool', 'open-tool']);
    expect(await names('/users/alice/projects')).toEqual(['open-tool']);
    expect(await names(`/users/${bob.id}/projects`, alice)).toEqual(['bobs-tool']);
  });

  it('takes the filters and pagination of GET /projects', async () => {
    expect(await names('/users/alice/projects?visibility=private', alice)).toEqual(['own-notes']);
    expect(await names('/users/alice/projects?search=tool&order_by=name&sort=asc', alice)).toEqual(['inside-tool', 'open-tool']);
    const page = await kiln.api('GET', '/users/alice/projects?per_page=2', { token: alice.token });
    expect(page.body).toHaveLength(2);
    expect(page.headers['x-total']).toBe('3');
  });

  it('answers 404 User Not Found for a user who does not exist, and 400 for a wrong filter', async () => {
    expect(await kiln.api('GET', '/users/nobody-here/projects', { token: alice.token })).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    expect(await kiln.api('GET', '/users/999999/projects')).toMatchObject({ status: 404 });
    expect((await kiln.api('GET', '/users/alice/projects?visibility=secret', { token: alice.token })).status).toBe(400);
  });
});
