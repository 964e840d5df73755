// Avatars on the pages (issue 36): the user's profile form uploads and removes theirs (CSRF-checked,
// errors beside the field), the top bar and the profile show it; a project's general settings take
// one from Maintainers under the API's limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { csrfTokenOf, WebSession } from '../helpers/browser-session.js';
import { multipart, TINY_PNG } from '../helpers/multipart.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let alice: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let project: any;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  maintainer = await kiln.createUser('maintainer');
  developer = await kiln.createUser('developer');
  project = await kiln.createProject(alice, 'pictured');
  await kiln.addMember(alice, 'projects', project.id, maintainer, ACCESS.maintainer);
  await kiln.addMember(alice, 'projects', project.id, developer, ACCESS.developer);
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

async function postForm(web: WebSession, url: string, fields: Parameters<typeof multipart>[0]) {
  const body = await multipart(fields);
  return kiln.app.inject({ method: 'POST', url, headers: { cookie: web.cookie, 'content-type': body.contentType }, payload: body.payload });
}

const PROFILE = { name: 'Alice A', pronouns: '', location: '', website_url: '', public_email: '', bio: '' };

describe('/profile avatar', () => {
  it('uploads the avatar with the profile, shows it in the top bar and on the profile, and removes it', async () => {
    const web = await signedIn(alice);
    const form = (await web.get('/profile')).body;
    expect(form).toContain('enctype="multipart/form-data"');
    expect(form).toContain('<img src="/-/avatars/alice.svg" alt="The current avatar"');
    expect(form).not.toContain('id="remove-avatar"');
    const token = csrfTokenOf(form);
    const saved = await postForm(web, '/profile', { authenticity_token: token, ...PROFILE, avatar: { filename: 'face.png', data: TINY_PNG } });
    expect([saved.statusCode, saved.headers.location]).toEqual([303, '/profile']);
    const url = `/uploads/-/system/user/avatar/${alice.id}/face.png`;
    expect((await kiln.api('GET', '/user', { token: alice.token })).body).toMatchObject({ name: 'Alice A', avatar_url: `http://kiln.test${url}` });
    const again = (await web.get('/profile')).body;
    expect(again).toContain(`<img class="user-avatar" src="${url}" alt="" width="24" height="24">`);
    expect(again).toContain(`<img src="${url}" alt="The current avatar"`);
    expect((await web.get('/alice')).body).toContain(`<img class="profile-avatar" src="${url}"`);
    // Anyone may fetch it.
    expect((await kiln.request('GET', url)).statusCode).toBe(200);

    expect((await postForm(web, '/profile', { authenticity_token: token, ...PROFILE, remove_avatar: '1' })).statusCode).toBe(303);
    expect((await kiln.api('GET', '/user', { token: alice.token })).body.avatar_url).toBe('http://kiln.test/-/avatars/alice.svg');
    expect((await web.get('/profile')).body).toContain('<img class="user-avatar" src="/-/avatars/alice.svg"');
  });

  it('shows a refused file next to the field and saves nothing; a forged token is refused', async () => {
    const web = await signedIn(alice);
    const token = csrfTokenOf((await web.get('/profile')).body);
    const refused = await postForm(web, '/profile', { authenticity_token: token, ...PROFILE, name: 'Not saved', avatar: { filename: 'big.png', data: Buffer.alloc(200 * 1024 + 1) } });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('<p class="field-error" id="avatar-error">Avatar is too big (should be at most 200 KiB)</p>');
    expect(refused.body).toContain('aria-invalid="true" aria-describedby="avatar-error"');
    expect((await kiln.api('GET', '/user', { token: alice.token })).body.name).toBe('Alice A');
    const forged = await postForm(web, '/profile', { authenticity_token: 'forged', ...PROFILE, avatar: { filename: 'face.png', data: TINY_PNG } });
    expect(forged.statusCode).toBe(422);
    expect((await kiln.api('GET', '/user', { token: alice.token })).body.avatar_url).toBe('http://kiln.test/-/avatars/alice.svg');
  });
});

describe('/<project>/edit avatar', () => {
  const EDIT = '/alice/pictured/edit';
  const fields = (token: string) => ({ authenticity_token: token, action: 'update', name: 'pictured', description: '', visibility: 'private' });

  it('lets a Maintainer upload, replace and remove the project avatar; refusals sit next to the field', async () => {
    const web = await signedIn(maintainer);
    const token = csrfTokenOf((await web.get(EDIT)).body);
    expect((await postForm(web, EDIT, { ...fields(token), avatar: { filename: 'logo.png', data: TINY_PNG } })).statusCode).toBe(303);
    const read = async () => (await kiln.api('GET', `/projects/${project.id}`, { token: alice.token })).body.avatar_url;
    expect(await read()).toBe(`http://kiln.test/uploads/-/system/project/avatar/${project.id}/logo.png`);
    expect((await web.get(EDIT)).body).toContain(`<img src="/uploads/-/system/project/avatar/${project.id}/logo.png" alt="The current avatar"`);
    const refused = await postForm(web, EDIT, { ...fields(token), avatar: { filename: 'x.svg', data: Buffer.from('<svg/>') } });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('id="avatar-error"');
    expect(await read()).toMatch(/logo\.png$/);
    expect((await postForm(web, EDIT, { ...fields(token), remove_avatar: '1' })).statusCode).toBe(303);
    expect(await read()).toBeNull();
  });

  it('refuses Developers', async () => {
    const web = await signedIn(developer);
    const token = csrfTokenOf((await web.get('/alice/pictured')).body);
    expect((await postForm(web, EDIT, { ...fields(token), avatar: { filename: 'logo.png', data: TINY_PNG } })).statusCode).toBe(403);
  });
});
