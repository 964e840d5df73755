// GET /projects/:id/groups (GitLab's Projects::GroupsFinder): the project's group and the groups above
// it, newest first, as PublicGroupDetails; search and skip_groups; nothing for a project in a user's
// namespace; the project's own read rule (404 for those who may not see it). python-gitlab's
// project.groups.list() calls it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let top: any;
let team: any;
let project: any;
let personal: any;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  top = await kiln.createGroup(alice, 'tools', { visibility: 'public' });
  team = await kiln.createGroup(alice, 'team', { visibility: 'private', parent_id: top.id });
  await kiln.createGroup(alice, 'elsewhere', { visibility: 'public' });
  project = await kiln.createProject(alice, 'app', { namespace_id: team.id, visibility: 'private' });
  personal = await kiln.createProject(alice, 'notes', { visibility: 'public' });
});
afterAll(() => kiln?.close());

const groups = (id: number, query = '', user: TestUser = alice) => kiln.api('GET', `/projects/${id}/groups${query}`, { token: user.token });

describe('GET /projects/:id/groups', () => {
  it("answers the project's group and those above it, newest first, as GitLab's PublicGroupDetails", async () => {
    const response = await groups(project.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: team.id, web_url: `${kiln.config.baseUrl}/groups/tools/team`, name: 'team', avatar_url: null, full_name: expect.any(String), full_path: 'tools/team' },
      { id: top.id, web_url: `${kiln.config.baseUrl}/groups/tools`, name: 'tools', avatar_url: null, full_name: 'tools', full_path: 'tools' },
    ]);
    expect(response.headers['x-total']).toBe('2');
  });

  it('filters by search and skip_groups, takes with_shared (the project is shared with no group) and refuses a wrong level', async () => {
    expect((await groups(project.id, '?search=tea')).body.map((group: any) => group.id)).toEqual([team.id]);
    expect((await groups(project.id, `?skip_groups=${team.id}`)).body.map((group: any) => group.id)).toEqual([top.id]);
    expect((await groups(project.id, `?skip_groups[]=${team.id}&skip_groups[]=${top.id}`)).body).toEqual([]);
    expect((await groups(project.id, '?with_shared=true&shared_min_access_level=30')).body.map((group: any) => group.id)).toEqual([team.id, top.id]);
    expect(await groups(project.id, '?shared_min_access_level=31')).toMatchObject({ status: 400, body: { error: 'shared_min_access_level does not have a valid value' } });
  });

  it("answers none for a project in a user's namespace, and 404 to those who may not see the project", async () => {
    expect((await groups(personal.id, '', bob)).body).toEqual([]);
    expect((await kiln.api('GET', `/projects/${personal.id}/groups`)).status).toBe(200);
    expect((await groups(project.id, '', bob)).status).toBe(404);
    expect((await kiln.api('GET', `/projects/${project.id}/groups`)).status).toBe(404);
  });
});
