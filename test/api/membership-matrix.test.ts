// Membership levels in one place (issue 40): whoever may read a private project through a membership
// (direct, inherited from an ancestor group) reads it everywhere, the permission check, the project
// and group lists, the issue list across projects, search and activity events alike; an expired
// membership or a blocked account reads it nowhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let owner: TestUser;
const users: Record<string, TestUser> = {};
let top: any;
let sub: any;
let project: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  for (const name of ['direct', 'inherited', 'subgroup', 'expired', 'blocked', 'outsider']) users[name] = await kiln.createUser(name);
  top = await kiln.createGroup(owner, 'matrix-top');
  sub = await kiln.createGroup(owner, 'matrix-sub', { parent_id: top.id });
  project = await kiln.createProject(owner, 'matrix-project', { namespace_id: sub.id });
  await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Matrix issue' });
  await kiln.addMember(owner, 'projects', project.id, users.direct, 30);
  await kiln.addMember(owner, 'groups', top.id, users.inherited, 20);
  await kiln.addMember(owner, 'groups', sub.id, users.subgroup, 10);
  await kiln.addMember(owner, 'groups', sub.id, users.expired, 30);
  await kiln.addMember(owner, 'projects', project.id, users.blocked, 30);
  // An expiry date passed (the API refuses past dates): written as the expiry job finds it.
  await kiln.deps.db.updateTable('members').set({ expires_at: '2020-01-01' }).where('user_id', '=', users.expired.id).execute();
  await kiln.apiAs(kiln.root, 'POST', `/users/${users.blocked.id}/block`);
});
afterAll(() => kiln.close());

/** What each surface says about the project for this user: true when it shows it. */
async function surfaces(user: TestUser) {
  const token = user.token;
  const get = (path: string, query: Record<string, string> = {}) => kiln.api('GET', path, { token, query });
  const read = await get(`/projects/${project.id}`);
  const mine = await get('/projects', { membership: 'true' });
  const visible = await get('/projects');
  const groups = await get('/groups');
  const issues = await get('/issues', { scope: 'all' });
  const search = await get('/search', { scope: 'projects', search: 'matrix' });
  const events = await get(`/projects/${project.id}/events`);
  const shows = (answer: { status: number; body: any }, test: (row: any) => boolean) => answer.status === 200 && Array.isArray(answer.body) && answer.body.some(test);
  return {
    permission: read.status === 200,
    membershipList: shows(mine, (row) => row.id === project.id),
    projectList: shows(visible, (row) => row.id === project.id),
    groupList: shows(groups, (row) => row.id === sub.id),
    issues: shows(issues, (row) => row.project_id === project.id),
    search: shows(search, (row) => row.id === project.id),
    events: events.status === 200,
  };
}

const everywhere = { permission: true, membershipList: true, projectList: true, groupList: true, issues: true, search: true, events: true };
const nowhere = { permission: false, membershipList: false, projectList: false, groupList: false, issues: false, search: false, events: false };

describe('access to a private project in a private subgroup, on every surface', () => {
  it('a direct Developer of the project reads it everywhere (groups are not asked: a project member is no group member)', async () => {
    const { groupList: _groups, ...rest } = await surfaces(users.direct);
    const { groupList: _expected, ...expected } = everywhere;
    expect(rest).toEqual(expected);
  });

  it('a Reporter of the top-level group reads it everywhere through the chain', async () => {
    expect(await surfaces(users.inherited)).toEqual(everywhere);
  });

  it('a Guest of the subgroup reads it everywhere', async () => {
    expect(await surfaces(users.subgroup)).toEqual(everywhere);
  });

  it('an expired membership reads it nowhere', async () => {
    expect(await surfaces(users.expired)).toEqual(nowhere);
  });

  it('a blocked account reads it nowhere', async () => {
    expect(await surfaces(users.blocked)).toEqual(nowhere);
  });

  it('an outsider reads it nowhere', async () => {
    expect(await surfaces(users.outsider)).toEqual(nowhere);
  });
});
