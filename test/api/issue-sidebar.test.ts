// The issue page's sidebar, editing and task lists (issue 36): a Reporter sets assignees, labels,
// milestone, due date, confidentiality and lock through forms (plain and htmx), every change — from a
// page or from the API — leaves a system note in the timeline, the description is edited and its
// checklist ticked in place without losing a concurrent edit. Through inject with a browser session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession, csrfTokenOf } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;
let guest: TestUser;
let project: any;
const labels: Record<string, any> = {};
let milestone: any;
const ISSUE = '/owner/plan/-/issues/1';

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  project = await kiln.createProject(owner, 'plan');
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
  await kiln.addMember(owner, 'projects', project.id, guest, 10);
  for (const [name, color] of [['bug', '#dd2b0e'], ['needs review', '#1f75cb'], ['<img src=x onerror=alert(1)>', '#000000']]) {
    labels[name] = (await kiln.api('POST', `/projects/${project.id}/labels`, { token: owner.token, body: { name, color } })).body;
  }
  milestone = (await kiln.api('POST', `/projects/${project.id}/milestones`, { token: owner.token, body: { title: 'v1.0' } })).body;
  await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Plan the release', description: 'Steps:\n\n- [ ] write notes\n- [ ] tag it' } });
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

/** A form post with repeated fields (a multiple select, checkboxes), optionally as htmx sends it. */
async function post(web: WebSession, url: string, fields: Array<[string, string]>, options: { htmx?: boolean; token?: string } = {}) {
  const token = options.token ?? csrfTokenOf((await web.get(ISSUE)).body);
  const response = await kiln.app.inject({
    method: 'POST',
    url,
    headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded', ...(options.htmx ? { 'hx-request': 'true' } : {}) },
    payload: new URLSearchParams([['authenticity_token', token], ...fields]).toString(),
  });
  return response;
}

async function systemNotes(): Promise<string[]> {
  const notes = await kiln.api('GET', `/projects/${project.id}/issues/1/notes`, { token: owner.token, query: { sort: 'asc', per_page: '100' } });
  return notes.body.filter((note: any) => note.system).map((note: any) => note.body);
}

async function issue() {
  return (await kiln.api('GET', `/projects/${project.id}/issues/1`, { token: owner.token })).body;
}

describe('the sidebar', () => {
  it('shows every reader the values, and forms only to those who may set them', async () => {
    const asGuest = await (await signedIn(guest)).get(ISSUE);
    expect(asGuest.statusCode).toBe(200);
    expect(asGuest.body).toContain('id="issue-sidebar"');
    expect(asGuest.body).toContain('<h2>Labels</h2>');
    expect(asGuest.body).not.toContain('/-/issues/1/sidebar');
    const asReporter = await (await signedIn(reporter)).get(ISSUE);
    expect(asReporter.body).toContain('action="/owner/plan/-/issues/1/sidebar"');
    expect(asReporter.body).toContain(`<option value="${guest.id}">`);
    expect(asReporter.body).toContain(`<option value="${milestone.id}">v1.0</option>`);
    // A label title is text, in the form as in the chips.
    expect(asReporter.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(asReporter.body).not.toContain('<img src=x');
  });

  it('sets and clears each field through plain forms, each change noted in the timeline', async () => {
    const web = await signedIn(reporter);
    const sidebar = `${ISSUE}/sidebar`;
    expect((await post(web, sidebar, [['field', 'assignees'], ['assignee_ids[]', String(guest.id)]])).statusCode).toBe(303);
    expect((await issue()).assignees.map((user: any) => user.username)).toEqual(['guest']);
    await post(web, sidebar, [['field', 'labels'], ['label_ids[]', String(labels.bug.id)], ['label_ids[]', String(labels['needs review'].id)]]);
    expect((await issue()).labels).toEqual(['bug', 'needs review']);
    await post(web, sidebar, [['field', 'labels'], ['label_ids[]', String(labels.bug.id)]]);
    await post(web, sidebar, [['field', 'milestone'], ['milestone_id', String(milestone.id)]]);
    expect((await issue()).milestone.title).toBe('v1.0');
    await post(web, sidebar, [['field', 'due_date'], ['due_date', '2026-12-24']]);
    expect((await issue()).due_date).toBe('2026-12-24');
    await post(web, sidebar, [['field', 'confidential'], ['value', '1']]);
    expect((await issue()).confidential).toBe(true);
    await post(web, sidebar, [['field', 'discussion_locked'], ['value', '1']]);
    expect((await issue()).discussion_locked).toBe(true);
    await post(web, sidebar, [['field', 'discussion_locked'], ['value', '0']]);
    await post(web, sidebar, [['field', 'confidential'], ['value', '0']]);
    await post(web, sidebar, [['field', 'due_date'], ['due_date', '2026-12-24'], ['clear', '1']]);
    await post(web, sidebar, [['field', 'milestone'], ['milestone_id', '']]);
    await post(web, sidebar, [['field', 'assignees']]);
    const after = await issue();
    expect(after).toMatchObject({ assignees: [], milestone: null, due_date: null, confidential: false, discussion_locked: false, labels: ['bug'] });
    expect(await systemNotes()).toEqual([
      'assigned to @guest',
      'added ~bug ~"needs review" labels',
      'removed ~"needs review" label',
      'changed milestone to %"v1.0"',
      'changed due date to 2026-12-24',
      'made the issue confidential',
      'locked this issue',
      'unlocked this issue',
      'made the issue visible to everyone',
      'removed due date',
      'removed milestone',
      'unassigned @guest',
    ]);
    const page = await web.get(ISSUE);
    expect(page.body).toContain('class="note system"');
    expect(page.body).toContain('assigned to');
  });

  it('keeps a wrong due date out, with the error next to its field', async () => {
    const response = await post(await signedIn(reporter), `${ISSUE}/sidebar`, [['field', 'due_date'], ['due_date', '2026-13-45']]);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('id="sidebar-due-date-error"');
    expect(response.body).toContain('aria-invalid="true"');
    expect((await issue()).due_date).toBeNull();
  });

  it('answers htmx with the sidebar and the timeline out of band, no layout', async () => {
    const response = await post(await signedIn(reporter), `${ISSUE}/sidebar`, [['field', 'due_date'], ['due_date', '2027-01-05']], { htmx: true });
    expect(response.statusCode).toBe(200);
    expect(response.body.startsWith('<aside class="issue-sidebar" id="issue-sidebar"')).toBe(true);
    expect(response.body).toContain('<div id="notes" hx-swap-oob="true">');
    expect(response.body).toContain('changed due date to 2027-01-05');
    expect(response.body).not.toContain('<html');
  });

  it('refuses a Guest (403), a forged form (422), and labels of other projects', async () => {
    const asGuest = await signedIn(guest);
    expect((await post(asGuest, `${ISSUE}/sidebar`, [['field', 'due_date'], ['due_date', '2027-02-01']])).statusCode).toBe(403);
    const web = await signedIn(reporter);
    expect((await post(web, `${ISSUE}/sidebar`, [['field', 'due_date'], ['due_date', '2027-02-01']], { token: 'forged' })).statusCode).toBe(422);
    const other = await kiln.createProject(owner, 'other');
    const foreign = (await kiln.api('POST', `/projects/${other.id}/labels`, { token: owner.token, body: { name: 'secret-label', color: '#123456' } })).body;
    await post(web, `${ISSUE}/sidebar`, [['field', 'labels'], ['label_ids[]', String(foreign.id)]]);
    expect((await issue()).labels).toEqual([]);
    const titles = (await kiln.api('GET', `/projects/${project.id}/labels`, { token: owner.token })).body.map((label: any) => label.name);
    expect(titles).not.toContain('secret-label');
    expect((await issue()).due_date).toBe('2027-01-05');
  });
});

describe('system notes of API changes', () => {
  it('notes label, state and title changes made through the API, and mentions from other issues', async () => {
    await kiln.api('PUT', `/projects/${project.id}/issues/1`, { token: owner.token, body: { add_labels: 'bug', title: 'Plan the *release*' } });
    await kiln.api('PUT', `/projects/${project.id}/issues/1`, { token: owner.token, body: { state_event: 'close' } });
    await kiln.api('PUT', `/projects/${project.id}/issues/1`, { token: owner.token, body: { state_event: 'reopen' } });
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Follow-up', description: 'After #1 and #999' } });
    await kiln.worker.drain();
    const notes = await systemNotes();
    expect(notes).toContain('changed title from **Plan the release** to **Plan the \\*release\\***');
    expect(notes).toContain('added ~bug label');
    expect(notes.slice(-3)).toEqual(['closed', 'reopened', 'mentioned in issue #2']);
    // Comments count only what people wrote.
    expect((await issue()).user_notes_count).toBe(0);
    // Mentioned again: still one note.
    await kiln.api('POST', `/projects/${project.id}/issues/2/notes`, { token: owner.token, body: { body: 'Again #1' } });
    await kiln.worker.drain();
    expect((await systemNotes()).filter((body) => body === 'mentioned in issue #2')).toHaveLength(1);
  });
});

describe('editing and task lists', () => {
  it('ticks a checklist item in place, noted as such; a stale page changes nothing', async () => {
    const web = await signedIn(reporter);
    const page = await web.get(ISSUE);
    expect(page.body).toMatch(/<input type="checkbox" class="task-list-item-checkbox" name="task\[\]" value="3"[^>]*aria-label="tag it">/);
    const version = /name="description_version" value="([0-9a-f]+)"/.exec(page.body)![1];
    const ticked = await post(web, `${ISSUE}/tasks`, [['description_version', version], ['shown', '2,3'], ['task[]', '3']], { htmx: true });
    expect(ticked.statusCode).toBe(200);
    expect(ticked.body).toMatch(/value="3"[^>]* checked>/);
    expect((await issue()).description).toBe('Steps:\n\n- [ ] write notes\n- [x] tag it');
    expect(await systemNotes()).toContain('marked the checklist item **tag it** as completed');
    // The same page again (its version is now old): refused with the message, nothing written.
    const stale = await post(web, `${ISSUE}/tasks`, [['description_version', version], ['shown', '2,3'], ['task[]', '2']]);
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain('The description changed since this page was loaded');
    expect((await issue()).description).toBe('Steps:\n\n- [ ] write notes\n- [x] tag it');
    // A Guest sees the boxes, disabled.
    expect((await (await signedIn(guest)).get(ISSUE)).body).toMatch(/value="3"[^>]* checked disabled>/);
  });

  it('edits title and description; a concurrent edit is not overwritten and the typed text is kept', async () => {
    const web = await signedIn(reporter);
    const form = await web.get(`${ISSUE}/edit`);
    expect(form.statusCode).toBe(200);
    const version = /name="description_version" value="([0-9a-f]+)"/.exec(form.body)![1];
    await kiln.api('PUT', `/projects/${project.id}/issues/1`, { token: owner.token, body: { description: 'Changed by the owner' } });
    const conflict = await web.post(`${ISSUE}/edit`, { title: 'Plan', description: 'My long text', description_version: version }, { csrfFrom: ISSUE });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).toContain('My long text');
    expect(conflict.body).toContain('Changed by the owner');
    expect((await issue()).description).toBe('Changed by the owner');
    const fresh = /name="description_version" value="([0-9a-f]+)"/.exec(conflict.body)![1];
    const saved = await web.post(`${ISSUE}/edit`, { title: 'Plan', description: 'Merged text', description_version: fresh }, { csrfFrom: ISSUE });
    expect(saved.statusCode).toBe(303);
    expect(await issue()).toMatchObject({ title: 'Plan', description: 'Merged text' });
    expect(await systemNotes()).toContain('changed the description');
    const blank = await web.post(`${ISSUE}/edit`, { title: ' ', description: 'kept', description_version: fresh }, { csrfFrom: ISSUE });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain('id="issue-title-error"');
    expect(blank.body).toContain('kept');
  });

  it('is refused to a Guest who did not write the issue', async () => {
    expect((await (await signedIn(guest)).get(`${ISSUE}/edit`)).statusCode).toBe(403);
  });
});
