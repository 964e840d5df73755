// The wiki pages (issue 38): /<project>/-/wikis — the empty wiki's next step, create, show with links
// between pages resolved, edit with a preview, history, the sidebar of pages, attachments served raw,
// delete; CSRF on every form; titles and content escaped; who sees and changes what is the API's rule.
// Through inject.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { csrfTokenOf, WebSession } from '../helpers/browser-session.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { multipart, TINY_PNG } from '../helpers/multipart.js';

let kiln: TestKiln;
let alice: TestUser;
let guest: TestUser;
let outsider: TestUser;
let project: any;
const XSS = '<img src=x onerror=alert(1)>';

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  guest = await kiln.createUser('guest');
  outsider = await kiln.createUser('outsider');
  project = await kiln.createProject(alice, 'handbook', { visibility: 'private' });
  await kiln.addMember(alice, 'projects', project.id, guest, ACCESS.guest);
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

async function postForm(web: WebSession, url: string, csrfFrom: string, fields: Array<[string, string]>, withToken = true) {
  const token = csrfTokenOf((await web.get(csrfFrom)).body);
  return kiln.app.inject({
    method: 'POST', url, headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams([...(withToken ? [['authenticity_token', token]] : []), ...fields]).toString(),
  });
}

const root = '/alice/handbook/-/wikis';

describe('the empty wiki', () => {
  it('tells a writer how to start and a reader who can', async () => {
    const owner = await (await signedIn(alice)).get(root);
    expect(owner.statusCode).toBe(200);
    expect(owner.body).toContain('This wiki has no pages yet.');
    expect(owner.body).toContain(`href="${root}/new?title=home"`);
    expect(owner.body).toContain(`href="${root}" aria-current="page">Wiki</a>`);
    const reader = await (await signedIn(guest)).get(root);
    expect(reader.body).toContain('Members with at least the Developer role can create its first page.');
    expect(reader.body).not.toContain('Create your first page');
  });
});

describe('writing and reading pages', () => {
  it('creates home from the form, redirects the wiki to it, renders links between pages, escapes the title', async () => {
    const web = await signedIn(alice);
    const created = await postForm(web, root, `${root}/new`, [['title', 'home'], ['content', `# Welcome\n\nSee [Setup](guides/Setup) and ${XSS}`], ['format', 'markdown'], ['message', '']]);
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toBe(`${root}/home`);
    expect((await web.get(root)).headers.location).toBe(`${root}/home`);
    const titled = await postForm(web, root, `${root}/new`, [['title', `guides/Setup ${XSS}`], ['content', 'Steps'], ['format', 'markdown']]);
    expect(titled.statusCode).toBe(303);
    const home = await web.get(`${root}/home`);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain(`href="${root}/guides/Setup"`);
    expect(home.body).not.toContain('<img src=x onerror');
    expect(home.body).toContain('aria-label="Wiki pages"');
    const setup = await web.get(titled.headers.location as string);
    expect(setup.statusCode).toBe(200);
    expect(setup.body).toContain('Setup &lt;img src=x onerror=alert(1)&gt;');
    expect(setup.body).not.toContain('<img src=x onerror');
  });

  it('refuses a form without the CSRF token', async () => {
    const web = await signedIn(alice);
    const response = await postForm(web, root, `${root}/new`, [['title', 'no-token'], ['content', 'x']], false);
    expect(response.statusCode).toBe(422);
    expect((await kiln.api('GET', `/projects/${project.id}/wikis/no-token`, { token: alice.token })).status).toBe(404);
  });

  it('shows a duplicate title back in the form with the reason', async () => {
    const web = await signedIn(alice);
    const response = await postForm(web, root, `${root}/new`, [['title', 'home'], ['content', 'again'], ['format', 'markdown']]);
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain('Duplicate page: A page with that title already exists');
    expect(response.body).toContain('>again</textarea>');
  });

  it('previews Markdown without saving, and edits the page', async () => {
    const web = await signedIn(alice);
    const preview = await postForm(web, `${root}/preview_markdown`, `${root}/home/edit`, [['slug', 'home'], ['title', 'home'], ['content', '**bold** [x](other)'], ['format', 'markdown']]);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('<strong>bold</strong>');
    expect(preview.body).toContain(`href="${root}/other"`);
    expect((await kiln.api('GET', `/projects/${project.id}/wikis/home`, { token: alice.token })).body.content).toContain('# Welcome');
    const saved = await postForm(web, `${root}/home`, `${root}/home/edit`, [['title', 'home'], ['content', 'Edited'], ['format', 'markdown'], ['message', 'Say less']]);
    expect(saved.statusCode).toBe(303);
    const history = await web.get(`${root}/home/history`);
    expect(history.statusCode).toBe(200);
    expect(history.body).toContain('Say less');
    expect(history.body).toContain('alice created page: home');
    const first = /\?version_id=([0-9a-f]{40})"[^]*\?version_id=([0-9a-f]{40})"/.exec(history.body)!;
    const old = await web.get(`${root}/home?version_id=${first[2]}`);
    expect(old.body).toContain('This is an older version of this page');
    expect(old.body).toContain('Welcome');
  });

  it('serves an attachment of the wiki as a file, never as a page', async () => {
    const { payload, contentType } = await multipart({ file: { filename: 'dk.png', data: TINY_PNG, type: 'image/png' } });
    const uploaded = await kiln.app.inject({ method: 'POST', url: `/api/v4/projects/${project.id}/wikis/attachments`, headers: { 'private-token': alice.token, 'content-type': contentType }, payload });
    const path = JSON.parse(uploaded.body).file_path;
    const web = await signedIn(guest);
    const file = await web.get(`${root}/${path}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-security-policy']).toContain('sandbox');
    expect((await (await signedIn(outsider)).get(`${root}/${path}`)).statusCode).toBe(404);
  });

  it('gives a guest no edit link and no form, and a non-member 404', async () => {
    const web = await signedIn(guest);
    const home = await web.get(`${root}/home`);
    expect(home.statusCode).toBe(200);
    expect(home.body).not.toContain(`${root}/home/edit`);
    expect((await web.get(`${root}/home/edit`)).statusCode).toBe(403);
    expect((await web.get(`${root}/missing`)).statusCode).toBe(404);
    expect((await (await signedIn(outsider)).get(`${root}/home`)).statusCode).toBe(404);
  });

  it('lists all pages and deletes one', async () => {
    const web = await signedIn(alice);
    const list = await web.get(`${root}/pages`);
    expect(list.body).toContain(`href="${root}/guides/Setup-%3Cimg-src%3Dx-onerror%3Dalert(1)%3E"`);
    const deleted = await postForm(web, `${root}/home/delete`, `${root}/home/edit`, []);
    expect(deleted.statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${project.id}/wikis/home`, { token: alice.token })).status).toBe(404);
  });

  it('hides the Wiki entry and closes the pages when the wiki is disabled', async () => {
    await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { wiki_enabled: false } });
    const web = await signedIn(alice);
    const overview = await web.get('/alice/handbook');
    expect(overview.body).not.toContain(`href="${root}"`);
    expect((await web.get(root)).statusCode).toBe(403);
    await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { wiki_enabled: true } });
  });
});
