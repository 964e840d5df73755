import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { WebSession } from '../helpers/browser-session.js';

// Sharing with a group (GitLab's group_group_links and project_group_links): the routes, and what the
// invited group's members may then do (platform/auth/membership-queries.ts).
let kiln: TestKiln;
let owner: TestUser;
let maint: TestUser;
let elder: TestUser;
let stranger: TestUser;
let shared: { id: number };
let sub: { id: number };
let org: { id: number };
let team: { id: number };
let third: { id: number };
let app: { id: number };
let lib: { id: number };
let solo: { id: number };

const level = async (user: TestUser, projectId: number) => {
  const { status, body } = await kiln.api('GET', `/projects/${projectId}`, { token: user.token });
  return status === 200 ? (body.permissions.project_access?.access_level ?? 0) : status;
};

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  maint = await kiln.createUser('maint');
  elder = await kiln.createUser('elder');
  stranger = await kiln.createUser('stranger');
  shared = await kiln.createGroup(owner, 'shared', { visibility: 'private' });
  sub = await kiln.createGroup(owner, 'sub', { visibility: 'private', parent_id: shared.id });
  app = await kiln.createProject(owner, 'app', { visibility: 'private', namespace_id: shared.id });
  lib = await kiln.createProject(owner, 'lib', { visibility: 'private', namespace_id: sub.id });
  org = await kiln.createGroup(owner, 'org', { visibility: 'private' });
  team = await kiln.createGroup(owner, 'team', { visibility: 'private', parent_id: org.id });
  third = await kiln.createGroup(owner, 'third', { visibility: 'private' });
  solo = await kiln.createProject(owner, 'solo', { visibility: 'private' });
  // maint: Maintainer of org/team; elder: Reporter of org, so of org/team through it.
  await kiln.addMember(owner, 'groups', team.id, maint, ACCESS.maintainer);
  await kiln.addMember(owner, 'groups', org.id, elder, ACCESS.reporter);
});
afterAll(() => kiln.close());

describe('POST /api/v4/groups/:id/share', () => {
  it('as a stranger to the group: 404', async () => {
    const { status } = await kiln.api('POST', `/groups/${shared.id}/share`, { token: stranger.token, body: { group_id: team.id, group_access: 30 } });
    expect(status).toBe(404);
  });

  it('before sharing, the invited members reach nothing', async () => {
    expect(await level(maint, app.id)).toBe(404);
    expect((await kiln.api('GET', `/groups/${shared.id}`, { token: maint.token })).status).toBe(404);
  });

  it('as the owner: refuses a group_access that is not a role (400 naming it) and a missing group_id', async () => {
    expect(await kiln.api('POST', `/groups/${shared.id}/share`, { token: owner.token, body: { group_id: team.id, group_access: 35 } }))
      .toMatchObject({ status: 400, body: { error: 'group_access does not have a valid value' } });
    expect(await kiln.api('POST', `/groups/${shared.id}/share`, { token: owner.token, body: { group_access: 30 } }))
      .toMatchObject({ status: 400, body: { error: 'group_id is missing' } });
    expect(await kiln.api('POST', `/groups/${shared.id}/share`, { token: owner.token, body: { group_id: team.id, group_access: 30, expires_at: 'soon' } }))
      .toMatchObject({ status: 400, body: { error: 'expires_at is invalid' } });
  });

  it('as the owner: 404 for a group the caller cannot read', async () => {
    const hidden = await kiln.createGroup(stranger, 'hidden', { visibility: 'private' });
    expect(await kiln.api('POST', `/groups/${shared.id}/share`, { token: owner.token, body: { group_id: hidden.id, group_access: 30 } }))
      .toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
  });

  it('as the owner: 409 for the group itself, a group above or below it', async () => {
    for (const group of [shared, sub]) {
      const { status } = await kiln.api('POST', `/groups/${shared.id}/share`, { token: owner.token, body: { group_id: group.id, group_access: 30 } });
      expect(status).toBe(409);
    }
    expect((await kiln.api('POST', `/groups/${sub.id}/share`, { token: owner.token, body: { group_id: shared.id, group_access: 30 } })).status).toBe(409);
  });

  it('as the owner: 201 with the group and its shared_with_groups', async () => {
    const { status, body } = await kiln.api('POST', `/groups/${shared.id}/share`, { token: owner.token, body: { group_id: team.id, group_access: ACCESS.developer } });
    expect(status).toBe(201);
    expect(body).toMatchObject({ id: shared.id, full_path: 'shared' });
    expect(body.shared_with_groups).toEqual([{ group_id: team.id, group_name: 'team', group_full_path: 'org/team', group_access_level: 30, expires_at: null }]);
  });

  it('as the owner: 409 for the same group again', async () => {
    const { status, body } = await kiln.api('POST', `/groups/${shared.id}/share`, { token: owner.token, body: { group_id: team.id, group_access: ACCESS.reporter } });
    expect(status).toBe(409);
    expect(body.message).toMatch(/already been shared/);
  });

  it('as an invited Maintainer (capped to Developer): 403, sharing needs Owner of the group', async () => {
    const { status } = await kiln.api('POST', `/groups/${shared.id}/share`, { token: maint.token, body: { group_id: team.id, group_access: 30 } });
    expect(status).toBe(403);
  });
});

describe('access through a shared group', () => {
  it('an invited Maintainer reads the private group, its subgroup and their projects at Developer', async () => {
    expect(await level(maint, app.id)).toBe(ACCESS.developer);
    expect(await level(maint, lib.id)).toBe(ACCESS.developer);
    expect((await kiln.api('GET', `/groups/${sub.id}`, { token: maint.token })).status).toBe(200);
  });

  it('an invited member through the invited group\'s parent gets the lower of the two levels', async () => {
    expect(await level(elder, app.id)).toBe(ACCESS.reporter);
  });

  it('cannot do what needs Maintainer', async () => {
    const { status } = await kiln.api('PUT', `/projects/${app.id}`, { token: maint.token, body: { description: 'changed' } });
    expect(status).toBe(403);
  });

  it('the projects and groups lists and the search include them', async () => {
    const projects = (await kiln.api('GET', '/projects?membership=true', { token: maint.token })).body.map((row: { id: number }) => row.id);
    expect(projects).toEqual(expect.arrayContaining([app.id, lib.id]));
    const groups = (await kiln.api('GET', '/groups', { token: maint.token })).body.map((row: { id: number }) => row.id);
    expect(groups).toEqual(expect.arrayContaining([shared.id, sub.id]));
    const found = (await kiln.api('GET', '/search?scope=projects&search=lib', { token: maint.token })).body.map((row: { id: number }) => row.id);
    expect(found).toContain(lib.id);
    expect((await kiln.api('GET', '/search?scope=projects&search=lib', { token: stranger.token })).body).toEqual([]);
  });

  it('the invited members are on the project\'s team (users, members/all) and see its events', async () => {
    const users = (await kiln.api('GET', `/projects/${app.id}/users`, { token: owner.token })).body.map((row: { id: number }) => row.id);
    expect(users).toEqual(expect.arrayContaining([maint.id, elder.id]));
    const all = (await kiln.api('GET', `/projects/${lib.id}/members/all`, { token: owner.token })).body;
    expect(all.map((row: { id: number; access_level: number }) => [row.id, row.access_level])).toEqual(expect.arrayContaining([[maint.id, 30], [elder.id, 20]]));
    const groupAll = (await kiln.api('GET', `/groups/${sub.id}/members/all/${maint.id}`, { token: owner.token })).body;
    expect(groupAll).toMatchObject({ id: maint.id, access_level: 30 });
    await kiln.apiAs(owner, 'POST', `/projects/${app.id}/issues`, { title: 'Shared work' });
    const events = (await kiln.api('GET', `/users/${owner.id}/events`, { token: maint.token })).body.map((row: { project_id: number }) => row.project_id);
    expect(events).toContain(app.id);
    expect((await kiln.api('GET', `/users/${owner.id}/events`, { token: stranger.token })).body.map((row: { project_id: number }) => row.project_id)).not.toContain(app.id);
  });

  it('does not chain: a group shared with the shared group is not reached by the invited members', async () => {
    await kiln.apiAs(owner, 'POST', `/groups/${third.id}/share`, { group_id: shared.id, group_access: ACCESS.maintainer });
    expect((await kiln.api('GET', `/groups/${third.id}`, { token: maint.token })).status).toBe(404);
    await kiln.apiAs(owner, 'DELETE', `/groups/${third.id}/share/${shared.id}`);
  });

  it('GET /groups/:id shows shared_with_groups to whoever reads the group', async () => {
    const { body } = await kiln.api('GET', `/groups/${shared.id}`, { token: maint.token });
    expect(body.shared_with_groups).toEqual([{ group_id: team.id, group_name: 'team', group_full_path: 'org/team', group_access_level: 30, expires_at: null }]);
  });
});

describe('DELETE /api/v4/groups/:id/share/:group_id', () => {
  it('as an invited member: 403', async () => {
    expect((await kiln.api('DELETE', `/groups/${shared.id}/share/${team.id}`, { token: maint.token })).status).toBe(403);
  });

  it('as the owner: 204, and the access is gone', async () => {
    expect((await kiln.api('DELETE', `/groups/${shared.id}/share/${team.id}`, { token: owner.token })).status).toBe(204);
    expect(await level(maint, app.id)).toBe(404);
    expect((await kiln.api('GET', `/groups/${shared.id}`, { token: owner.token })).body.shared_with_groups).toEqual([]);
  });

  it('as the owner: 404 when there is no such link', async () => {
    expect(await kiln.api('DELETE', `/groups/${shared.id}/share/${team.id}`, { token: owner.token }))
      .toMatchObject({ status: 404, body: { message: '404 Group Link Not Found' } });
  });
});

describe('POST /api/v4/projects/:id/share', () => {
  it('as a stranger: 404; as an invited Developer: 403', async () => {
    expect((await kiln.api('POST', `/projects/${solo.id}/share`, { token: stranger.token, body: { group_id: team.id, group_access: 20 } })).status).toBe(404);
    await kiln.apiAs(owner, 'POST', `/groups/${shared.id}/share`, { group_id: team.id, group_access: ACCESS.developer });
    expect((await kiln.api('POST', `/projects/${app.id}/share`, { token: maint.token, body: { group_id: third.id, group_access: 20 } })).status).toBe(403);
    await kiln.apiAs(owner, 'DELETE', `/groups/${shared.id}/share/${team.id}`);
  });

  it('as the owner: 400 for a bad group_access, 409 for the group the project is in or one above it', async () => {
    expect(await kiln.api('POST', `/projects/${solo.id}/share`, { token: owner.token, body: { group_id: team.id, group_access: 60 } }))
      .toMatchObject({ status: 400, body: { error: 'group_access does not have a valid value' } });
    expect(await kiln.api('POST', `/projects/${lib.id}/share`, { token: owner.token, body: { group_id: shared.id, group_access: 20 } }))
      .toMatchObject({ status: 409, body: { message: 'Project cannot be shared with the group it is in or one of its ancestors.' } });
  });

  it('as the owner: 201 with the link; the invited members read the project at the link\'s level', async () => {
    expect(await level(maint, solo.id)).toBe(404);
    const { status, body } = await kiln.api('POST', `/projects/${solo.id}/share`, { token: owner.token, body: { group_id: team.id, group_access: ACCESS.reporter } });
    expect(status).toBe(201);
    expect(body).toEqual({ id: expect.any(Number), project_id: solo.id, group_id: team.id, group_access: 20, expires_at: null });
    expect(await level(maint, solo.id)).toBe(ACCESS.reporter);
    expect(await level(elder, solo.id)).toBe(ACCESS.reporter);
    const projects = (await kiln.api('GET', '/projects?membership=true', { token: maint.token })).body.map((row: { id: number }) => row.id);
    expect(projects).toContain(solo.id);
    const { body: detail } = await kiln.api('GET', `/projects/${solo.id}`, { token: owner.token });
    expect(detail.shared_with_groups).toEqual([{ group_id: team.id, group_name: 'team', group_full_path: 'org/team', group_access_level: 20, expires_at: null }]);
  });

  it('GET /groups/:id/projects lists it unless with_shared=false; GET /projects/:id/groups with with_shared', async () => {
    const listed = async (query: string) => (await kiln.api('GET', `/groups/${team.id}/projects${query}`, { token: maint.token })).body.map((row: { id: number }) => row.id);
    expect(await listed('')).toEqual([solo.id]);
    expect(await listed('?with_shared=false')).toEqual([]);
    const groups = async (query: string) => (await kiln.api('GET', `/projects/${solo.id}/groups${query}`, { token: owner.token })).body.map((row: { id: number }) => row.id);
    expect(await groups('')).toEqual([]);
    expect(await groups('?with_shared=true')).toEqual([team.id]);
    expect(await groups('?with_shared=true&shared_min_access_level=30')).toEqual([]);
  });

  it('as the owner: 409 for the same group again', async () => {
    expect(await kiln.api('POST', `/projects/${solo.id}/share`, { token: owner.token, body: { group_id: team.id, group_access: 30 } }))
      .toMatchObject({ status: 409, body: { message: 'Group already shared with this group' } });
  });

  it('refused with 400 while the project\'s group has share_with_group_lock', async () => {
    await kiln.apiAs(owner, 'PUT', `/groups/${shared.id}`, { share_with_group_lock: true });
    expect(await kiln.api('POST', `/projects/${lib.id}/share`, { token: owner.token, body: { group_id: team.id, group_access: 20 } }))
      .toMatchObject({ status: 400, body: { message: 'The project sharing with group is disabled' } });
    await kiln.apiAs(owner, 'PUT', `/groups/${shared.id}`, { share_with_group_lock: false });
  });
});

describe('DELETE /api/v4/projects/:id/share/:group_id', () => {
  it('as the owner: 204, and the access is gone; then 404', async () => {
    expect((await kiln.api('DELETE', `/projects/${solo.id}/share/${team.id}`, { token: owner.token })).status).toBe(204);
    expect(await level(maint, solo.id)).toBe(404);
    expect((await kiln.api('GET', `/projects/${solo.id}/members/all`, { token: owner.token })).body.map((row: { id: number }) => row.id)).toEqual([owner.id]);
    expect(await kiln.api('DELETE', `/projects/${solo.id}/share/${team.id}`, { token: owner.token }))
      .toMatchObject({ status: 404, body: { message: '404 Group Link Not Found' } });
  });

  // GET /projects/:id reads the links only while the project row's has_group_links is set
  // (accounts/share-project.ts keeps it in the links' transaction).
  it('the project keeps showing the groups that remain, and none once the last goes', async () => {
    const flag = async () => Number((await kiln.deps.db.selectFrom('projects').select('has_group_links').where('id', '=', solo.id).executeTakeFirstOrThrow()).has_group_links);
    const shown = async () => (await kiln.api('GET', `/projects/${solo.id}`, { token: owner.token })).body.shared_with_groups.map((row: { group_id: number }) => row.group_id);
    expect(await flag()).toBe(0);
    for (const group of [team, third]) await kiln.apiAs(owner, 'POST', `/projects/${solo.id}/share`, { group_id: group.id, group_access: ACCESS.reporter });
    expect([await flag(), await shown()]).toEqual([1, [team.id, third.id]]);
    await kiln.apiAs(owner, 'DELETE', `/projects/${solo.id}/share/${team.id}`);
    expect([await flag(), await shown()]).toEqual([1, [third.id]]);
    await kiln.apiAs(owner, 'DELETE', `/projects/${solo.id}/share/${third.id}`);
    expect([await flag(), await shown()]).toEqual([0, []]);
  });
});

describe('has_group_links under concurrent writes', () => {
  // A share and the removal of another link at once: the removal's "none remain" must see the share
  // (on PostgreSQL both lock the project row first), or the project would hide a link it has.
  it('never leaves the flag 0 beside a link', async () => {
    const project = await kiln.createProject(owner, 'raced');
    const groups = [];
    for (let i = 0; i < 4; i += 1) groups.push(await kiln.createGroup(owner, `raced-${i}`));
    const hidden: number[] = [];
    for (let round = 0; round < 40; round += 1) {
      const [shared, removed] = [groups[round % 4], groups[(round + 2) % 4]];
      await kiln.apiAs(owner, 'POST', `/projects/${project.id}/share`, { group_id: removed.id, group_access: ACCESS.reporter });
      await Promise.all([
        kiln.apiAs(owner, 'DELETE', `/projects/${project.id}/share/${removed.id}`),
        kiln.apiAs(owner, 'POST', `/projects/${project.id}/share`, { group_id: shared.id, group_access: ACCESS.reporter }),
      ]);
      const row = await kiln.deps.db.selectFrom('projects').select('has_group_links').where('id', '=', project.id).executeTakeFirstOrThrow();
      if (Number(row.has_group_links) === 0) hidden.push(round);
      await kiln.apiAs(owner, 'DELETE', `/projects/${project.id}/share/${shared.id}`);
    }
    expect(hidden).toEqual([]);
  });
});

describe('the members pages', () => {
  it('invite a group and remove it, with CSRF, for those who may share', async () => {
    const web = new WebSession(kiln);
    await web.signIn(owner.username, owner.password);
    const page = `/owner/solo/-/project_members`;
    expect((await web.get(page)).body).toContain('id="invite-group"');
    const forged = await kiln.app.inject({ method: 'POST', url: page, headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'action=share&group_path=org%2Fteam&group_access=20' });
    expect(forged.statusCode).toBe(422);
    const unknown = await web.post(page, { action: 'share', group_path: 'nowhere', group_access: '20', expires_at: '' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('No group has that path.');
    expect((await web.post(page, { action: 'share', group_path: 'org/team', group_access: '20', expires_at: '' })).statusCode).toBe(303);
    expect((await web.get(page)).body).toContain('data-group="org/team"');
    expect(await level(maint, solo.id)).toBe(ACCESS.reporter);
    const again = await web.post(page, { action: 'share', group_path: 'org/team', group_access: '20', expires_at: '' });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('Group already shared with this group');
    expect((await web.post(page, { action: 'unshare', group_id: String(team.id) })).statusCode).toBe(303);
    expect((await web.get(page)).body).not.toContain('data-group="org/team"');
    expect(await level(maint, solo.id)).toBe(404);

    const groupPage = '/groups/shared/-/group_members';
    expect((await web.post(groupPage, { action: 'share', group_path: 'org/team', group_access: '30', expires_at: '' })).statusCode).toBe(303);
    const maintWeb = new WebSession(kiln);
    await maintWeb.signIn(maint.username, maint.password);
    const seen = (await maintWeb.get(groupPage)).body;
    expect(seen).toContain('data-group="org/team"');
    expect(seen).not.toContain('id="invite-group"');
    expect((await maintWeb.post(groupPage, { action: 'unshare', group_id: String(team.id) })).statusCode).toBe(400);
    expect((await web.post(groupPage, { action: 'unshare', group_id: String(team.id) })).statusCode).toBe(303);
  });
});

describe('expiry', () => {
  it('a share counts until the end of its expires_at day', async () => {
    await kiln.apiAs(owner, 'POST', `/groups/${shared.id}/share`, { group_id: team.id, group_access: ACCESS.developer, expires_at: '2026-11-23' });
    await kiln.apiAs(owner, 'POST', `/projects/${solo.id}/share`, { group_id: team.id, group_access: ACCESS.developer, expires_at: '2026-11-23' });
    expect(await level(maint, app.id)).toBe(ACCESS.developer);
    expect(await level(maint, solo.id)).toBe(ACCESS.developer);
    kiln.clock.advance(2 * 24 * 3600_000);
    expect(await level(maint, app.id)).toBe(404);
    expect(await level(maint, solo.id)).toBe(404);
    const projects = (await kiln.api('GET', '/projects?membership=true', { token: maint.token })).body.map((row: { id: number }) => row.id);
    expect(projects).not.toContain(app.id);
  });
});
