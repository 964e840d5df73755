// The environment pages (issue 16): tabs, last deployment, external URL, stop and delete by the
// abilities, and an environment's open alerts, those whose gitlab_environment_name names it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let reporter: TestUser;
let stranger: TestUser;
let project: any;
let production: any;
let staging: any;

async function notify(integration: any, body: unknown) {
  const response = await kiln.app.inject({ method: 'POST', url: new URL(integration.url).pathname, headers: { 'content-type': 'application/json', authorization: `Bearer ${integration.token}` }, payload: JSON.stringify(body) });
  expect(response.statusCode).toBe(200);
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('dev');
  reporter = await kiln.createUser('rep');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'shop');
  await kiln.addMember(owner, 'projects', project.id, developer, 30);
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
  production = (await kiln.api('POST', `/projects/${project.id}/environments`, { token: owner.token, body: { name: 'production', external_url: 'https://shop.example.com' } })).body;
  staging = (await kiln.api('POST', `/projects/${project.id}/environments`, { token: owner.token, body: { name: 'staging' } })).body;
  await kiln.api('POST', `/projects/${project.id}/deployments`, { token: owner.token, body: { environment: 'production', sha: 'a'.repeat(40), ref: 'main', tag: false, status: 'success' } });
  const integration = (await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: owner.token, body: { name: 'Main' } })).body;
  await notify(integration, { title: 'Checkout <b>down</b>', gitlab_environment_name: 'production', severity: 'critical' });
  await notify(integration, { title: 'Staging slow', gitlab_environment_name: 'staging' });
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('GET /:project/-/environments', () => {
  it('as a reporter lists available environments with the last deployment, its external URL, no stop buttons', async () => {
    const response = await (await signedIn(reporter)).get('/owner/shop/-/environments');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('data-environment="production"');
    expect(response.body).toContain('href="https://shop.example.com"');
    expect(response.body).toMatch(/#1 <code>main<\/code>/);
    expect(response.body).toMatch(/data-tab="available"[^>]*>Available <span class="badge">2</);
    expect(response.body).not.toContain('>Stop</button>');
  });

  it('as a non-member answers 404', async () => {
    expect((await (await signedIn(stranger)).get('/owner/shop/-/environments')).statusCode).toBe(404);
  });
});

describe('GET /:project/-/environments/:id', () => {
  it('shows the open alerts naming the environment, escaped, and its deployments', async () => {
    const response = await (await signedIn(reporter)).get(`/owner/shop/-/environments/${production.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Checkout &lt;b&gt;down&lt;/b&gt;');
    expect(response.body).not.toContain('Staging slow');
    expect(response.body).toContain('id="deployments"');
  });

  it('answers 404 for an environment of another project', async () => {
    const other = await kiln.createProject(owner, 'other');
    const env = (await kiln.api('POST', `/projects/${other.id}/environments`, { token: owner.token, body: { name: 'x' } })).body;
    expect((await (await signedIn(owner)).get(`/owner/shop/-/environments/${env.id}`)).statusCode).toBe(404);
  });
});

describe('POST /:project/-/environments/:id', () => {
  it('as a reporter may not stop (403)', async () => {
    expect((await (await signedIn(reporter)).post(`/owner/shop/-/environments/${staging.id}`, { action: 'stop' })).statusCode).toBe(403);
  });

  it('as a developer stops, then deletes the stopped environment', async () => {
    const web = await signedIn(developer);
    expect((await web.post(`/owner/shop/-/environments/${staging.id}`, { action: 'stop' })).statusCode).toBe(303);
    const stopped = await web.get('/owner/shop/-/environments?scope=stopped');
    expect(stopped.body).toContain('data-environment="staging"');
    expect(stopped.body).toContain('>Delete</button>');
    expect((await web.post(`/owner/shop/-/environments/${staging.id}`, { action: 'delete' })).statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${project.id}/environments/${staging.id}`, { token: owner.token })).status).toBe(404);
  });
});
