// Editing projects: PUT /projects/:id (every parameter read back), renames with redirects for the API
// and git, feature access levels in the policies, transfer, stars, avatars, and who has access.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { multipart, TINY_PNG } from '../helpers/multipart.js';

let kiln: TestKiln;
let work: string;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-projects-edit-'));
  kiln = await testKiln({ storages: [{ name: 'default', path: join(work, 'default'), weight: 100 }] });
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  carol = await kiln.createUser('carol');
});
afterAll(async () => {
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

const basic = (user: TestUser) => ({ authorization: `Basic ${Buffer.from(`${user.username}:${user.token}`).toString('base64')}` });

async function putMultipart(path: string, token: string, fields: Parameters<typeof multipart>[0]) {
  const { payload, contentType } = await multipart(fields);
  const response = await kiln.app.inject({ method: 'PUT', url: `/api/v4${path}`, headers: { 'private-token': token, 'content-type': contentType }, payload });
  return { status: response.statusCode, body: JSON.parse(response.body) };
}

describe('PUT /api/v4/projects/:id', () => {
  describe('as the owner', () => {
    it('stores every documented parameter and answers them back', async () => {
      const group = await kiln.createGroup(alice, 'every-param', { visibility: 'public' });
      const project = await kiln.createProject(alice, 'all', { namespace_id: group.id });
      const sent = {
        name: 'All Params',
        path: 'all-params',
        description: 'described',
        visibility: 'internal',
        default_branch: 'trunk',
        topics: ['kiln', 'gitlab'],
        issues_access_level: 'private',
        repository_access_level: 'private',
      };
      const { status, body } = await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: sent });
      expect(status).toBe(200);
      const read = (await kiln.api('GET', `/projects/${project.id}`, { token: alice.token })).body;
      for (const answer of [body, read]) {
        expect(answer).toMatchObject({ ...sent, path_with_namespace: 'every-param/all-params', tag_list: ['kiln', 'gitlab'], issues_enabled: true });
      }
      // The deprecated spellings land in the same place.
      const old = await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { tag_list: 'one,two', issues_enabled: false } });
      expect(old.body).toMatchObject({ topics: ['one', 'two'], issues_access_level: 'disabled', issues_enabled: false });
    });

    it('without any parameter answers 400 naming them, as Grape does', async () => {
      const project = await kiln.createProject(alice, 'nothing-sent');
      const { status, body } = await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: {} });
      expect(status).toBe(400);
      expect(body.error).toMatch(/^name, path, description, .* are missing, at least one parameter must be provided$/);
    });

    it('refuses what it cannot store with a 400 naming the parameter', async () => {
      const project = await kiln.createProject(alice, 'refusals');
      expect((await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { issues_access_level: 'public' } })).body).toEqual({ error: 'issues_access_level does not have a valid value' });
      expect((await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { visibility: 'secret' } })).body).toEqual({ error: 'visibility does not have a valid value' });
      expect((await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { path: 'bad path!' } })).body.message.path[0]).toMatch(/can contain only letters/);
      expect((await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { name: '  ' } })).body).toEqual({ message: { name: ["can't be blank"] } });
      expect((await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { default_branch: 'a..b' } })).body).toEqual({ message: { default_branch: ['is invalid'] } });
      expect((await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { avatar: 'not a file' } })).status).toBe(400);
    });

    it('keeps a project no more visible than its group (400 with GitLab\'s message)', async () => {
      const group = await kiln.createGroup(alice, 'private-home');
      const project = await kiln.createProject(alice, 'inside', { namespace_id: group.id });
      const { status, body } = await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { visibility: 'public' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { visibility_level: ['public is not allowed in a private group.'] } });
    });

    it('refuses a path another project of the namespace has', async () => {
      await kiln.createProject(alice, 'taken-path');
      const project = await kiln.createProject(alice, 'wants-path');
      const { status, body } = await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { path: 'taken-path' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { path: ['has already been taken'] } });
    });

    it('refuses a name another project of the namespace has', async () => {
      const project = await kiln.createProject(alice, 'wants-name');
      expect(await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { name: 'taken-path' } })).toMatchObject({ status: 400, body: { message: { name: ['has already been taken'] } } });
    });

    it('refuses an import URL it would not act on, naming it, and changes nothing', async () => {
      const project = await kiln.createProject(alice, 'unsupported');
      const { status, body } = await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { description: 'kept?', wiki_access_level: 'disabled', import_url: 'https://example.com/x.git' } });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'import_url is not supported' });
      expect((await kiln.api('GET', `/projects/${project.id}`, { token: alice.token })).body).toMatchObject({ description: '', wiki_access_level: 'enabled' });
    });
  });

  describe('the default branch', () => {
    it('is the repository HEAD: an existing branch is taken, a missing one refused while branches exist', async () => {
      const project = await kiln.createProject(alice, 'heads');
      const commit = (branch: string, extra: Record<string, string> = {}) =>
        kiln.api('POST', `/projects/${project.id}/repository/commits`, { token: alice.token, body: { branch, ...extra, commit_message: branch, actions: [{ action: 'create', file_path: `${branch}.txt`, content: branch }] } });
      expect((await commit('main')).status).toBe(201);
      expect((await commit('dev', { start_branch: 'main' })).status).toBe(201);
      expect(await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { default_branch: 'nope' } })).toMatchObject({
        status: 400,
        body: { message: { base: ["Could not change HEAD: branch 'nope' does not exist"] } },
      });
      expect((await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { default_branch: 'dev' } })).body.default_branch).toBe('dev');
      const dev = await kiln.api('GET', `/projects/${project.id}/repository/branches/dev`, { token: alice.token });
      expect(dev.body.default).toBe(true);
      // git itself is told: the advertisement names HEAD's branch.
      const refs = await kiln.request('GET', '/alice/heads.git/info/refs?service=git-upload-pack', { headers: basic(alice) });
      expect(refs.body).toContain('symref=HEAD:refs/heads/dev');
    });
  });

  describe('renaming the path', () => {
    it('keeps the old path answering the API until another project takes it', async () => {
      const project = await kiln.createProject(alice, 'before-rename');
      await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { path: 'after-rename' } });
      const old = await kiln.api('GET', '/projects/alice%2Fbefore-rename', { token: alice.token });
      expect(old.status).toBe(200);
      expect(old.body).toMatchObject({ id: project.id, path_with_namespace: 'alice/after-rename' });
      // Someone else's project of that name takes the path: the redirect is gone.
      const newcomer = await kiln.createProject(alice, 'before-rename');
      expect((await kiln.api('GET', '/projects/alice%2Fbefore-rename', { token: alice.token })).body.id).toBe(newcomer.id);
    });

    it('keeps the old git URL working', async () => {
      const project = await kiln.createProject(alice, 'git-before');
      await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { path: 'git-after' } });
      const response = await kiln.request('GET', '/alice/git-before.git/info/refs?service=git-upload-pack', { headers: basic(alice) });
      expect(response.statusCode).toBe(200);
      expect(response.body.startsWith('001e# service=git-upload-pack\n')).toBe(true);
    });
  });

  describe('as a maintainer', () => {
    it('renames (rename_project) but may not change what only owners may', async () => {
      const group = await kiln.createGroup(alice, 'maint-group');
      const project = await kiln.createProject(alice, 'maint-project', { namespace_id: group.id });
      await kiln.addMember(alice, 'projects', project.id, bob, ACCESS.maintainer);
      expect((await kiln.api('PUT', `/projects/${project.id}`, { token: bob.token, body: { name: 'Renamed by Bob', description: 'x' } })).body).toMatchObject({ name: 'Renamed by Bob', description: 'x' });
      expect((await kiln.api('PUT', `/projects/${project.id}/transfer`, { token: bob.token, body: { namespace: 'bob' } })).status).toBe(403);
    });
  });

  describe('as a developer', () => {
    it('answers 403', async () => {
      const project = await kiln.createProject(alice, 'dev-cannot');
      await kiln.addMember(alice, 'projects', project.id, carol, ACCESS.developer);
      expect(await kiln.api('PUT', `/projects/${project.id}`, { token: carol.token, body: { description: 'no' } })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    });
  });

  describe('the avatar', () => {
    it('uploads as multipart/form-data, is served at avatar_url, and is removed with an empty avatar', async () => {
      const project = await kiln.createProject(alice, 'with-avatar', { visibility: 'public' });
      const { status, body } = await putMultipart(`/projects/${project.id}`, alice.token, { avatar: { filename: 'logo.png', data: TINY_PNG, type: 'image/png' } });
      expect(status).toBe(200);
      expect(body.avatar_url).toBe(`http://kiln.test/uploads/-/system/project/avatar/${project.id}/logo.png`);
      const image = await kiln.request('GET', new URL(body.avatar_url).pathname);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.rawPayload.equals(TINY_PNG)).toBe(true);
      const removed = await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { avatar: '' } });
      expect(removed.body.avatar_url).toBeNull();
      expect((await kiln.request('GET', new URL(body.avatar_url).pathname)).statusCode).toBe(404);
    });

    it('of a private project is not served to others', async () => {
      const project = await kiln.createProject(alice, 'private-avatar');
      const { body } = await putMultipart(`/projects/${project.id}`, alice.token, { avatar: { filename: 'a.png', data: TINY_PNG } });
      const path = new URL(body.avatar_url).pathname;
      expect((await kiln.request('GET', path)).statusCode).toBe(404);
      expect((await kiln.request('GET', path, { token: carol.token })).statusCode).toBe(404);
      expect((await kiln.request('GET', path, { token: alice.token })).statusCode).toBe(200);
    });

    it('refuses other file types and files over 200 KiB', async () => {
      const project = await kiln.createProject(alice, 'bad-avatar');
      const text = await putMultipart(`/projects/${project.id}`, alice.token, { avatar: { filename: 'notes.txt', data: Buffer.from('hi') } });
      expect(text.status).toBe(400);
      expect(text.body.message.avatar[0]).toMatch(/^You are not allowed to upload "txt" files, allowed types: png, jpg/);
      const big = await putMultipart(`/projects/${project.id}`, alice.token, { avatar: { filename: 'big.png', data: Buffer.alloc(200 * 1024 + 1) } });
      expect(big).toEqual({ status: 400, body: { message: { avatar: ['is too big (should be at most 200 KiB)'] } } });
    });
  });
});

describe('project features (issues_access_level, repository_access_level)', () => {
  let project: any;
  beforeAll(async () => {
    project = await kiln.createProject(alice, 'features', { visibility: 'public' });
    await kiln.addMember(alice, 'projects', project.id, bob, ACCESS.guest);
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: alice.token, body: { title: 'first' } });
  });

  it('disabled issues are hidden from everyone, the owner and administrators too', async () => {
    await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { issues_access_level: 'disabled' } });
    // The issue routes refuse (403) where the project is readable; GitLab's finders answer 404.
    for (const user of [alice, kiln.root, carol]) {
      expect([403, 404]).toContain((await kiln.api('GET', `/projects/${project.id}/issues/1`, { token: user.token })).status);
      expect((await kiln.api('POST', `/projects/${project.id}/issues`, { token: user.token, body: { title: 'no' } })).status).toBe(403);
    }
  });

  it('private issues are for members and administrators only', async () => {
    await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { issues_access_level: 'private' } });
    expect((await kiln.api('GET', `/projects/${project.id}/issues/1`, { token: bob.token })).status).toBe(200);
    expect((await kiln.api('GET', `/projects/${project.id}/issues/1`, { token: kiln.root.token })).status).toBe(200);
    expect([403, 404]).toContain((await kiln.api('GET', `/projects/${project.id}/issues/1`, { token: carol.token })).status);
    expect([401, 403, 404]).toContain((await kiln.api('GET', `/projects/${project.id}/issues/1`)).status);
  });

  it('a disabled repository refuses git to everyone', async () => {
    await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { repository_access_level: 'disabled' } });
    expect((await kiln.request('GET', '/alice/features.git/info/refs?service=git-upload-pack', { headers: basic(alice) })).statusCode).toBe(403);
    await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { repository_access_level: 'enabled' } });
    expect((await kiln.request('GET', '/alice/features.git/info/refs?service=git-upload-pack', { headers: basic(carol) })).statusCode).toBe(200);
  });
});

describe('PUT /api/v4/projects/:id/transfer', () => {
  describe('as the owner', () => {
    it('moves the project, lowers its visibility to the group\'s, and keeps the old path redirecting', async () => {
      const group = await kiln.createGroup(alice, 'transfer-target', { visibility: 'internal' });
      const project = await kiln.createProject(alice, 'movable', { visibility: 'public' });
      const { status, body } = await kiln.api('PUT', `/projects/${project.id}/transfer`, { token: alice.token, body: { namespace: 'transfer-target' } });
      expect(status).toBe(200);
      expect(body).toMatchObject({ path_with_namespace: 'transfer-target/movable', visibility: 'internal', namespace: { id: group.id, kind: 'group' } });
      expect((await kiln.api('GET', '/projects/alice%2Fmovable', { token: alice.token })).body.id).toBe(project.id);
    });

    it('answers 400 with GitLab\'s messages', async () => {
      const project = await kiln.createProject(alice, 'stays');
      expect((await kiln.api('PUT', `/projects/${project.id}/transfer`, { token: alice.token, body: { namespace: 'alice' } })).body).toEqual({
        message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}',
      });
      const other = await kiln.createGroup(bob, 'not-alices', { visibility: 'public' });
      expect((await kiln.api('PUT', `/projects/${project.id}/transfer`, { token: alice.token, body: { namespace: other.id } })).body).toEqual({
        message: 'Failed to transfer project {:new_namespace=>["You don\'t have permission to transfer projects into that namespace."]}',
      });
      const group = await kiln.createGroup(alice, 'has-stays');
      await kiln.createProject(alice, 'stays', { namespace_id: group.id });
      expect((await kiln.api('PUT', `/projects/${project.id}/transfer`, { token: alice.token, body: { namespace: group.id } })).body).toEqual({
        message: 'Failed to transfer project {:new_namespace=>["Project with same name or path in target namespace already exists"]}',
      });
      expect(await kiln.api('PUT', `/projects/${project.id}/transfer`, { token: alice.token, body: { namespace: 'no-such-namespace' } })).toMatchObject({ status: 404, body: { message: '404 Namespace Not Found' } });
    });
  });
});

describe('POST /api/v4/projects/:id/star and /unstar', () => {
  it('counts one star per user, and answers 304 when nothing changes', async () => {
    const project = await kiln.createProject(alice, 'starry', { visibility: 'public' });
    const first = await kiln.api('POST', `/projects/${project.id}/star`, { token: bob.token });
    expect(first).toMatchObject({ status: 201, body: { id: project.id, star_count: 1 } });
    expect((await kiln.api('POST', `/projects/${project.id}/star`, { token: bob.token })).status).toBe(304);
    expect((await kiln.api('POST', `/projects/${project.id}/star`, { token: carol.token })).body.star_count).toBe(2);
    expect((await kiln.api('POST', `/projects/${project.id}/unstar`, { token: bob.token })).body.star_count).toBe(1);
    expect((await kiln.api('POST', `/projects/${project.id}/unstar`, { token: bob.token })).status).toBe(304);
    expect((await kiln.api('GET', `/projects/${project.id}`)).body.star_count).toBe(1);
  });

  it('GET /projects?starred=true lists what the caller starred; GET /projects/:id/starrers lists who', async () => {
    const project = await kiln.createProject(alice, 'starred-listing', { visibility: 'public' });
    await kiln.api('POST', `/projects/${project.id}/star`, { token: carol.token });
    expect((await kiln.api('GET', '/projects', { token: carol.token, query: { starred: 'true' } })).body.map((p: any) => p.id)).toContain(project.id);
    expect((await kiln.api('GET', '/projects', { token: bob.token, query: { starred: 'true' } })).body.map((p: any) => p.id)).not.toContain(project.id);
    const starrers = await kiln.api('GET', `/projects/${project.id}/starrers`);
    expect(starrers.body).toEqual([{ starred_since: '2026-11-22T08:00:00.000Z', user: expect.objectContaining({ username: 'carol' }) }]);
    expect((await kiln.api('GET', `/projects/${project.id}/starrers`, { query: { search: 'zzz' } })).body).toEqual([]);
  });

  it('of a project the caller cannot see answers 404', async () => {
    const project = await kiln.createProject(alice, 'hidden-stars');
    expect((await kiln.api('POST', `/projects/${project.id}/star`, { token: carol.token })).status).toBe(404);
  });
});

describe('GET /api/v4/projects/:id/users', () => {
  it('lists members, members of the groups above, filtered by search and skip_users', async () => {
    const group = await kiln.createGroup(alice, 'users-group');
    const project = await kiln.createProject(alice, 'users-project', { namespace_id: group.id });
    await kiln.addMember(alice, 'projects', project.id, carol, ACCESS.reporter);
    const { status, body } = await kiln.api('GET', `/projects/${project.id}/users`, { token: carol.token });
    expect(status).toBe(200);
    expect(body.map((user: any) => user.username)).toEqual(['alice', 'carol']);
    expect(Object.keys(body[0]).sort()).toEqual(['avatar_url', 'id', 'name', 'state', 'username', 'web_url']);
    expect((await kiln.api('GET', `/projects/${project.id}/users`, { token: carol.token, query: { search: 'car' } })).body.map((user: any) => user.username)).toEqual(['carol']);
    expect((await kiln.api('GET', `/projects/${project.id}/users`, { token: carol.token, query: { skip_users: String(alice.id) } })).body.map((user: any) => user.username)).toEqual(['carol']);
  });
});
