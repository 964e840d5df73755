// A private group is readable by whoever may read a project in it or below it, without a role in the
// group (GitLab's GroupPolicy has_projects), and listed for them with the groups above it (GitLab's
// GroupsFinder over User#authorized_groups). What they see there is what a non-member of a public
// group sees: the projects they may read, not the group's members (can_read_group_member), not its
// namespace (read_namespace wants a role). A sibling subgroup with no project of theirs, a group above
// an empty subgroup they are a member of, and anyone else stay 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let reader: TestUser;
let invited: TestUser;
let empty: TestUser;
let stranger: TestUser;
let corp: { id: number };
let team: { id: number };
let other: { id: number };
let app: { id: number };

async function status(user: TestUser, path: string): Promise<number> {
  return (await kiln.api('GET', path, { token: user.token })).status;
}

async function groupPaths(user: TestUser, path = '/groups', query: Record<string, string | boolean> = {}): Promise<string[]> {
  const { status: code, body } = await kiln.api('GET', path, { token: user.token, query });
  expect(code).toBe(200);
  return body.map((group: { full_path: string }) => group.full_path).sort();
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  reader = await kiln.createUser('reader');
  invited = await kiln.createUser('invited');
  empty = await kiln.createUser('empty');
  stranger = await kiln.createUser('stranger');
  corp = await kiln.createGroup(owner, 'corp', { visibility: 'private' });
  team = await kiln.createGroup(owner, 'team', { visibility: 'private', parent_id: corp.id });
  other = await kiln.createGroup(owner, 'other', { visibility: 'private', parent_id: corp.id });
  const hollow = await kiln.createGroup(owner, 'hollow', { visibility: 'private', parent_id: corp.id });
  app = await kiln.createProject(owner, 'app', { visibility: 'private', namespace_id: team.id });
  await kiln.createProject(owner, 'secret', { visibility: 'private', namespace_id: team.id });
  const hidden = await kiln.createProject(owner, 'hidden', { visibility: 'private', namespace_id: other.id });
  await kiln.createProject(owner, 'direct', { visibility: 'private', namespace_id: corp.id });
  // reader: a Guest of corp/team/app only, until the day after tomorrow.
  await kiln.apiAs(owner, 'POST', `/projects/${app.id}/members`, { user_id: reader.id, access_level: ACCESS.guest, expires_at: '2026-11-24' });
  // invited: reaches corp/other/hidden only through a share of the project with their group.
  const friends = await kiln.createGroup(owner, 'friends', { visibility: 'private' });
  await kiln.addMember(owner, 'groups', friends.id, invited, ACCESS.developer);
  await kiln.apiAs(owner, 'POST', `/projects/${hidden.id}/share`, { group_id: friends.id, group_access: ACCESS.reporter });
  // empty: a member of corp/hollow, which holds no project.
  await kiln.addMember(owner, 'groups', hollow.id, empty, ACCESS.developer);
  await kiln.apiAs(owner, 'POST', `/projects/${app.id}/labels`, { name: 'bug', color: '#ff0000' });
  await kiln.apiAs(owner, 'POST', `/groups/${corp.id}/labels`, { name: 'corp-wide', color: '#00ff00' });
});
afterAll(() => kiln.close());

describe('reading the group', () => {
  it('reads the group holding the project and every group above it, not a sibling', async () => {
    expect(await status(reader, `/groups/${team.id}`)).toBe(200);
    expect(await status(reader, '/groups/corp%2Fteam')).toBe(200);
    expect(await status(reader, `/groups/${corp.id}`)).toBe(200);
    expect(await status(reader, `/groups/${other.id}`)).toBe(404);
    expect(await status(reader, '/groups/corp%2Fhollow')).toBe(404);
  });

  it('reads the groups above a project shared with their group', async () => {
    expect(await status(invited, `/groups/${other.id}`)).toBe(200);
    expect(await status(invited, `/groups/${corp.id}`)).toBe(200);
    expect(await status(invited, `/groups/${team.id}`)).toBe(404);
  });

  it('leaves a non-member, and the member of an empty subgroup, at 404 above it', async () => {
    for (const id of [corp.id, team.id, other.id]) expect(await status(stranger, `/groups/${id}`)).toBe(404);
    expect(await status(empty, '/groups/corp%2Fhollow')).toBe(200);
    expect(await status(empty, `/groups/${corp.id}`)).toBe(404);
  });
});

describe('what such a reader sees', () => {
  it('lists the group and those above it in GET /groups and the subgroup lists', async () => {
    expect(await groupPaths(reader)).toEqual(['corp', 'corp/team']);
    expect(await groupPaths(invited)).toEqual(['corp', 'corp/other', 'friends']);
    expect(await groupPaths(stranger)).toEqual([]);
    expect(await groupPaths(empty)).toEqual(['corp/hollow']);
    expect(await groupPaths(reader, `/groups/${corp.id}/subgroups`)).toEqual(['corp/team']);
    expect(await groupPaths(reader, `/groups/${corp.id}/descendant_groups`)).toEqual(['corp/team']);
  });

  it('lists only the projects they may read', async () => {
    const { body } = await kiln.api('GET', `/groups/${corp.id}/projects`, { token: reader.token, query: { include_subgroups: true } });
    expect(body.map((project: { path_with_namespace: string }) => project.path_with_namespace)).toEqual(['corp/team/app']);
    const search = await kiln.api('GET', `/groups/${corp.id}/search`, { token: reader.token, query: { scope: 'projects', search: 'corp' } });
    expect(search.status).toBe(200);
    expect(search.body.map((project: { path_with_namespace: string }) => project.path_with_namespace)).toEqual(['corp/team/app']);
  });

  it('does not read the group\'s members, its namespace or its wiki', async () => {
    expect(await status(reader, `/groups/${corp.id}/members`)).toBe(403);
    expect(await status(reader, `/groups/${corp.id}/members/all`)).toBe(403);
    expect(await status(reader, `/groups/${corp.id}/wikis`)).toBe(403);
    expect(await status(reader, `/namespaces/${corp.id}`)).toBe(404);
    const users = await kiln.api('GET', `/groups/${corp.id}/search`, { token: reader.token, query: { scope: 'users', search: 'owner' } });
    expect(users.status).toBe(200);
    expect(users.body).toEqual([]);
    // A member of the group finds its members.
    const found = await kiln.api('GET', `/groups/${corp.id}/search`, { token: owner.token, query: { scope: 'users', search: 'owner' } });
    expect(found.body.map((user: { username: string }) => user.username)).toEqual(['owner']);
  });

  it('reads the group\'s labels and their notification setting for it', async () => {
    const labels = await kiln.api('GET', `/groups/${corp.id}/labels`, { token: reader.token });
    expect(labels.status).toBe(200);
    expect(labels.body.map((label: { name: string }) => label.name)).toEqual(['corp-wide']);
    expect(await status(reader, `/groups/${corp.id}/notification_settings`)).toBe(200);
    expect(await status(stranger, `/groups/${corp.id}/notification_settings`)).toBe(404);
  });

  it('shows the group page with the readable project and no Members entry', async () => {
    const web = new WebSession(kiln);
    await web.signIn(reader.username, reader.password);
    const { statusCode, body } = await web.get('/groups/corp');
    expect(statusCode).toBe(200);
    expect(body).toContain('href="/groups/corp/team"');
    expect(body).not.toContain('corp/other');
    expect(body).not.toContain('/corp/direct');
    expect(body).not.toContain('group_members');
    const team = await web.get('/groups/corp/team');
    expect(team.body).toContain('href="/corp/team/app"');
    expect(team.body).not.toContain('secret');
    expect((await web.get('/groups/corp/-/group_members')).statusCode).toBe(403);
  });
});

describe('when the project membership ends', () => {
  it('no longer reads or lists the groups', async () => {
    kiln.clock.advance(3 * 24 * 3600 * 1000);
    expect(await status(reader, `/groups/${corp.id}`)).toBe(404);
    expect(await status(reader, `/groups/${team.id}`)).toBe(404);
    expect(await groupPaths(reader)).toEqual([]);
  });
});
