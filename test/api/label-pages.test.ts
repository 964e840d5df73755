// The label pages of projects and groups (issue 36): Reporters create, change and delete labels with
// colour, description and priority; readers see the list with open issue counts and inherited group
// labels; errors keep what was typed; titles and descriptions are text. Through inject.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let group: any;
let project: any;
const XSS = '<img src=x onerror=alert(1)>';

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  group = (await kiln.api('POST', '/groups', { token: owner.token, body: { name: 'Team', path: 'team', visibility: 'private' } })).body;
  project = (await kiln.api('POST', '/projects', { token: owner.token, body: { name: 'app', path: 'app', namespace_id: group.id } })).body;
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
  await kiln.addMember(owner, 'projects', project.id, guest, 10);
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

async function labels() {
  return (await kiln.api('GET', `/projects/${project.id}/labels`, { token: owner.token, query: { include_ancestor_groups: 'false' } })).body;
}

describe('project label pages', () => {
  it('explain the next step when there are none', async () => {
    const asReporter = await (await signedIn(reporter)).get('/team/app/-/labels');
    expect(asReporter.statusCode).toBe(200);
    expect(asReporter.body).toContain('No labels yet.');
    expect(asReporter.body).toContain('href="/team/app/-/labels/new"');
    expect(asReporter.body).not.toContain('/api/v4');
    const asGuest = await (await signedIn(guest)).get('/team/app/-/labels');
    expect(asGuest.body).toContain('Members with at least the Reporter role can create them.');
    expect(asGuest.body).not.toContain('/-/labels/new');
  });

  it('create, change and delete a label as a Reporter, text escaped', async () => {
    const web = await signedIn(reporter);
    const created = await web.post('/team/app/-/labels/new', { title: `bug ${XSS}`, color: '#dd2b0e', description: `Broken ${XSS}`, priority: '2' });
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toBe('/team/app/-/labels');
    const [label] = await labels();
    expect(label).toMatchObject({ name: `bug ${XSS}`, color: '#dd2b0e', description: `Broken ${XSS}`, priority: 2 });
    const list = await web.get('/team/app/-/labels');
    expect(list.body).toContain('Prioritized labels');
    expect(list.body).toContain('bug &lt;img src=x onerror=alert(1)&gt;');
    expect(list.body).not.toContain('<img src=x');
    const edited = await web.post(`/team/app/-/labels/${label.id}/edit`, { title: 'bug', color: 'red', description: '', priority: '' });
    expect(edited.statusCode).toBe(303);
    expect((await labels())[0]).toMatchObject({ name: 'bug', description: null, priority: null });
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Crash', labels: 'bug' } });
    expect((await web.get('/team/app/-/labels')).body).toContain('href="/team/app/-/issues?label_name=bug">1</a>');
    const deleted = await web.post(`/team/app/-/labels/${label.id}/delete`, {}, { csrfFrom: '/team/app/-/labels' });
    expect(deleted.statusCode).toBe(303);
    expect(await labels()).toEqual([]);
  });

  it('keep what was typed, with each error next to its field', async () => {
    const web = await signedIn(reporter);
    await web.post('/team/app/-/labels/new', { title: 'feature', color: '#00aa00' });
    const taken = await web.post('/team/app/-/labels/new', { title: 'feature', color: '#00aa00', description: 'typed text' });
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('id="label-title-error"');
    expect(taken.body).toContain('Title has already been taken.');
    expect(taken.body).toContain('typed text');
    const colour = await web.post('/team/app/-/labels/new', { title: 'other', color: 'not-a-colour' });
    expect(colour.statusCode).toBe(400);
    expect(colour.body).toContain('id="label-color-error"');
    expect(colour.body).toMatch(/id="label-color"[^>]*aria-invalid="true"/);
    const comma = await web.post('/team/app/-/labels/new', { title: 'a,b', color: '#000000' });
    expect(comma.body).toContain('Title is invalid.');
  });

  it('refuse Guests (403), forged forms (422) and strangers (404)', async () => {
    const asGuest = await signedIn(guest);
    expect((await asGuest.get('/team/app/-/labels/new')).statusCode).toBe(403);
    expect((await asGuest.post('/team/app/-/labels/new', { title: 'x', color: '#000000' }, { csrfFrom: '/team/app/-/labels' })).statusCode).toBe(403);
    const web = await signedIn(reporter);
    expect((await web.post('/team/app/-/labels/new', { title: 'x', color: '#000000', authenticity_token: 'forged' })).statusCode).toBe(422);
    expect((await (await signedIn(stranger)).get('/team/app/-/labels')).statusCode).toBe(404);
  });
});

describe('group label pages', () => {
  it('create a group label the project then lists as inherited, not editable there', async () => {
    const web = await signedIn(owner);
    expect((await web.post('/groups/team/-/labels/new', { title: 'team-wide', color: '#123456' })).statusCode).toBe(303);
    const groupList = await web.get('/groups/team/-/labels');
    expect(groupList.body).toContain('team-wide');
    const projectList = await (await signedIn(reporter)).get('/team/app/-/labels');
    expect(projectList.body).toContain('Labels from groups');
    const groupLabel = (await kiln.api('GET', `/groups/${group.id}/labels`, { token: owner.token })).body.find((label: any) => label.name === 'team-wide');
    expect((await (await signedIn(reporter)).get(`/team/app/-/labels/${groupLabel.id}/edit`)).statusCode).toBe(404);
    // A project Reporter holds no role in the group: they read it through the project, but its label
    // pages are not theirs to change.
    expect((await (await signedIn(reporter)).get('/groups/team/-/labels/new')).statusCode).toBe(403);
  });
});

describe('subscribing from the label pages', () => {
  const labelOf = async (name: string, path = `/projects/${project.id}/labels`, token = guest.token) =>
    (await kiln.api('GET', path, { token })).body.find((label: any) => label.name === name);

  it('a Guest subscribes to a project label and to an inherited group label in this project, and unsubscribes', async () => {
    await kiln.api('POST', `/projects/${project.id}/labels`, { token: owner.token, body: { name: `watch ${XSS}`, color: '#abcdef' } });
    const own = await labelOf(`watch ${XSS}`);
    const inherited = await labelOf('team-wide');
    const web = await signedIn(guest);
    const list = await web.get('/team/app/-/labels');
    expect(list.body).toContain(`action="/team/app/-/labels/${own.id}/subscribe"`);
    expect(list.body).toContain(`Subscribe<span class="visually-hidden"> to watch &lt;img src=x onerror=alert(1)&gt;</span>`);
    expect(list.body).toContain(`action="/team/app/-/labels/${inherited.id}/subscribe"`);
    for (const id of [own.id, inherited.id]) {
      const done = await web.post(`/team/app/-/labels/${id}/subscribe`, {}, { csrfFrom: '/team/app/-/labels' });
      expect(done.statusCode).toBe(303);
      expect(done.headers.location).toBe('/team/app/-/labels');
    }
    expect([(await labelOf(`watch ${XSS}`)).subscribed, (await labelOf('team-wide')).subscribed]).toEqual([true, true]);
    const after = await web.get('/team/app/-/labels');
    expect(after.body).toContain(`action="/team/app/-/labels/${own.id}/unsubscribe"`);
    expect(after.body).toContain('Subscribed to the label team-wide.');
    // Only the subscribed ones with ?subscribed=true (the relabeled e-mail's link).
    const filtered = await web.get('/team/app/-/labels?subscribed=true');
    expect(filtered.body).toContain('The labels you are subscribed to here.');
    expect(filtered.body).not.toContain('>feature<');
    expect((await web.post(`/team/app/-/labels/${own.id}/unsubscribe`, {}, { csrfFrom: '/team/app/-/labels' })).statusCode).toBe(303);
    expect((await labelOf(`watch ${XSS}`)).subscribed).toBe(false);
    // Pressed twice: nothing changes, no error.
    expect((await web.post(`/team/app/-/labels/${own.id}/unsubscribe`, {}, { csrfFrom: '/team/app/-/labels' })).statusCode).toBe(303);
  });

  it('a group member subscribes to the whole group label from the group page', async () => {
    const web = await signedIn(owner);
    const label = await labelOf('team-wide', `/groups/${group.id}/labels`, owner.token);
    expect((await web.get('/groups/team/-/labels')).body).toContain(`action="/groups/team/-/labels/${label.id}/subscribe"`);
    expect((await web.post(`/groups/team/-/labels/${label.id}/subscribe`, {}, { csrfFrom: '/groups/team/-/labels' })).headers.location).toBe('/groups/team/-/labels');
    expect((await labelOf('team-wide', `/groups/${group.id}/labels`, owner.token)).subscribed).toBe(true);
    expect((await labelOf('team-wide', `/projects/${project.id}/labels`, owner.token)).subscribed).toBe(true);
  });

  it('refuse forged forms (422), labels the page does not see (404), strangers (404) and visitors', async () => {
    const label = await labelOf('team-wide');
    const web = await signedIn(guest);
    expect((await web.post(`/team/app/-/labels/${label.id}/subscribe`, { authenticity_token: 'forged' })).statusCode).toBe(422);
    const elsewhere = (await kiln.api('POST', '/projects', { token: owner.token, body: { name: 'solo', path: 'solo' } })).body;
    const hidden = (await kiln.api('POST', `/projects/${elsewhere.id}/labels`, { token: owner.token, body: { name: 'hidden', color: '#000000' } })).body;
    expect((await web.post(`/team/app/-/labels/${hidden.id}/subscribe`, {}, { csrfFrom: '/team/app/-/labels' })).statusCode).toBe(404);
    expect((await (await signedIn(stranger)).post(`/team/app/-/labels/${label.id}/subscribe`, {}, { csrfFrom: '/' })).statusCode).toBe(404);
    const visitor = await kiln.request('POST', `/team/app/-/labels/${label.id}/subscribe`);
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toMatch(/^\/users\/sign_in/);
  });
});
