// A group's activity page (issue 16): the events of the projects of the group and its subgroups,
// each only for viewers who could see it in its project (private projects and confidential issues
// hidden from outsiders), with the event filter tabs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let stranger: TestUser;

const api = (method: string, path: string, body?: unknown) => kiln.apiAs(owner, method, path, body);

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  stranger = await kiln.createUser('stranger');
  const group = await kiln.createGroup(owner, 'ops', { visibility: 'public' });
  const sub = await kiln.createGroup(owner, 'web', { parent_id: group.id, visibility: 'public' });
  const site = await kiln.createProject(owner, 'site', { namespace_id: sub.id, visibility: 'public' });
  const vault = await kiln.createProject(owner, 'vault', { namespace_id: group.id, visibility: 'private' });
  await kiln.createGroup(owner, 'hidden');
  await api('POST', `/projects/${site.id}/issues`, { title: 'Public site bug' });
  await api('POST', `/projects/${site.id}/issues`, { title: 'Secret site bug', confidential: true });
  await api('POST', `/projects/${vault.id}/issues`, { title: 'Vault bug' });
  const other = await kiln.createProject(owner, 'elsewhere', { visibility: 'public' });
  await api('POST', `/projects/${other.id}/issues`, { title: 'Elsewhere bug' });
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('GET /groups/:group/-/activity', () => {
  it('as the owner lists the events of every project of the group and its subgroups, none from elsewhere', async () => {
    const response = await (await signedIn(owner)).get('/groups/ops/-/activity');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Public site bug');
    expect(response.body).toContain('Secret site bug');
    expect(response.body).toContain('Vault bug');
    expect(response.body).not.toContain('Elsewhere bug');
    expect(response.body).toContain('href="/ops/web/site"');
  });

  it('as an outsider shows only what the outsider may see: no private project, no confidential issue', async () => {
    const response = await (await signedIn(stranger)).get('/groups/ops/-/activity');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Public site bug');
    expect(response.body).not.toContain('Secret site bug');
    expect(response.body).not.toContain('Vault bug');
  });

  it('filters by event type with the tabs', async () => {
    const body = (await (await signedIn(owner)).get('/groups/ops/-/activity?event_filter=comments')).body;
    expect(body).not.toContain('Public site bug');
  });

  it('of a subgroup leaves out the parent group’s projects', async () => {
    const body = (await (await signedIn(owner)).get('/groups/ops/web/-/activity')).body;
    expect(body).toContain('Public site bug');
    expect(body).not.toContain('Vault bug');
  });

  it('of a private group answers 404 to an outsider', async () => {
    expect((await (await signedIn(stranger)).get('/groups/hidden/-/activity')).statusCode).toBe(404);
  });
});
