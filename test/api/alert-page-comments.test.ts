// Issue 16 on the alert pages: the list names its project and carries live regions; the details
// page takes a comment (Markdown, inert), for those who may update alerts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  reporter = await kiln.createUser('rep');
  const project = await kiln.createProject(owner, 'storefront');
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
  const integration = (await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: owner.token, body: { name: 'Main' } })).body;
  const sent = await kiln.app.inject({ method: 'POST', url: new URL(integration.url).pathname, headers: { 'content-type': 'application/json', authorization: `Bearer ${integration.token}` }, payload: JSON.stringify({ title: 'Disk full' }) });
  expect(sent.statusCode).toBe(200);
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('GET /:project/-/alert_management', () => {
  it('names the project and marks the list and tabs as live regions', async () => {
    const response = await (await signedIn(owner)).get('/owner/storefront/-/alert_management');
    expect(response.body).toContain('<title>Alerts · storefront · Kiln</title>');
    expect(response.body).toContain('id="alert-list" data-live="5"');
    expect(response.body).toContain('id="alert-tabs" data-live="5"');
  });
});

describe('POST /:project/-/alert_management/:iid/details (comment)', () => {
  it('as the owner adds a Markdown comment with scripts inert', async () => {
    const web = await signedIn(owner);
    const posted = await web.post('/owner/storefront/-/alert_management/1/details', { action: 'comment', note: 'Looking **now** <script>alert(1)</script>' });
    expect(posted.statusCode).toBe(303);
    const page = await web.get('/owner/storefront/-/alert_management/1/details');
    expect(page.body).toContain('<strong>now</strong>');
    expect(page.body).not.toContain('<script>alert(1)');
  });

  it('refuses an empty comment', async () => {
    const web = await signedIn(owner);
    await web.post('/owner/storefront/-/alert_management/1/details', { action: 'comment', note: ' ' });
    expect((await web.get('/owner/storefront/-/alert_management/1/details')).body).toContain('Error: the comment is empty.');
  });

  it('as a reporter shows no comment form and refuses the post (403)', async () => {
    const web = await signedIn(reporter);
    expect((await web.get('/owner/storefront/-/alert_management/1/details')).body).not.toContain('id="alert-comment"');
    expect((await web.post('/owner/storefront/-/alert_management/1/details', { action: 'comment', note: 'hi' }, { csrfFrom: '/owner/storefront/-/alert_management' })).statusCode).toBe(403);
  });
});
