// The milestone pages (issue 16): project and group lists with state tabs and counts, and one
// milestone with its description rendered and the issues the viewer may read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let guest: TestUser;
let stranger: TestUser;

const api = (method: string, path: string, body?: unknown) => kiln.apiAs(owner, method, path, body);

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  const group = await kiln.createGroup(owner, 'ops');
  const project = await kiln.createProject(owner, 'shop', { namespace_id: group.id });
  await kiln.addMember(owner, 'projects', project.id, guest, 10);
  const release = await api('POST', `/projects/${project.id}/milestones`, { title: 'Release <1>', description: '**Ship** it <script>alert(1)</script>', due_date: '2030-01-31' });
  await api('POST', `/projects/${project.id}/milestones`, { title: 'Old one' }).then((old) => api('PUT', `/projects/${project.id}/milestones/${old.id}`, { state_event: 'close' }));
  await api('POST', `/projects/${project.id}/issues`, { title: 'Public task', milestone_id: release.id });
  await api('POST', `/projects/${project.id}/issues`, { title: 'Secret task', milestone_id: release.id, confidential: true });
  const quarter = await api('POST', `/groups/${group.id}/milestones`, { title: 'Q1' });
  await api('POST', `/projects/${project.id}/issues`, { title: 'Group task', milestone_id: quarter.id });
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('GET /:project/-/milestones', () => {
  it('as the owner lists open milestones with counts on the tabs', async () => {
    const response = await (await signedIn(owner)).get('/ops/shop/-/milestones');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('href="/ops/shop/-/milestones/1">Release &lt;1&gt;</a>');
    expect(response.body).not.toContain('Old one');
    expect(response.body).toMatch(/data-tab="closed"[^>]*>Closed <span class="badge">1<\/span>/);
  });

  it('as the owner lists closed milestones on the Closed tab', async () => {
    const body = (await (await signedIn(owner)).get('/ops/shop/-/milestones?state=closed')).body;
    expect(body).toContain('Old one');
    expect(body).not.toContain('Release &lt;1&gt;');
  });

  it('as an outsider answers 404', async () => {
    expect((await (await signedIn(stranger)).get('/ops/shop/-/milestones')).statusCode).toBe(404);
  });
});

describe('GET /:project/-/milestones/:iid', () => {
  it('as the owner shows the rendered description and every issue, confidential ones included', async () => {
    const body = (await (await signedIn(owner)).get('/ops/shop/-/milestones/1')).body;
    expect(body).toContain('<strong>Ship</strong>');
    expect(body).not.toContain('<script>alert');
    expect(body).toContain('Due 2030-01-31');
    expect(body).toContain('href="/ops/shop/-/issues/1">Public task</a>');
    expect(body).toContain('Secret task');
  });

  it('as a guest leaves out the confidential issue', async () => {
    const response = await (await signedIn(guest)).get('/ops/shop/-/milestones/1');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Public task');
    expect(response.body).not.toContain('Secret task');
  });

  it('answers 404 for an unknown iid and to an outsider', async () => {
    expect((await (await signedIn(owner)).get('/ops/shop/-/milestones/99')).statusCode).toBe(404);
    expect((await (await signedIn(stranger)).get('/ops/shop/-/milestones/1')).statusCode).toBe(404);
  });
});

describe('GET /groups/:group/-/milestones and /-/milestones/:iid', () => {
  it('as the owner lists the group milestone and shows its issues from the group projects', async () => {
    const web = await signedIn(owner);
    const list = await web.get('/groups/ops/-/milestones');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('href="/groups/ops/-/milestones/1">Q1</a>');
    const show = await web.get('/groups/ops/-/milestones/1');
    expect(show.statusCode).toBe(200);
    expect(show.body).toContain('href="/ops/shop/-/issues/3">Group task</a>');
  });

  it('as an outsider answers 404', async () => {
    expect((await (await signedIn(stranger)).get('/groups/ops/-/milestones/1')).statusCode).toBe(404);
  });
});
