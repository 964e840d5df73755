// User avatars (issue 36): PUT /user/avatar, the administrators' `avatar` on POST and PUT /users, and
// every user entity's avatar_url pointing at the uploaded file (public) or the generated SVG.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { multipart, TINY_PNG } from '../helpers/multipart.js';
import { registerApp, tokensFor } from './oauth-driver.js';
import { userAttrs, usersForHook } from '../../src/webhooks/payloads/common.js';
import { up } from '../../src/platform/db/migrations/20261230T0710-user-namespace-avatars.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
});
afterAll(() => kiln.close());

async function send(method: 'PUT' | 'POST', path: string, token: string | null, fields: Parameters<typeof multipart>[0]) {
  const { payload, contentType } = await multipart(fields);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (token) headers['private-token'] = token;
  const response = await kiln.app.inject({ method, url: `/api/v4${path}`, headers, payload });
  return { status: response.statusCode, body: JSON.parse(response.body) };
}

const GIF = Buffer.from('R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==', 'base64');

describe('PUT /api/v4/user/avatar', () => {
  it('stores, replaces and serves the caller\'s avatar to anyone; avatar_url follows it everywhere', async () => {
    const first = await send('PUT', '/user/avatar', alice.token, { avatar: { filename: 'me.png', data: TINY_PNG } });
    expect(first).toEqual({ status: 200, body: { avatar_url: `http://kiln.test/uploads/-/system/user/avatar/${alice.id}/me.png` } });
    const file = await kiln.request('GET', `/uploads/-/system/user/avatar/${alice.id}/me.png`);
    expect([file.statusCode, file.headers['content-type'], file.headers['x-content-type-options']]).toEqual([200, 'image/png', 'nosniff']);
    expect(file.rawPayload.equals(TINY_PNG)).toBe(true);

    const second = await send('PUT', '/user/avatar', alice.token, { avatar: { filename: 'new face.gif', data: GIF } });
    const url = `http://kiln.test/uploads/-/system/user/avatar/${alice.id}/new_face.gif`;
    expect(second.body).toEqual({ avatar_url: url });
    expect((await kiln.request('GET', `/uploads/-/system/user/avatar/${alice.id}/me.png`)).statusCode).toBe(404);
    expect((await kiln.request('GET', new URL(url).pathname)).headers['content-type']).toBe('image/gif');

    expect((await kiln.api('GET', '/user', { token: alice.token })).body.avatar_url).toBe(url);
    expect((await kiln.api('GET', `/users/${alice.id}`, { token: bob.token })).body.avatar_url).toBe(url);
    expect((await kiln.api('GET', '/users?username=alice')).body[0].avatar_url).toBe(url);
    const project = await kiln.createProject(alice, 'avatar-project');
    const members = (await kiln.api('GET', `/projects/${project.id}/members/all`, { token: alice.token })).body as Array<{ username: string; avatar_url: string }>;
    expect(members.find((member) => member.username === 'alice')?.avatar_url).toBe(url);
    const issue = (await kiln.api('POST', `/projects/${project.id}/issues`, { token: alice.token, body: { title: 'Faces', assignee_ids: [alice.id] } })).body;
    expect([issue.author.avatar_url, issue.assignees[0].avatar_url]).toEqual([url, url]);
    const listed = (await kiln.api('GET', `/projects/${project.id}/issues`, { token: alice.token })).body;
    expect(listed[0].author.avatar_url).toBe(url);
    // Others keep the generated one.
    expect((await kiln.api('GET', '/user', { token: bob.token })).body.avatar_url).toBe('http://kiln.test/-/avatars/bob.svg');
  });

  it('is the OpenID picture claim and the webhook payloads\' user avatar', async () => {
    const url = (await kiln.api('GET', '/user', { token: alice.token })).body.avatar_url;
    expect(url).toMatch(/^http:\/\/kiln\.test\/uploads\/-\/system\/user\/avatar\//);
    const tokens = await tokensFor(kiln, alice, await registerApp(kiln), { scope: 'openid' });
    const claims = JSON.parse((await kiln.request('GET', '/oauth/userinfo', { headers: { authorization: `Bearer ${tokens.access_token}` } })).body);
    expect(claims.picture).toBe(url);
    const hookUsers = await usersForHook(kiln.deps, [alice.id, bob.id]);
    expect([userAttrs(kiln.deps, hookUsers.get(alice.id))?.avatar_url, userAttrs(kiln.deps, hookUsers.get(bob.id))?.avatar_url]).toEqual([url, 'http://kiln.test/-/avatars/bob.svg']);
  });

  it('refuses a wrong type, a file too large, or no file, naming avatar, and anonymous callers', async () => {
    expect(await send('PUT', '/user/avatar', bob.token, { avatar: { filename: 'x.svg', data: Buffer.from('<svg/>') } })).toEqual({
      status: 400, body: { message: { avatar: ['You are not allowed to upload "svg" files, allowed types: png, jpg, jpeg, gif, bmp, tiff, ico, webp'] } },
    });
    expect(await send('PUT', '/user/avatar', bob.token, { avatar: { filename: 'big.png', data: Buffer.alloc(200 * 1024 + 1) } })).toEqual({
      status: 400, body: { message: { avatar: ['is too big (should be at most 200 KiB)'] } },
    });
    expect(await send('PUT', '/user/avatar', bob.token, { other: 'x' })).toEqual({ status: 400, body: { error: 'avatar is missing' } });
    expect((await send('PUT', '/user/avatar', null, { avatar: { filename: 'me.png', data: TINY_PNG } })).status).toBe(401);
    expect((await kiln.api('GET', '/user', { token: bob.token })).body.avatar_url).toBe('http://kiln.test/-/avatars/bob.svg');
  });
});

describe('a user namespace\'s avatar_url (GitLab\'s Namespace delegates it to its owner)', () => {
  it('is the owner\'s avatar in GET /namespaces, /namespaces/:id and a project\'s namespace, and follows its removal', async () => {
    const dana = await kiln.createUser('dana');
    const project = await kiln.createProject(dana, 'dana-project');
    const namespaceOf = async () => ((await kiln.api('GET', '/namespaces', { token: dana.token, query: { search: 'dana' } })).body as any[]).find((namespace) => namespace.kind === 'user');
    const generated = 'http://kiln.test/-/avatars/dana.svg';
    expect((await namespaceOf()).avatar_url).toBe(generated);
    await send('PUT', '/user/avatar', dana.token, { avatar: { filename: 'dana.png', data: TINY_PNG } });
    const url = `http://kiln.test/uploads/-/system/user/avatar/${dana.id}/dana.png`;
    const namespace = await namespaceOf();
    expect(namespace.avatar_url).toBe(url);
    expect((await kiln.api('GET', `/namespaces/${namespace.id}`, { token: dana.token })).body.avatar_url).toBe(url);
    expect((await kiln.api('GET', '/namespaces/dana', { token: kiln.root.token })).body.avatar_url).toBe(url);
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: dana.token })).body.namespace.avatar_url).toBe(url);
    // A group keeps its own (none here), whatever its owner's avatar.
    await kiln.createGroup(dana, 'danas-group');
    expect((await kiln.api('GET', '/namespaces/danas-group', { token: dana.token })).body.avatar_url).toBeNull();
    await kiln.api('PUT', `/users/${dana.id}`, { token: kiln.root.token, body: { avatar: '' } });
    expect((await namespaceOf()).avatar_url).toBe(generated);
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: dana.token })).body.namespace.avatar_url).toBe(generated);
  });
});

describe('the migration that copies users\' avatars onto their namespaces', () => {
  it('gives a namespace its owner\'s file name as an avatar change before it would have, and leaves groups alone', async () => {
    const erin = await kiln.createUser('erin');
    const group = await kiln.createGroup(erin, 'erins-group');
    // The state before the migration: the user's row names a file, the namespace's none.
    await kiln.deps.db.updateTable('users').set({ avatar: 'old.png' }).where('id', '=', erin.id).execute();
    await kiln.deps.db.updateTable('namespaces').set({ avatar: null }).where('kind', '=', 'user').where('owner_id', '=', erin.id).execute();
    const namespaceAvatar = async () => ((await kiln.api('GET', '/namespaces/erin', { token: erin.token })).body.avatar_url);
    expect(await namespaceAvatar()).toBe('http://kiln.test/-/avatars/erin.svg');
    await up(kiln.deps.db);
    expect(await namespaceAvatar()).toBe(`http://kiln.test/uploads/-/system/user/avatar/${erin.id}/old.png`);
    expect((await kiln.api('GET', `/namespaces/${group.id}`, { token: erin.token })).body.avatar_url).toBeNull();
  });
});

describe('avatar on PUT and POST /api/v4/users (administrators)', () => {
  it('lets an administrator set and remove another user\'s avatar, and refuses everyone else', async () => {
    expect((await send('PUT', `/users/${bob.id}`, alice.token, { avatar: { filename: 'b.png', data: TINY_PNG } })).status).toBe(403);
    const set = await send('PUT', `/users/${bob.id}`, kiln.root.token, { avatar: { filename: 'b.png', data: TINY_PNG }, bio: 'Bob' });
    expect([set.status, set.body.avatar_url, set.body.bio]).toEqual([200, `http://kiln.test/uploads/-/system/user/avatar/${bob.id}/b.png`, 'Bob']);
    expect((await send('PUT', `/users/${bob.id}`, kiln.root.token, { avatar: { filename: 'b.exe', data: TINY_PNG } })).body).toEqual({
      message: { avatar: ['You are not allowed to upload "exe" files, allowed types: png, jpg, jpeg, gif, bmp, tiff, ico, webp'] },
    });
    const removed = await kiln.api('PUT', `/users/${bob.id}`, { token: kiln.root.token, body: { avatar: '' } });
    expect(removed.body.avatar_url).toBe('http://kiln.test/-/avatars/bob.svg');
    expect((await kiln.request('GET', `/uploads/-/system/user/avatar/${bob.id}/b.png`)).statusCode).toBe(404);
  });

  it('creates a user with an avatar', async () => {
    const created = await send('POST', '/users', kiln.root.token, {
      username: 'carol', name: 'Carol', email: 'carol@example.com', password: 'correct-horse-battery', avatar: { filename: 'c.jpg', data: TINY_PNG },
    });
    expect(created.status).toBe(201);
    expect(created.body.avatar_url).toBe(`http://kiln.test/uploads/-/system/user/avatar/${created.body.id}/c.jpg`);
    expect((await kiln.request('GET', new URL(created.body.avatar_url).pathname)).headers['content-type']).toBe('image/jpeg');
    expect((await send('POST', '/users', kiln.root.token, { username: 'dave', name: 'Dave', email: 'dave@example.com', password: 'correct-horse-battery', avatar: { filename: 'd.txt', data: TINY_PNG } })).status).toBe(400);
    expect((await kiln.api('GET', '/users?username=dave', { token: kiln.root.token })).body).toEqual([]);
  });
});
