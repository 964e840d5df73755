// Editing groups: PUT /groups/:id (every parameter read back, renames moving what is below), DELETE
// through the job queue, transfer, and the listings of projects, subgroups and descendants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { multipart, TINY_PNG } from '../helpers/multipart.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  carol = await kiln.createUser('carol');
});
afterAll(() => kiln.close());

describe('PUT /api/v4/groups/:id', () => {
  describe('as an owner', () => {
    it('stores every documented parameter and answers them back', async () => {
      const group = await kiln.createGroup(alice, 'edit-me');
      const sent = { name: 'Edited', path: 'edited', description: 'about', visibility: 'internal' };
      const { status, body } = await kiln.api('PUT', `/groups/${group.id}`, { token: alice.token, body: sent });
      expect(status).toBe(200);
      expect(body).toMatchObject({ ...sent, full_path: 'edited' });
      expect((await kiln.api('GET', `/groups/${group.id}`, { token: alice.token })).body).toMatchObject({ ...sent, full_path: 'edited' });
      const { payload, contentType } = await multipart({ avatar: { filename: 'g.png', data: TINY_PNG } });
      const uploaded = await kiln.app.inject({ method: 'PUT', url: `/api/v4/groups/${group.id}`, headers: { 'private-token': alice.token, 'content-type': contentType }, payload });
      const avatarUrl = JSON.parse(uploaded.body).avatar_url;
      expect(avatarUrl).toBe(`http://kiln.test/uploads/-/system/group/avatar/${group.id}/g.png`);
      expect((await kiln.request('GET', new URL(avatarUrl).pathname, { token: alice.token })).statusCode).toBe(200);
      const download = await kiln.request('GET', `/api/v4/groups/${group.id}/avatar`, { token: alice.token });
      expect([download.statusCode, download.headers['content-type'], download.headers['content-disposition']]).toEqual([200, 'image/png', 'attachment; filename="g.png"']);
      expect(download.rawPayload.equals(TINY_PNG)).toBe(true);
      expect((await kiln.api('PUT', `/groups/${group.id}`, { token: alice.token, body: { avatar: '' } })).body.avatar_url).toBeNull();
      expect((await kiln.api('GET', `/groups/${group.id}/avatar`, { token: alice.token })).body).toEqual({ message: '404 Avatar Not Found' });
    });

    it('renaming moves the subgroups and projects below, and their old paths keep answering', async () => {
      const group = await kiln.createGroup(alice, 'old-top');
      const sub = await kiln.createGroup(alice, 'sub', { parent_id: group.id });
      const project = await kiln.createProject(alice, 'deep', { namespace_id: sub.id });
      await kiln.api('PUT', `/groups/${group.id}`, { token: alice.token, body: { path: 'new-top' } });
      expect((await kiln.api('GET', `/groups/${sub.id}`, { token: alice.token })).body.full_path).toBe('new-top/sub');
      expect((await kiln.api('GET', `/projects/${project.id}`, { token: alice.token })).body.path_with_namespace).toBe('new-top/sub/deep');
      expect((await kiln.api('GET', '/projects/old-top%2Fsub%2Fdeep', { token: alice.token })).body.id).toBe(project.id);
    });

    it('refuses a visibility below a project\'s or above the parent\'s, with GitLab\'s messages', async () => {
      const group = await kiln.createGroup(alice, 'vis-edit', { visibility: 'public' });
      await kiln.createProject(alice, 'public-one', { namespace_id: group.id, visibility: 'public' });
      expect((await kiln.api('PUT', `/groups/${group.id}`, { token: alice.token, body: { visibility: 'private' } })).body).toEqual({
        message: { visibility_level: ['private is not allowed since this group contains projects with higher visibility.'] },
      });
      const parent = await kiln.createGroup(alice, 'vis-parent', { visibility: 'private' });
      const child = await kiln.createGroup(alice, 'vis-child', { parent_id: parent.id });
      expect((await kiln.api('PUT', `/groups/${child.id}`, { token: alice.token, body: { visibility: 'public' } })).body).toEqual({
        message: { visibility_level: ['public is not allowed since the parent group has a private visibility.'] },
      });
    });

    it('keeps GitLab settings Kiln does not act on, and names a wrong value', async () => {
      const group = await kiln.createGroup(alice, 'stored-group');
      expect(await kiln.api('PUT', `/groups/${group.id}`, { token: alice.token, body: { lfs_enabled: false } })).toMatchObject({ status: 200, body: { lfs_enabled: false } });
      expect(await kiln.api('PUT', `/groups/${group.id}`, { token: alice.token, body: { lfs_enabled: 'sometimes' } })).toMatchObject({ status: 400, body: { error: 'lfs_enabled is invalid' } });
    });

    it('refuses a path a sibling has', async () => {
      await kiln.createGroup(alice, 'sibling-a');
      const b = await kiln.createGroup(alice, 'sibling-b');
      expect((await kiln.api('PUT', `/groups/${b.id}`, { token: alice.token, body: { path: 'sibling-a' } })).body).toEqual({ message: { path: ['has already been taken'] } });
    });
  });

  describe('as a maintainer', () => {
    it('answers 403', async () => {
      const group = await kiln.createGroup(alice, 'maint-edit');
      await kiln.addMember(alice, 'groups', group.id, bob, ACCESS.maintainer);
      expect((await kiln.api('PUT', `/groups/${group.id}`, { token: bob.token, body: { description: 'x' } })).status).toBe(403);
    });
  });
});

describe('DELETE /api/v4/groups/:id', () => {
  describe('as an owner', () => {
    it('answers 202, marks the group, and a job removes it with its subgroups and projects', async () => {
      const group = await kiln.createGroup(alice, 'doomed');
      const sub = await kiln.createGroup(alice, 'doomed-sub', { parent_id: group.id });
      const project = await kiln.createProject(alice, 'doomed-project', { namespace_id: sub.id });
      const { status, body } = await kiln.api('DELETE', `/groups/${group.id}`, { token: alice.token });
      expect(status).toBe(202);
      expect(body).toEqual({ message: '202 Accepted' });
      expect((await kiln.api('GET', `/groups/${group.id}`, { token: alice.token })).body.marked_for_deletion_on).toBe('2026-11-22');
      expect((await kiln.api('DELETE', `/groups/${group.id}`, { token: alice.token })).body).toEqual({ message: '400 Bad request - Group has been already marked for deletion' });
      await kiln.worker.drain();
      for (const path of [`/groups/${group.id}`, `/groups/${sub.id}`]) expect((await kiln.api('GET', path, { token: alice.token })).status).toBe(404);
      expect((await kiln.api('GET', `/projects/${project.id}`, { token: alice.token })).status).toBe(404);
      // The path is free again.
      expect((await kiln.api('POST', '/groups', { token: alice.token, body: { name: 'doomed', path: 'doomed' } })).status).toBe(201);
    });
  });

  describe('as a maintainer', () => {
    it('answers 403 and deletes nothing', async () => {
      const group = await kiln.createGroup(alice, 'kept');
      await kiln.addMember(alice, 'groups', group.id, bob, ACCESS.maintainer);
      expect((await kiln.api('DELETE', `/groups/${group.id}`, { token: bob.token })).status).toBe(403);
      await kiln.worker.drain();
      expect((await kiln.api('GET', `/groups/${group.id}`, { token: alice.token })).status).toBe(200);
    });
  });
});

describe('POST /api/v4/groups/:id/transfer', () => {
  it('moves a group under another, lowering what is more visible than the new parent', async () => {
    const target = await kiln.createGroup(alice, 'target-parent', { visibility: 'private' });
    const moving = await kiln.createGroup(alice, 'moving', { visibility: 'public' });
    const project = await kiln.createProject(alice, 'inside', { namespace_id: moving.id, visibility: 'public' });
    const { status, body } = await kiln.api('POST', `/groups/${moving.id}/transfer`, { token: alice.token, body: { group_id: target.id } });
    expect(status).toBe(201);
    expect(body).toMatchObject({ full_path: 'target-parent/moving', parent_id: target.id, visibility: 'private' });
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: alice.token })).body).toMatchObject({ path_with_namespace: 'target-parent/moving/inside', visibility: 'private' });
    const back = await kiln.api('POST', `/groups/${moving.id}/transfer`, { token: alice.token });
    expect(back.body).toMatchObject({ full_path: 'moving', parent_id: null });
  });

  it('answers 400 with GitLab\'s messages', async () => {
    const top = await kiln.createGroup(alice, 'already-root');
    const sub = await kiln.createGroup(alice, 'a-sub', { parent_id: top.id });
    expect((await kiln.api('POST', `/groups/${top.id}/transfer`, { token: alice.token })).body).toEqual({ message: 'Transfer failed: Group is already a root group.' });
    expect((await kiln.api('POST', `/groups/${sub.id}/transfer`, { token: alice.token, body: { group_id: top.id } })).body).toEqual({ message: 'Transfer failed: Group is already associated to the parent group.' });
    expect((await kiln.api('POST', `/groups/${top.id}/transfer`, { token: alice.token, body: { group_id: sub.id } })).body).toEqual({ message: 'Transfer failed: Cannot transfer group to one of its subgroup.' });
    const other = await kiln.createGroup(alice, 'other-parent');
    await kiln.createGroup(alice, 'a-sub', { parent_id: other.id });
    expect((await kiln.api('POST', `/groups/${sub.id}/transfer`, { token: alice.token, body: { group_id: other.id } })).body).toEqual({ message: 'Transfer failed: The parent group already has a subgroup or a project with the same path.' });
    const bobs = await kiln.createGroup(bob, 'bobs-parent', { visibility: 'public' });
    expect((await kiln.api('POST', `/groups/${sub.id}/transfer`, { token: alice.token, body: { group_id: bobs.id } })).body).toEqual({ message: "Transfer failed: You don't have enough permissions." });
  });
});

describe('POST /api/v4/groups/:id/projects/:project_id', () => {
  it('as an administrator moves the project into the group', async () => {
    const group = await kiln.createGroup(alice, 'receiving');
    const project = await kiln.createProject(bob, 'given');
    const { status, body } = await kiln.api('POST', `/groups/${group.id}/projects/${project.id}`, { token: kiln.root.token });
    expect([status, body.id]).toEqual([201, group.id]);
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: kiln.root.token })).body.path_with_namespace).toBe('receiving/given');
  });

  it('as the group owner answers 403', async () => {
    const group = await kiln.createGroup(alice, 'receiving-2');
    const project = await kiln.createProject(alice, 'own');
    expect((await kiln.api('POST', `/groups/${group.id}/projects/${project.id}`, { token: alice.token })).status).toBe(403);
  });
});

describe('GET /api/v4/groups/:id/projects, /subgroups and /descendant_groups', () => {
  let group: any;
  let sub: any;
  let hidden: any;
  beforeAll(async () => {
    group = await kiln.createGroup(alice, 'listing', { visibility: 'public' });
    sub = await kiln.createGroup(alice, 'listing-sub', { parent_id: group.id, visibility: 'public' });
    hidden = await kiln.createGroup(alice, 'listing-hidden', { parent_id: group.id });
    await kiln.createGroup(alice, 'listing-deeper', { parent_id: sub.id, visibility: 'public' });
    await kiln.createProject(alice, 'top-public', { namespace_id: group.id, visibility: 'public' });
    await kiln.createProject(alice, 'top-private', { namespace_id: group.id });
    await kiln.createProject(alice, 'sub-public', { namespace_id: sub.id, visibility: 'public' });
  });

  it('lists the projects a caller can see, with include_subgroups, search and simple', async () => {
    const names = async (query: Record<string, string>, token?: string) => (await kiln.api('GET', `/groups/${group.id}/projects`, { token, query })).body.map((p: any) => p.path).sort();
    expect(await names({}, alice.token)).toEqual(['top-private', 'top-public']);
    expect(await names({})).toEqual(['top-public']);
    expect(await names({ include_subgroups: 'true' }, carol.token)).toEqual(['sub-public', 'top-public']);
    expect(await names({ search: 'private' }, alice.token)).toEqual(['top-private']);
    const simple = (await kiln.api('GET', `/groups/${group.id}/projects`, { token: alice.token, query: { simple: 'true' } })).body[0];
    expect(simple.permissions).toBeUndefined();
    expect(simple.visibility).toBeUndefined();
    expect(simple.path_with_namespace).toMatch(/^listing\//);
  });

  it('lists direct subgroups and every descendant the caller can see', async () => {
    const sorted = (body: any[]) => body.map((g) => g.full_path).sort();
    expect(sorted((await kiln.api('GET', `/groups/${group.id}/subgroups`, { token: alice.token })).body)).toEqual(['listing/listing-hidden', 'listing/listing-sub']);
    expect(sorted((await kiln.api('GET', `/groups/${group.id}/subgroups`, { token: carol.token })).body)).toEqual(['listing/listing-sub']);
    expect(sorted((await kiln.api('GET', `/groups/${group.id}/descendant_groups`, { token: carol.token })).body)).toEqual(['listing/listing-sub', 'listing/listing-sub/listing-deeper']);
    expect(sorted((await kiln.api('GET', `/groups/${group.id}/subgroups`, { token: alice.token, query: { skip_groups: String(hidden.id) } })).body)).toEqual(['listing/listing-sub']);
  });

  it('of a private group answers 404 to others', async () => {
    expect((await kiln.api('GET', `/groups/${hidden.id}/projects`, { token: carol.token })).status).toBe(404);
    expect((await kiln.api('GET', `/groups/${hidden.id}/subgroups`, { token: carol.token })).status).toBe(404);
  });
});
