// The issue and incident pages (issue 16): lists with state tabs, the issue page with comments and
// close/reopen, the new issue form. Through inject with a browser-like session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { toggleNoteReaction } from '../helpers/note-reactions.js';

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

describe('POST /:project/-/issues/:iid/award', () => {
  it('as a guest awards an emoji from the page and takes it back', async () => {
    const web = await signedIn(guest);
    expect((await web.post('/owner/shop/-/issues/1/award', { name: 'tada' }, { csrfFrom: '/owner/shop/-/issues/1' })).statusCode).toBe(303);
    const awards = () => kiln.api('GET', `/projects/${project.id}/issues/1/award_emoji`, { token: owner.token }).then((response) => response.body.map((award: any) => award.name));
    expect(await awards()).toEqual(['tada']);
    const shown = (await (await signedIn(owner)).get('/owner/shop/-/issues/1')).body;
    expect(shown).toContain('aria-label="tada: 1" title="User guest" data-name="tada"');
    expect((await web.post('/owner/shop/-/issues/1/award', { name: 'tada' }, { csrfFrom: '/owner/shop/-/issues/1' })).statusCode).toBe(303);
    expect(await awards()).toEqual([]);
    // The confidential issue stays out of a guest's reach here too.
    expect((await web.post('/owner/shop/-/issues/2/award', { name: 'tada' }, { csrfFrom: '/owner/shop/-/issues/1' })).statusCode).toBe(404);
  });
});

describe('POST /:project/-/issues/:iid/notes/:note/award', () => {
  it('gives each comment its reactions: awarded from the picker, toggled in place, 404 for a system note or another issue\'s comment', async () => {
    const self = '/owner/shop/-/issues/1';
    const note = (await kiln.api('POST', `/projects/${project.id}/issues/1/notes`, { token: owner.token, body: { body: 'Seen it too' } })).body;
    const web = await signedIn(guest);
    const awarded = () => kiln.api('GET', `/projects/${project.id}/issues/1/notes/${note.id}/award_emoji`, { token: owner.token }).then((response) => response.body.map((award: any) => award.name));
    await toggleNoteReaction(kiln, web, self, note.id, awarded);
    // The closed issue's system note has no reactions; a comment of another issue is not this one's.
    const closedNotes = (await kiln.api('GET', `/projects/${project.id}/issues/3/notes`, { token: owner.token })).body;
    const system = closedNotes.find((entry: any) => entry.system);
    expect(system).toBeDefined();
    expect((await web.get('/owner/shop/-/issues/3')).body).not.toContain(`id="awards-note-${system.id}"`);
    expect((await web.post(`/owner/shop/-/issues/3/notes/${system.id}/award`, { name: 'rocket' }, { csrfFrom: self })).statusCode).toBe(404);
    expect((await web.post(`/owner/shop/-/issues/3/notes/${note.id}/award`, { name: 'rocket' }, { csrfFrom: self })).statusCode).toBe(404);
    expect((await (await signedIn(stranger)).post(`${self}/notes/${note.id}/award`, { name: 'rocket' }, { csrfFrom: '/' })).statusCode).toBe(404);
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

describe('GET /:project/-/issues with filters', () => {
  it('filters by author, assignee, label, milestone, confidentiality and sort, kept by the tabs and pages (issue 36)', async () => {
    const api = (method: string, path: string, body?: unknown) => kiln.apiAs(owner, method, `/projects/${project.id}${path}`, body);
    await api('POST', '/labels', { name: 'bug <i>x</i>', color: '#dd2b0e' });
    const milestone = await api('POST', '/milestones', { title: 'v1' });
    await api('POST', '/issues', { title: 'Labelled one', labels: 'bug <i>x</i>', milestone_id: milestone.id, assignee_ids: [guest.id] });
    await kiln.apiAs(guest, 'POST', `/projects/${project.id}/issues`, { title: 'By the guest' });
    for (let n = 0; n < 21; n += 1) await api('POST', '/issues', { title: `Filler ${n}`, labels: 'bug <i>x</i>' });
    const web = await signedIn(owner);
    const byLabel = await web.get('/owner/shop/-/issues?label_name=bug%20%3Ci%3Ex%3C%2Fi%3E&sort=created_asc');
    expect(byLabel.statusCode).toBe(200);
    expect(byLabel.body).toContain('<option value="bug &lt;i&gt;x&lt;/i&gt;" selected>');
    expect(byLabel.body).toMatch(/data-tab="opened"[^>]*>Open <span class="badge">22</);
    // Oldest first: the labelled issue leads; the next page keeps the filters and the order.
    expect(byLabel.body.indexOf('Labelled one')).toBeLessThan(byLabel.body.indexOf('Filler 0'));
    expect(byLabel.body).toContain('href="/owner/shop/-/issues?state=opened&amp;label_name=bug+%3Ci%3Ex%3C%2Fi%3E&amp;sort=created_asc&amp;page=2" rel="next"');
    expect(byLabel.body).toContain('href="/owner/shop/-/issues?state=closed&amp;label_name=bug+%3Ci%3Ex%3C%2Fi%3E&amp;sort=created_asc"');
    expect(byLabel.body).not.toContain('<i>x</i>');
    const second = await web.get('/owner/shop/-/issues?state=opened&label_name=bug%20%3Ci%3Ex%3C%2Fi%3E&sort=created_asc&page=2');
    expect(second.body).toContain('Filler 20');
    expect(second.body).not.toContain('Labelled one');
    const combined = await web.get('/owner/shop/-/issues?assignee_username=guest&milestone_title=v1');
    expect(combined.body).toContain('Labelled one');
    expect(combined.body).not.toContain('Filler');
    const byAuthor = await web.get('/owner/shop/-/issues?author_username=guest');
    expect(byAuthor.body).toContain('By the guest');
    expect(byAuthor.body).not.toContain('Labelled one');
    const unassigned = await web.get('/owner/shop/-/issues?assignee_username=None&milestone_title=None&confidential=yes');
    expect(unassigned.body).toContain('Secret plan');
    expect(unassigned.body).not.toContain('Checkout');
    expect((await web.get('/owner/shop/-/issues?confidential=no&search=Secret')).body).toContain('No issues match these filters.');
    const hostile = await web.get('/owner/shop/-/issues?sort=%3Cx%3E&label_name=a&label_name=b&milestone_title=%3Cb%3E&author_username[x]=1');
    expect(hostile.statusCode).toBe(200);
    expect(hostile.body).toContain('<option value="&lt;b&gt;" selected>');
  });
});
