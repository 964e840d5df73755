// Access requests (issue 36): GitLab's /groups/:id/access_requests and /projects/:id/access_requests
// (request, list, approve, deny, withdraw) and the pages' "Request access" button and members page
// list, with mail to the Maintainers or Owners and to the requester.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let maintainer: TestUser;
let asker: TestUser;
let other: TestUser;
let group: any;
let project: any;
let privateProject: any;

const mails = (address: string) => kiln.deps.db.selectFrom('email_outbox').selectAll().where('to_address', '=', address).orderBy('id').execute();

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('ar-owner');
  maintainer = await kiln.createUser('ar-maintainer');
  asker = await kiln.createUser('ar-asker');
  other = await kiln.createUser('ar-other');
  group = await kiln.createGroup(owner, 'ar-group', { visibility: 'public' });
  project = await kiln.createProject(owner, 'ar-project', { visibility: 'internal', namespace_id: group.id });
  privateProject = await kiln.createProject(owner, 'ar-private', { visibility: 'private', namespace_id: group.id });
  await kiln.addMember(owner, 'projects', project.id, maintainer, 40);
});
afterAll(() => kiln.close());

describe('the access requests API', () => {
  it('takes a request from a non-member, lists it for Maintainers, mails them, and refuses a second one', async () => {
    const made = await kiln.api('POST', `/projects/${project.id}/access_requests`, { token: asker.token });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ id: asker.id, username: 'ar-asker', name: 'User ar-asker', state: 'active' });
    expect(made.body.requested_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const again = await kiln.api('POST', `/projects/${project.id}/access_requests`, { token: asker.token });
    expect(again.status).toBe(400);
    expect(again.body.message).toEqual({ user: ['already exists in source'] });
    const listed = await kiln.api('GET', `/projects/${project.id}/access_requests`, { token: maintainer.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((row: any) => row.username)).toEqual(['ar-asker']);
    // The request grants nothing, and others may not read the list.
    expect((await kiln.api('GET', `/projects/${project.id}/members/${asker.id}`, { token: owner.token })).status).toBe(404);
    expect((await kiln.api('GET', `/projects/${project.id}/access_requests`, { token: other.token })).status).toBe(403);
    const [mail] = await mails('ar-maintainer@example.com');
    expect(mail.subject).toBe('Request to join the ar-project project');
    expect(mail.text_body).toContain(`/ar-group/ar-project/-/project_members`);
  });

  it('approves as Developer unless told otherwise, making a member and mailing the requester', async () => {
    const approved = await kiln.api('PUT', `/projects/${project.id}/access_requests/${asker.id}/approve`, { token: maintainer.token, body: { access_level: 20 } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: asker.id, access_level: 20 });
    expect((await kiln.api('GET', `/projects/${project.id}/access_requests`, { token: maintainer.token })).body).toEqual([]);
    expect((await kiln.api('GET', `/projects/${project.id}/members/${asker.id}`, { token: owner.token })).body.access_level).toBe(20);
    expect((await mails('ar-asker@example.com')).map((mail) => mail.subject)).toContain('Access to the ar-project project was granted');
    // A member asks no more.
    expect((await kiln.api('POST', `/projects/${project.id}/access_requests`, { token: asker.token })).status).toBe(403);
    expect((await kiln.api('PUT', `/projects/${project.id}/access_requests/${asker.id}/approve`, { token: maintainer.token })).status).toBe(404);
  });

  it('denies (mailing the requester) or lets the requester withdraw; nobody else may', async () => {
    expect((await kiln.api('POST', `/groups/${group.id}/access_requests`, { token: other.token })).status).toBe(201);
    expect((await kiln.api('DELETE', `/groups/${group.id}/access_requests/${other.id}`, { token: maintainer.token })).status).toBe(403);
    expect((await kiln.api('DELETE', `/groups/${group.id}/access_requests/${other.id}`, { token: owner.token })).status).toBe(204);
    expect((await mails('ar-other@example.com')).map((mail) => mail.subject)).toContain('Access to the ar-group group was denied');
    expect((await kiln.api('POST', `/groups/${group.id}/access_requests`, { token: other.token })).status).toBe(201);
    expect((await kiln.api('DELETE', `/groups/${group.id}/access_requests/${other.id}`, { token: other.token })).status).toBe(204);
    expect((await kiln.api('DELETE', `/groups/${group.id}/access_requests/${other.id}`, { token: other.token })).status).toBe(404);
    // A group's requests are its Owners': a Maintainer of a project in it does not list them.
    expect((await kiln.api('GET', `/groups/${group.id}/access_requests`, { token: maintainer.token })).status).toBe(403);
  });

  it('refuses when request access is off, on private sources, anonymously and for administrators', async () => {
    expect((await kiln.api('PUT', `/projects/${project.id}`, { token: owner.token, body: { request_access_enabled: false } })).status).toBe(200);
    expect((await kiln.api('POST', `/projects/${project.id}/access_requests`, { token: other.token })).status).toBe(403);
    expect((await kiln.api('POST', `/projects/${privateProject.id}/access_requests`, { token: other.token })).status).toBe(404);
    expect((await kiln.api('POST', `/groups/${group.id}/access_requests`)).status).toBe(401);
    expect((await kiln.api('POST', `/groups/${group.id}/access_requests`, { token: kiln.root.token })).status).toBe(403);
    expect((await kiln.api('POST', `/groups/${group.id}/access_requests`, { token: other.token, body: { id: 'nonsense' } })).status).toBe(201);
    expect((await kiln.api('PUT', `/groups/${group.id}/access_requests/${other.id}/approve`, { token: owner.token, body: { access_level: 7 } })).status).toBe(400);
    expect((await kiln.api('PUT', `/groups/${group.id}/access_requests/${other.id}/approve`, { token: owner.token, body: { access_level: 'high' } })).status).toBe(400);
    expect((await kiln.api('DELETE', `/groups/${group.id}/access_requests/${other.id}`, { token: other.token })).status).toBe(204);
  });
});

describe('the pages', () => {
  it('offer Request access to a signed-in non-member, list the request for managers, and approve it', async () => {
    const visitor = await kiln.createUser('ar-page-visitor');
    const web = new WebSession(kiln);
    await web.signIn(visitor.username, visitor.password);
    const groupPage = await web.get('/groups/ar-group');
    expect(groupPage.body).toContain('>Request access</button>');
    const requested = await web.post('/groups/ar-group/-/group_members', { action: 'request' }, { csrfFrom: '/groups/ar-group' });
    expect(requested.statusCode).toBe(303);
    expect((await web.get('/groups/ar-group')).body).toContain('Withdraw access request');
    const ownerWeb = new WebSession(kiln);
    await ownerWeb.signIn(owner.username, owner.password);
    const members = await ownerWeb.get('/groups/ar-group/-/group_members');
    expect(members.body).toContain('id="access-requests"');
    expect(members.body).toContain('data-user="ar-page-visitor"');
    // CSRF is required.
    const forged = await kiln.app.inject({ method: 'POST', url: '/groups/ar-group/-/group_members', headers: { cookie: ownerWeb.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `action=approve&user_id=${visitor.id}&access_level=30` });
    expect(forged.statusCode).toBe(422);
    const approved = await ownerWeb.post('/groups/ar-group/-/group_members', { action: 'approve', user_id: String(visitor.id), access_level: '30' });
    expect(approved.statusCode).toBe(303);
    const after = await ownerWeb.get('/groups/ar-group/-/group_members');
    expect(after.body).not.toContain('id="access-requests"');
    expect(after.body).toMatch(/<tr data-user="ar-page-visitor">/);
    expect((await web.get('/groups/ar-group')).body).not.toContain('Request access');
  });

  it('shows no button to visitors, members or where request access is off', async () => {
    expect((await kiln.request('GET', '/groups/ar-group')).body).not.toContain('Request access');
    const ownerWeb = new WebSession(kiln);
    await ownerWeb.signIn(owner.username, owner.password);
    expect((await ownerWeb.get('/ar-group/ar-project')).body).not.toContain('Request access');
    const web = new WebSession(kiln);
    await web.signIn(other.username, other.password);
    // request_access_enabled was turned off for ar-project above.
    expect((await web.get('/ar-group/ar-project')).body).not.toContain('>Request access</button>');
  });
});
