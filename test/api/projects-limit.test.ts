// Personal project limits (issue 38): the default_projects_limit setting, each user's projects_limit
// (given to new users from the setting, set by administrators), and GitLab's refusal of a personal
// project beyond it (Project#check_personal_projects_limit); groups are not limited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';

let kiln: TestKiln;

beforeAll(async () => {
  kiln = await testKiln();
});
afterAll(() => kiln.close());

const root = () => ({ token: kiln.root.token });
const setDefault = (limit: number) => kiln.api('PUT', '/application/settings', { ...root(), body: { default_projects_limit: limit } });

describe('PUT /api/v4/application/settings default_projects_limit', () => {
  it("is stored and read back (python-gitlab's test_gitlab_settings), and new users get it as projects_limit", async () => {
    expect((await setDefault(42)).body.default_projects_limit).toBe(42);
    expect((await kiln.api('GET', '/application/settings', root())).body.default_projects_limit).toBe(42);
    const user = await kiln.createUser('limited-by-default');
    expect((await kiln.api('GET', '/user', { token: user.token })).body.projects_limit).toBe(42);
    await setDefault(100_000);
  });
});

describe('POST and PUT /api/v4/users projects_limit', () => {
  it('as an administrator sets it and answers it; a negative one is 400 naming it', async () => {
    const created = await kiln.api('POST', '/users', { ...root(), body: { username: 'given-limit', name: 'Given', email: 'given@example.com', password: 'a-long-password-1', projects_limit: 3 } });
    expect([created.status, created.body.projects_limit]).toEqual([201, 3]);
    const changed = await kiln.api('PUT', `/users/${created.body.id}`, { ...root(), body: { projects_limit: 5 } });
    expect(changed.body.projects_limit).toBe(5);
    const refused = await kiln.api('PUT', `/users/${created.body.id}`, { ...root(), body: { projects_limit: -1 } });
    expect([refused.status, refused.body.message]).toEqual([400, { projects_limit: ['must be greater than or equal to 0'] }]);
  });
});

describe('POST /api/v4/projects in a personal namespace', () => {
  it('is refused past the creator\'s projects_limit, with GitLab\'s message; a group project is not limited', async () => {
    const user = await kiln.createUser('two-only');
    await kiln.api('PUT', `/users/${user.id}`, { ...root(), body: { projects_limit: 2 } });
    for (const name of ['one', 'two']) expect((await kiln.api('POST', '/projects', { token: user.token, body: { name } })).status).toBe(201);
    const third = await kiln.api('POST', '/projects', { token: user.token, body: { name: 'three' } });
    expect([third.status, third.body.message]).toEqual([400, { limit_reached: ['Your project limit is 2 projects! Please contact your administrator to increase it'] }]);
    const group = await kiln.createGroup(user, 'unlimited-group');
    expect((await kiln.api('POST', '/projects', { token: user.token, body: { name: 'in-group', namespace_id: group.id } })).status).toBe(201);
  });

  it('answers can_create_project (GET /user, and to an administrator GET /users and /users/:id) from the projects left under the limit', async () => {
    const user = await kiln.createUser('counting-down');
    await kiln.api('PUT', `/users/${user.id}`, { ...root(), body: { projects_limit: 1 } });
    const canCreate = async () => [
      (await kiln.api('GET', '/user', { token: user.token })).body.can_create_project,
      (await kiln.api('GET', `/users/${user.id}`, root())).body.can_create_project,
      (await kiln.api('GET', '/users?username=counting-down', root())).body[0].can_create_project,
    ];
    expect(await canCreate()).toEqual([true, true, true]);
    expect((await kiln.api('POST', '/projects', { token: user.token, body: { name: 'only-one' } })).status).toBe(201);
    expect(await canCreate()).toEqual([false, false, false]);
    // A group's projects do not count.
    const group = await kiln.createGroup(user, 'counting-group');
    await kiln.api('PUT', `/users/${user.id}`, { ...root(), body: { projects_limit: 2 } });
    expect((await kiln.api('POST', '/projects', { token: user.token, body: { name: 'grouped', namespace_id: group.id } })).status).toBe(201);
    expect(await canCreate()).toEqual([true, true, true]);
  });

  it('with projects_limit 0 says personal project creation is not allowed', async () => {
    const user = await kiln.createUser('no-personal');
    await kiln.api('PUT', `/users/${user.id}`, { ...root(), body: { projects_limit: 0 } });
    const refused = await kiln.api('POST', '/projects', { token: user.token, body: { name: 'mine' } });
    expect([refused.status, refused.body.message]).toEqual([400, { limit_reached: ['Personal project creation is not allowed. Please contact your administrator with questions'] }]);
  });
});

describe('forks and transfers into a personal namespace', () => {
  let upstream: { id: number };
  let user: Awaited<ReturnType<TestKiln['createUser']>>;
  let group: { id: number };

  beforeAll(async () => {
    const owner = await kiln.createUser('upstream-owner');
    upstream = await kiln.createProject(owner, 'upstream', { visibility: 'public' });
    user = await kiln.createUser('at-limit');
    await kiln.api('PUT', `/users/${user.id}`, { ...root(), body: { projects_limit: 1 } });
    expect((await kiln.api('POST', '/projects', { token: user.token, body: { name: 'only' } })).status).toBe(201);
    group = await kiln.createGroup(user, 'at-limit-group');
  });

  it('a fork into the personal namespace past the limit is 409 with the model\'s message; into a group it is made', async () => {
    const refused = await kiln.api('POST', `/projects/${upstream.id}/fork`, { token: user.token });
    expect([refused.status, refused.body.message]).toEqual([409, ['Limit reached Your project limit is 1 projects! Please contact your administrator to increase it']]);
    expect((await kiln.api('POST', `/projects/${upstream.id}/fork`, { token: user.token, body: { namespace_id: group.id } })).status).toBe(201);
  });

  it('a transfer into the personal namespace past the limit is 400; under it the project moves', async () => {
    const project = await kiln.apiAs(user, 'POST', '/projects', { name: 'movable', namespace_id: group.id });
    const refused = await kiln.api('PUT', `/projects/${project.id}/transfer`, { token: user.token, body: { namespace: 'at-limit' } });
    expect([refused.status, refused.body.message]).toEqual([400, 'Failed to transfer project {:new_namespace=>["You don\'t have permission to transfer projects into that namespace."]}']);
    await kiln.api('PUT', `/users/${user.id}`, { ...root(), body: { projects_limit: 2 } });
    const moved = await kiln.api('PUT', `/projects/${project.id}/transfer`, { token: user.token, body: { namespace: 'at-limit' } });
    expect([moved.status, moved.body.path_with_namespace]).toEqual([200, 'at-limit/movable']);
  });
});
