import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  outsider = await kiln.createUser('outsider');
});
afterAll(() => kiln.close());

describe('POST /api/v4/groups', () => {
  it('creates a top-level group (201) with GitLab\'s fields, the creator its owner', async () => {
    const { status, body } = await kiln.api('POST', '/groups', { token: owner.token, body: { name: 'Platform', path: 'platform', description: 'd' } });
    expect(status).toBe(201);
    expect(body).toMatchObject({ name: 'Platform', path: 'platform', full_path: 'platform', full_name: 'Platform', visibility: 'private', parent_id: null, web_url: 'http://kiln.test/groups/platform', description: 'd' });
    const members = await kiln.api('GET', `/groups/${body.id}/members`, { token: owner.token });
    expect(members.body).toEqual([expect.objectContaining({ username: 'owner', access_level: ACCESS.owner })]);
  });

  it('creates a subgroup under parent_id with the nested full_path and web_url', async () => {
    const parent = await kiln.createGroup(owner, 'outer');
    const child = await kiln.createGroup(owner, 'inner', { parent_id: parent.id });
    const grandchild = await kiln.createGroup(owner, 'core', { parent_id: child.id });
    expect(child).toMatchObject({ full_path: 'outer/inner', parent_id: parent.id, web_url: 'http://kiln.test/groups/outer/inner' });
    expect(grandchild).toMatchObject({ full_path: 'outer/inner/core', full_name: 'outer / inner / core' });
  });

  it('as a non-member of the parent answers 404 Parent group Not Found', async () => {
    const parent = await kiln.createGroup(owner, 'closed-parent');
    const { status, body } = await kiln.api('POST', '/groups', { token: outsider.token, body: { name: 'x', path: 'x', parent_id: parent.id } });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Parent group Not Found' });
  });

  it('as a developer of the parent answers 403 (subgroups need Maintainer)', async () => {
    const parent = await kiln.createGroup(owner, 'dev-parent');
    await kiln.addMember(owner, 'groups', parent.id, outsider, ACCESS.developer);
    const { status } = await kiln.api('POST', '/groups', { token: outsider.token, body: { name: 'x', path: 'x', parent_id: parent.id } });
    expect(status).toBe(403);
  });

  it('refuses a subgroup more visible than its parent', async () => {
    const parent = await kiln.createGroup(owner, 'private-parent');
    const { status, body } = await kiln.api('POST', '/groups', { token: owner.token, body: { name: 'p', path: 'p', parent_id: parent.id, visibility: 'public' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { visibility_level: ['public is not allowed since the parent group has a private visibility.'] } });
  });

  it('refuses a public subgroup of an internal group, and accepts an internal or private one', async () => {
    const parent = await kiln.createGroup(owner, 'internal-parent', { visibility: 'internal' });
    const refused = await kiln.api('POST', '/groups', { token: owner.token, body: { name: 'o', path: 'o', parent_id: parent.id, visibility: 'public' } });
    expect(refused.body).toEqual({ message: { visibility_level: ['public is not allowed since the parent group has a internal visibility.'] } });
    expect((await kiln.api('POST', '/groups', { token: owner.token, body: { name: 'i', path: 'i', parent_id: parent.id, visibility: 'internal' } })).status).toBe(201);
    expect((await kiln.api('POST', '/groups', { token: owner.token, body: { name: 'q', path: 'q', parent_id: parent.id } })).body.visibility).toBe('private');
  });

  it('as a maintainer of the parent creates a subgroup and becomes its owner', async () => {
    const parent = await kiln.createGroup(owner, 'maint-parent');
    const maintainer = await kiln.createUser('sub-maker');
    await kiln.addMember(owner, 'groups', parent.id, maintainer, ACCESS.maintainer);
    const { status, body } = await kiln.api('POST', '/groups', { token: maintainer.token, body: { name: 'made', path: 'made', parent_id: parent.id } });
    expect(status).toBe(201);
    const members = await kiln.api('GET', `/groups/${body.id}/members`, { token: maintainer.token });
    expect(members.body).toEqual([expect.objectContaining({ username: 'sub-maker', access_level: ACCESS.owner })]);
  });

  it('without a token answers 401', async () => {
    expect((await kiln.api('POST', '/groups', { body: { name: 'anon', path: 'anon' } })).status).toBe(401);
  });

  it('refuses a taken path with 400 "has already been taken"', async () => {
    await kiln.createGroup(owner, 'taken');
    const { status, body } = await kiln.api('POST', '/groups', { token: owner.token, body: { name: 'taken', path: 'TAKEN' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { path: ['has already been taken'] } });
  });

  it('refuses a group named like a username (shared namespace space)', async () => {
    const { status } = await kiln.api('POST', '/groups', { token: owner.token, body: { name: 'outsider', path: 'outsider' } });
    expect(status).toBe(400);
  });

  it('refuses an invalid or reserved path', async () => {
    expect((await kiln.api('POST', '/groups', { token: owner.token, body: { name: 'bad', path: '-bad' } })).status).toBe(400);
    expect((await kiln.api('POST', '/groups', { token: owner.token, body: { name: 'api', path: 'api' } })).body.message.path).toEqual(['api is a reserved name']);
  });
});

describe('GET /api/v4/groups/:id', () => {
  it('finds a group by id and by URL-encoded full path', async () => {
    const parent = await kiln.createGroup(owner, 'lookup');
    const child = await kiln.createGroup(owner, 'child', { parent_id: parent.id });
    expect((await kiln.api('GET', `/groups/${child.id}`, { token: owner.token })).body.full_path).toBe('lookup/child');
    expect((await kiln.api('GET', '/groups/lookup%2Fchild', { token: owner.token })).body.id).toBe(child.id);
    expect((await kiln.api('GET', '/groups/lookup', { token: owner.token })).body.id).toBe(parent.id);
  });

  it('hides a private group from a non-member: 404 {"message":"404 Group Not Found"}', async () => {
    const group = await kiln.createGroup(owner, 'hidden');
    const { status, body } = await kiln.api('GET', `/groups/${group.id}`, { token: outsider.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Group Not Found' });
  });

  describe('without a token', () => {
    it('shows a public group, and answers 404 for an internal or private one', async () => {
      const open = await kiln.createGroup(owner, 'anon-open', { visibility: 'public' });
      const inside = await kiln.createGroup(owner, 'anon-inside', { visibility: 'internal' });
      const closed = await kiln.createGroup(owner, 'anon-closed');
      expect(await kiln.api('GET', `/groups/${open.id}`)).toMatchObject({ status: 200, body: { id: open.id, visibility: 'public' } });
      expect(await kiln.api('GET', `/groups/${inside.id}`)).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
      expect((await kiln.api('GET', `/groups/${closed.id}`)).status).toBe(404);
    });
  });

  it('shows an internal group to any signed-in user and a public one too', async () => {
    const internal = await kiln.createGroup(owner, 'inside', { visibility: 'internal' });
    const open = await kiln.createGroup(owner, 'open', { visibility: 'public' });
    expect((await kiln.api('GET', `/groups/${internal.id}`, { token: outsider.token })).status).toBe(200);
    expect((await kiln.api('GET', `/groups/${open.id}`, { token: outsider.token })).status).toBe(200);
  });

  it('as a member of an ancestor group shows a private subgroup (inherited membership)', async () => {
    const top = await kiln.createGroup(owner, 'inherit-top');
    const sub = await kiln.createGroup(owner, 'sub', { parent_id: top.id });
    const deeper = await kiln.createGroup(owner, 'deeper', { parent_id: sub.id });
    const reader = await kiln.createUser('inherit-reader');
    expect((await kiln.api('GET', `/groups/${deeper.id}`, { token: reader.token })).status).toBe(404);
    await kiln.addMember(owner, 'groups', top.id, reader, ACCESS.reporter);
    expect((await kiln.api('GET', `/groups/${deeper.id}`, { token: reader.token })).status).toBe(200);
  });
});

describe('GET /api/v4/groups', () => {
  it('as a user lists the groups they belong to and public/internal ones, never others\' private ones', async () => {
    const viewer = await kiln.createUser('viewer');
    const mine = await kiln.createGroup(viewer, 'viewers-own');
    const secret = await kiln.createGroup(owner, 'owners-secret');
    const ids = (await kiln.api('GET', '/groups?per_page=100', { token: viewer.token })).body.map((group: { id: number }) => group.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(secret.id);
  });

  it('without a token lists public groups only', async () => {
    const open = await kiln.createGroup(owner, 'list-open', { visibility: 'public' });
    const inside = await kiln.createGroup(owner, 'list-inside', { visibility: 'internal' });
    const closed = await kiln.createGroup(owner, 'list-closed');
    const { status, body } = await kiln.api('GET', '/groups?search=list-&per_page=100');
    expect(status).toBe(200);
    const ids = body.map((group: { id: number }) => group.id);
    expect(ids).toEqual([open.id]);
    expect(ids).not.toContain(inside.id);
    expect(ids).not.toContain(closed.id);
  });

  it('top_level_only=true leaves subgroups out', async () => {
    const lister = await kiln.createUser('lister');
    const top = await kiln.createGroup(lister, 'lister-top');
    const sub = await kiln.createGroup(lister, 'lister-sub', { parent_id: top.id });
    const all = (await kiln.api('GET', '/groups?search=lister', { token: lister.token })).body.map((group: { id: number }) => group.id);
    const topOnly = (await kiln.api('GET', '/groups?search=lister&top_level_only=true', { token: lister.token })).body.map((group: { id: number }) => group.id);
    expect(all.sort()).toEqual([top.id, sub.id].sort());
    expect(topOnly).toEqual([top.id]);
  });
});

describe('projects in groups', () => {
  it('a developer of the group creates a project there; a reporter gets 403', async () => {
    const group = await kiln.createGroup(owner, 'proj-home');
    const dev = await kiln.createUser('group-dev');
    const reporter = await kiln.createUser('group-reporter');
    await kiln.addMember(owner, 'groups', group.id, dev, ACCESS.developer);
    await kiln.addMember(owner, 'groups', group.id, reporter, ACCESS.reporter);
    const made = await kiln.api('POST', '/projects', { token: dev.token, body: { name: 'svc', namespace_id: group.id } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ path_with_namespace: 'proj-home/svc', web_url: 'http://kiln.test/proj-home/svc' });
    expect(made.body.namespace).toMatchObject({ kind: 'group', full_path: 'proj-home' });
    expect((await kiln.api('POST', '/projects', { token: reporter.token, body: { name: 'svc2', namespace_id: group.id } })).status).toBe(403);
  });

  it('a member of the top group reads a private project two levels down, with the inherited access level', async () => {
    const top = await kiln.createGroup(owner, 'deep-top');
    const mid = await kiln.createGroup(owner, 'mid', { parent_id: top.id });
    const project = await kiln.createProject(owner, 'app', { namespace_id: mid.id });
    const dev = await kiln.createUser('deep-dev');
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: dev.token })).status).toBe(404);
    await kiln.addMember(owner, 'groups', top.id, dev, ACCESS.developer);
    const { status, body } = await kiln.api('GET', '/projects/deep-top%2Fmid%2Fapp', { token: dev.token });
    expect(status).toBe(200);
    expect(body.permissions.project_access.access_level).toBe(ACCESS.developer);
    const listed = (await kiln.api('GET', '/projects?membership=true', { token: dev.token })).body.map((p: { id: number }) => p.id);
    expect(listed).toContain(project.id);
  });
});

describe('GET /api/v4/groups', () => {
  it('leaves out skip_groups, sent comma-separated (python-gitlab) or as repeated keys', async () => {
    const kept = await kiln.createGroup(owner, 'skip-kept', { visibility: 'public' });
    const one = await kiln.createGroup(owner, 'skip-one', { visibility: 'public' });
    const two = await kiln.createGroup(owner, 'skip-two', { visibility: 'public' });
    const ids = async (query: string) => ((await kiln.api('GET', `/groups?search=skip-${query}`, { token: owner.token })).body as Array<{ id: number }>).map((group) => group.id);
    expect(await ids('')).toEqual([kept.id, one.id, two.id]);
    expect(await ids(`&skip_groups=${one.id},${two.id}`)).toEqual([kept.id]);
    expect(await ids(`&skip_groups[]=${two.id}`)).toEqual([kept.id, one.id]);
    expect((await kiln.api('GET', '/groups?skip_groups=one', { token: owner.token })).status).toBe(400);
  });
});
