// Milestones created, changed, closed, reopened and deleted from the pages (issue 36), with the
// progress of their issues; errors keep what was typed; readers get no forms. Through inject.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;
let guest: TestUser;
let project: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  project = await kiln.createProject(owner, 'road');
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
  await kiln.addMember(owner, 'projects', project.id, guest, 10);
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('milestone forms', () => {
  it('explain the next step when there are none, with the form only for Reporters and above', async () => {
    const asReporter = await (await signedIn(reporter)).get('/owner/road/-/milestones');
    expect(asReporter.body).toContain('href="/owner/road/-/milestones/new"');
    expect(asReporter.body).not.toContain('/api/v4');
    const asGuest = await signedIn(guest);
    expect((await asGuest.get('/owner/road/-/milestones')).body).toContain('Members with at least the Reporter role can create them.');
    expect((await asGuest.get('/owner/road/-/milestones/new')).statusCode).toBe(403);
  });

  it('create, edit, close, reopen and delete a milestone, showing its progress', async () => {
    const web = await signedIn(reporter);
    const created = await web.post('/owner/road/-/milestones/new', { title: 'v1 <b>', start_date: '2026-12-01', due_date: '2026-12-31', description: 'The **first**' });
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toBe('/owner/road/-/milestones/1');
    const [milestone] = (await kiln.api('GET', `/projects/${project.id}/milestones`, { token: owner.token })).body;
    expect(milestone).toMatchObject({ title: 'v1 <b>', start_date: '2026-12-01', due_date: '2026-12-31', state: 'active' });
    for (const title of ['one', 'two', 'three', 'four']) await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title, milestone_id: milestone.id } });
    await kiln.api('PUT', `/projects/${project.id}/issues/1`, { token: owner.token, body: { state_event: 'close' } });
    const shown = await web.get('/owner/road/-/milestones/1');
    expect(shown.body).toContain('25% complete');
    expect(shown.body).toContain('<progress id="milestone-progress" class="progress" max="100" value="25">');
    expect(shown.body).toContain('v1 &lt;b&gt;');
    expect((await web.post('/owner/road/-/milestones/1/edit', { title: 'v1.0', start_date: '', due_date: '2027-01-15', description: '' })).statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${project.id}/milestones/${milestone.id}`, { token: owner.token })).body).toMatchObject({ title: 'v1.0', start_date: null, due_date: '2027-01-15', description: null });
    await web.post('/owner/road/-/milestones/1/state', { state_event: 'close' }, { csrfFrom: '/owner/road/-/milestones/1' });
    expect((await kiln.api('GET', `/projects/${project.id}/milestones/${milestone.id}`, { token: owner.token })).body.state).toBe('closed');
    await web.post('/owner/road/-/milestones/1/state', { state_event: 'activate' }, { csrfFrom: '/owner/road/-/milestones/1' });
    expect((await kiln.api('GET', `/projects/${project.id}/milestones/${milestone.id}`, { token: owner.token })).body.state).toBe('active');
    const deleted = await web.post('/owner/road/-/milestones/1/delete', {}, { csrfFrom: '/owner/road/-/milestones/1' });
    expect(deleted.statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${project.id}/milestones`, { token: owner.token })).body).toEqual([]);
    expect((await kiln.api('GET', `/projects/${project.id}/issues/2`, { token: owner.token })).body.milestone).toBeNull();
  });

  it('keeps what was typed, each error next to its field', async () => {
    const web = await signedIn(reporter);
    await web.post('/owner/road/-/milestones/new', { title: 'taken' });
    const taken = await web.post('/owner/road/-/milestones/new', { title: 'taken', description: 'typed text' });
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('id="milestone-title-error"');
    expect(taken.body).toContain('typed text');
    const dates = await web.post('/owner/road/-/milestones/new', { title: 'later', start_date: '2027-02-01', due_date: '2027-01-01' });
    expect(dates.statusCode).toBe(400);
    expect(dates.body).toContain('field-error');
    expect(dates.body).toContain('value="2027-02-01"');
  });

  it('refuses Guests and forged forms', async () => {
    const asGuest = await signedIn(guest);
    expect((await asGuest.post('/owner/road/-/milestones/new', { title: 'x' }, { csrfFrom: '/owner/road/-/milestones' })).statusCode).toBe(403);
    expect((await (await signedIn(reporter)).post('/owner/road/-/milestones/new', { title: 'x', authenticity_token: 'forged' })).statusCode).toBe(422);
  });
});
