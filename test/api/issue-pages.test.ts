// The issue and incident pages (issue 16): lists with state tabs, the issue page with comments and
// close/reopen, the new issue form. Through inject with a browser-like session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: any;

const XSS = '<script>alert(1)</script> <img src=x onerror=alert(2)> [click](javascript:alert(3))';

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'shop');
  await kiln.addMember(owner, 'projects', project.id, guest, 10);
  const create = (body: Record<string, unknown>) => kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body });
  await create({ title: 'Checkout <b>slow</b>', description: `Details **bold** ${XSS}` });
  await create({ title: 'Secret plan', confidential: true });
  const closed = await create({ title: 'Old bug' });
  await kiln.api('PUT', `/projects/${project.id}/issues/${closed.body.iid}`, { token: owner.token, body: { state_event: 'close' } });
  await create({ title: 'Database down', issue_type: 'incident' });
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('GET /:project/-/issues', () => {
  it('as the owner lists open issues with counts per tab, titles escaped', async () => {
    const response = await (await signedIn(owner)).get('/owner/shop/-/issues');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Checkout &lt;b&gt;slow&lt;/b&gt;');
    expect(response.body).toContain('Secret plan');
    expect(response.body).not.toContain('Old bug');
    expect(response.body).not.toContain('Database down');
    expect(response.body).toMatch(/data-tab="opened"[^>]*>Open <span class="badge">2</);
    expect(response.body).toMatch(/data-tab="closed"[^>]*>Closed <span class="badge">1</);
  });

  it('as a guest leaves out confidential issues, and searches', async () => {
    const web = await signedIn(guest);
    const list = await web.get('/owner/shop/-/issues?state=all');
    expect(list.body).not.toContain('Secret plan');
    expect(list.body).toContain('Old bug');
    const found = await web.get('/owner/shop/-/issues?state=all&search=Old%20bug');
    expect(found.body).toContain('Old bug');
    expect(found.body).not.toContain('Checkout');
  });

  it('as a non-member answers 404', async () => {
    expect((await (await signedIn(stranger)).get('/owner/shop/-/issues')).statusCode).toBe(404);
  });
});

describe('GET /:project/-/incidents', () => {
  it('lists incidents only', async () => {
    const response = await (await signedIn(owner)).get('/owner/shop/-/incidents');
    expect(response.body).toContain('Database down');
    expect(response.body).not.toContain('Checkout');
  });
});

describe('GET /:project/-/issues/:iid', () => {
  it('renders the description as Markdown with script, handlers and javascript: links inert', async () => {
    const response = await (await signedIn(guest)).get('/owner/shop/-/issues/1');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<strong>bold</strong>');
    expect(response.body).not.toContain('<script>alert');
    expect(response.body).not.toMatch(/<img[^>]*onerror/);
    expect(response.body).not.toContain('href="javascript:');
    expect(response.body).toContain('<title>Checkout &lt;b&gt;slow&lt;/b&gt; (#1) · Issues · shop · Kiln</title>');
  });

  it('as a guest hides a confidential issue (404) that the owner sees with its marker', async () => {
    expect((await (await signedIn(guest)).get('/owner/shop/-/issues/2')).statusCode).toBe(404);
    const shown = await (await signedIn(owner)).get('/owner/shop/-/issues/2');
    expect(shown.body).toContain('class="badge confidential"');
  });

  it('answers 404 for an unknown iid', async () => {
    expect((await (await signedIn(owner)).get('/owner/shop/-/issues/999')).statusCode).toBe(404);
  });
});

describe('POST /:project/-/issues/:iid', () => {
  it('as a guest comments (Markdown, escaped) but may not close', async () => {
    const web = await signedIn(guest);
    const commented = await web.post('/owner/shop/-/issues/1', { note: `Seen it ${XSS}` });
    expect(commented.statusCode).toBe(303);
    const shown = await web.get('/owner/shop/-/issues/1');
    expect(shown.body).toContain('Seen it');
    expect(shown.body).not.toContain('<script>alert');
    expect((await web.post('/owner/shop/-/issues/1', { state_event: 'close' })).statusCode).toBe(403);
  });

  it('refuses a blank comment with 400 and the form again', async () => {
    const response = await (await signedIn(owner)).post('/owner/shop/-/issues/1', { note: '  ' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Comment can’t be blank.');
  });

  it('as the owner closes and reopens', async () => {
    const web = await signedIn(owner);
    expect((await web.post('/owner/shop/-/issues/1', { state_event: 'close' })).statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${project.id}/issues/1`, { token: owner.token })).body.state).toBe('closed');
    expect((await web.get('/owner/shop/-/issues/1')).body).toContain('Reopen issue');
    await web.post('/owner/shop/-/issues/1', { state_event: 'reopen' });
    expect((await kiln.api('GET', `/projects/${project.id}/issues/1`, { token: owner.token })).body.state).toBe('opened');
  });

  it('refuses a form without the CSRF token', async () => {
    const web = await signedIn(owner);
    expect((await web.post('/owner/shop/-/issues/1', { note: 'x', authenticity_token: 'forged' })).statusCode).toBe(422);
  });
});

describe('POST /:project/-/issues/new', () => {
  it('as a guest creates a confidential incident and lands on its page', async () => {
    const web = await signedIn(guest);
    expect((await web.get('/owner/shop/-/issues/new?issue_type=incident')).body).toContain('<option value="incident" selected>');
    const created = await web.post('/owner/shop/-/issues/new', { title: 'Pager fired', description: 'See *logs*', issue_type: 'incident' });
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toBe('/owner/shop/-/issues/5');
    const api = await kiln.api('GET', `/projects/${project.id}/issues/5`, { token: owner.token });
    expect(api.body).toMatchObject({ title: 'Pager fired', type: 'INCIDENT', author: { username: 'guest' } });
  });

  it('refuses a blank title with 400 and keeps the description', async () => {
    const response = await (await signedIn(owner)).post('/owner/shop/-/issues/new', { title: ' ', description: 'kept text' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('kept text');
  });

  it('as a non-member answers 404', async () => {
    const web = await signedIn(stranger);
    expect((await web.get('/owner/shop/-/issues/new')).statusCode).toBe(404);
  });
});
