// GET /projects/:id/runners lists every runner the project can use, as GitLab's
// Ci::Runner.owned_or_instance_wide: its project runners, the group runners of its group and the
// groups above it (not of other groups, nor other projects' runners), and the instance's runners;
// none of the instance's while shared_runners_enabled is off, none of the groups' while
// group_runners_enabled is off. The type, status, paused and tag_list filters apply to the whole
// set. Maintainers and administrators list them (read_project_runners); a Developer gets 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let maintainer: TestUser;
let developer: TestUser;
let stranger: TestUser;
let project: any;
const ids: Record<string, number> = {};

const runner = async (name: string, body: Record<string, unknown>) => {
  ids[name] = (await kiln.apiAs(kiln.root, 'POST', '/user/runners', { description: name, run_untagged: true, ...body })).id;
};
const listed = async (query = '', user = maintainer) => {
  const answer = await kiln.api('GET', `/projects/${project.id}/runners${query}`, { token: user.token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.map((item: any) => item.description).sort();
};

beforeAll(async () => {
  kiln = await testKiln();
  maintainer = await kiln.createUser('pr-maintainer');
  developer = await kiln.createUser('pr-developer');
  stranger = await kiln.createUser('pr-stranger');
  const top = await kiln.createGroup(kiln.root, 'pr-top');
  const sub = await kiln.createGroup(kiln.root, 'pr-sub', { parent_id: top.id });
  const other = await kiln.createGroup(kiln.root, 'pr-other');
  project = await kiln.createProject(kiln.root, 'app', { namespace_id: sub.id });
  const neighbour = await kiln.createProject(kiln.root, 'neighbour', { namespace_id: sub.id });
  await kiln.addMember(kiln.root, 'projects', project.id, maintainer, ACCESS.maintainer);
  await kiln.addMember(kiln.root, 'projects', project.id, developer, ACCESS.developer);
  await runner('instance', { runner_type: 'instance_type', tag_list: ['docker'] });
  await runner('top', { runner_type: 'group_type', group_id: top.id, tag_list: ['docker', 'linux'] });
  await runner('sub', { runner_type: 'group_type', group_id: sub.id });
  await runner('other-group', { runner_type: 'group_type', group_id: other.id });
  await runner('own', { runner_type: 'project_type', project_id: project.id, tag_list: ['linux'] });
  await runner('neighbour', { runner_type: 'project_type', project_id: neighbour.id });
  await kiln.apiAs(kiln.root, 'PUT', `/runners/${ids.sub}`, { paused: true });
});

afterAll(async () => {
  await kiln?.close();
});

describe('GET /projects/:id/runners', () => {
  it("lists the project's own runners, those of its group and the groups above it, and the instance's", async () => {
    expect(await listed()).toEqual(['instance', 'own', 'sub', 'top']);
    const entities = (await kiln.apiAs(maintainer, 'GET', `/projects/${project.id}/runners`)) as any[];
    expect(entities.find((item) => item.id === ids.top)).toMatchObject({ runner_type: 'group_type', is_shared: false, paused: false, status: 'never_contacted' });
    expect(entities.find((item) => item.id === ids.instance)).toMatchObject({ runner_type: 'instance_type', is_shared: true });
  });

  it('filters the whole set by type, paused, status and tag_list', async () => {
    expect(await listed('?type=instance_type')).toEqual(['instance']);
    expect(await listed('?type=group_type')).toEqual(['sub', 'top']);
    expect(await listed('?type=project_type')).toEqual(['own']);
    expect(await listed('?paused=true')).toEqual(['sub']);
    expect(await listed('?paused=false&type=group_type')).toEqual(['top']);
    expect(await listed('?status=never_contacted')).toEqual(['instance', 'own', 'sub', 'top']);
    expect(await listed('?status=online')).toEqual([]);
    expect(await listed('?tag_list=docker')).toEqual(['instance', 'top']);
    expect(await listed('?tag_list=docker,linux')).toEqual(['top']);
    expect((await kiln.api('GET', `/projects/${project.id}/runners?type=specific`, { token: maintainer.token })).status).toBe(400);
  });

  it("leaves out the instance's runners while shared_runners_enabled is off, the groups' while group_runners_enabled is", async () => {
    await kiln.apiAs(kiln.root, 'PUT', `/projects/${project.id}`, { shared_runners_enabled: false });
    expect(await listed()).toEqual(['own', 'sub', 'top']);
    await kiln.apiAs(kiln.root, 'PUT', `/projects/${project.id}`, { group_runners_enabled: false });
    expect(await listed()).toEqual(['own']);
    await kiln.apiAs(kiln.root, 'PUT', `/projects/${project.id}`, { shared_runners_enabled: true, group_runners_enabled: true });
    expect(await listed()).toEqual(['instance', 'own', 'sub', 'top']);
  });

  it('is for Maintainers and administrators: a Developer gets 403, a stranger to the private project 404, nobody 401', async () => {
    expect(await listed('', kiln.root)).toEqual(['instance', 'own', 'sub', 'top']);
    expect((await kiln.api('GET', `/projects/${project.id}/runners`, { token: developer.token })).status).toBe(403);
    expect((await kiln.api('GET', `/projects/${project.id}/runners`, { token: stranger.token })).status).toBe(404);
    expect((await kiln.api('GET', `/projects/${project.id}/runners`)).status).toBe(401);
  });
});
