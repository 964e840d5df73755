// To-dos (issue 36): GitLab's /todos API, to-dos created by assignment, mentions and review requests
// for users who can read the target, resolved when the target closes or merges or the user acts, and
// re-checked on every read; the /dashboard/todos page and the top bar's count; the "your work" pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession, csrfTokenOf } from '../helpers/browser-session.js';
import { branchWith, openMergeRequest, seedRepository, create } from './merge-requests-helpers.js';

let kiln: TestKiln;
let owner: TestUser;
let dev: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: any;
const XSS = '<img src=x onerror=alert(1)>';

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  dev = await kiln.createUser('dev');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'app', { visibility: 'private' });
  await kiln.addMember(owner, 'projects', project.id, dev, 30);
  await kiln.addMember(owner, 'projects', project.id, guest, 10);
});
afterAll(() => kiln.close());

async function todosOf(user: TestUser, query: Record<string, string> = {}) {
  await kiln.worker.drain();
  const response = await kiln.api('GET', '/todos', { token: user.token, query });
  expect(response.status).toBe(200);
  return response.body as any[];
}

async function newIssue(body: Record<string, unknown>, as = owner) {
  return kiln.apiAs(as, 'POST', `/projects/${project.id}/issues`, body);
}

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

async function doneAll() {
  await kiln.worker.drain();
  for (const user of [owner, dev, guest, stranger]) await kiln.api('POST', '/todos/mark_as_done', { token: user.token });
}

describe('GET /api/v4/todos', () => {
  it('lists an assignment with GitLab\'s entity', async () => {
    const issue = await newIssue({ title: `Crash ${XSS}`, assignee_ids: [dev.id] });
    const [todo] = await todosOf(dev);
    expect(todo).toMatchObject({
      project: { id: project.id, name: 'app', path: 'app', path_with_namespace: 'owner/app', name_with_namespace: project.name_with_namespace },
      author: { id: owner.id, username: 'owner' },
      action_name: 'assigned', target_type: 'Issue', target: { id: issue.id, iid: issue.iid, title: issue.title },
      target_url: issue.web_url, body: issue.title, state: 'pending',
    });
    expect(Object.keys(todo)).toEqual(['id', 'project', 'author', 'action_name', 'target_type', 'target', 'target_url', 'body', 'state', 'created_at', 'updated_at']);
    expect(await todosOf(owner)).toEqual([]);
    await doneAll();
  });

  it('gives mentioned and directly addressed readers one to-do each, and none to those who cannot read the target', async () => {
    await newIssue({ title: 'Plan', description: `@guest please look.\n\nAlso @dev and @stranger and @DEV.` });
    expect((await todosOf(guest)).map((todo) => todo.action_name)).toEqual(['directly_addressed']);
    expect((await todosOf(dev)).map((todo) => todo.action_name)).toEqual(['mentioned']);
    expect(await todosOf(stranger)).toEqual([]);
    await doneAll();
  });

  it('comments: a mention gives a to-do whose body is the comment; the commenter\'s own to-dos there are done', async () => {
    const issue = await newIssue({ title: 'Talk', assignee_ids: [dev.id] });
    await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: `Hey @guest see ${XSS}` });
    const [todo] = await todosOf(guest);
    expect(todo).toMatchObject({ action_name: 'mentioned', body: `Hey @guest see ${XSS}` });
    expect(await todosOf(dev)).toHaveLength(1);
    await kiln.apiAs(dev, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'On it' });
    expect(await todosOf(dev)).toEqual([]);
    expect((await todosOf(dev, { state: 'done' }))[0]).toMatchObject({ target: { iid: issue.iid }, state: 'done' });
    await doneAll();
  });

  it('an edit that adds a mention or an assignee creates to-dos; closing the issue resolves them all', async () => {
    const issue = await newIssue({ title: 'Edit me', description: 'nobody' });
    await kiln.apiAs(owner, 'PUT', `/projects/${project.id}/issues/${issue.iid}`, { description: 'now @guest', assignee_ids: [dev.id] });
    expect((await todosOf(guest)).map((todo) => todo.action_name)).toEqual(['mentioned']);
    expect((await todosOf(dev)).map((todo) => todo.action_name)).toEqual(['assigned']);
    await kiln.apiAs(owner, 'PUT', `/projects/${project.id}/issues/${issue.iid}`, { state_event: 'close' });
    expect(await todosOf(guest)).toEqual([]);
    expect(await todosOf(dev)).toEqual([]);
  });

  it('re-checks on read: a to-do on an issue made confidential disappears for a guest, and comes back', async () => {
    const issue = await newIssue({ title: 'Secret soon', description: '@guest' });
    expect(await todosOf(guest)).toHaveLength(1);
    await kiln.apiAs(owner, 'PUT', `/projects/${project.id}/issues/${issue.iid}`, { confidential: true });
    expect(await todosOf(guest)).toEqual([]);
    await kiln.apiAs(owner, 'PUT', `/projects/${project.id}/issues/${issue.iid}`, { confidential: false });
    expect(await todosOf(guest)).toHaveLength(1);
    await doneAll();
  });

  it('filters by type, action, author, project and state; refuses unknown types and states', async () => {
    await newIssue({ title: 'Filter', assignee_ids: [dev.id], description: '' });
    await newIssue({ title: 'Filter 2', description: '@dev' }, guest);
    expect(await todosOf(dev, { action: 'assigned' })).toHaveLength(1);
    expect(await todosOf(dev, { author_id: String(guest.id) })).toHaveLength(1);
    expect(await todosOf(dev, { project_id: String(project.id) })).toHaveLength(2);
    expect(await todosOf(dev, { project_id: '999999' })).toEqual([]);
    expect(await todosOf(dev, { type: 'MergeRequest' })).toEqual([]);
    expect((await kiln.api('GET', '/todos', { token: dev.token, query: { type: 'Nope' } })).status).toBe(400);
    expect((await kiln.api('GET', '/todos', { token: dev.token, query: { state: 'nope' } })).status).toBe(400);
    expect((await kiln.api('GET', '/todos')).status).toBe(401);
    await doneAll();
  });
});

describe('POST /api/v4/todos/:id/mark_as_done and /todos/mark_as_done', () => {
  it('marks one done (201 with the entity), 404 for another user\'s; marks all done (204)', async () => {
    await newIssue({ title: 'A', description: '@dev' });
    await newIssue({ title: 'B', description: '@dev' });
    const [first, second] = await todosOf(dev);
    expect((await kiln.api('POST', `/todos/${first.id}/mark_as_done`, { token: guest.token })).status).toBe(404);
    const marked = await kiln.api('POST', `/todos/${first.id}/mark_as_done`, { token: dev.token });
    expect(marked.status).toBe(201);
    expect(marked.body).toMatchObject({ id: first.id, state: 'done' });
    expect((await todosOf(dev)).map((todo) => todo.id)).toEqual([second.id]);
    expect((await kiln.api('POST', '/todos/mark_as_done', { token: dev.token })).status).toBe(204);
    expect(await todosOf(dev)).toEqual([]);
  });
});

describe('POST /api/v4/projects/:id/issues/:iid/todo', () => {
  it('adds a marked to-do once (201, then 304), 404 for a non-member', async () => {
    const issue = await newIssue({ title: 'Mark me' });
    const first = await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/todo`, { token: guest.token });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ action_name: 'marked', author: { id: guest.id }, target: { iid: issue.iid }, state: 'pending' });
    const again = await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/todo`, { token: guest.token });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect((await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/todo`, { token: stranger.token })).status).toBe(404);
    expect((await kiln.api('POST', `/projects/${project.id}/issues/9999/todo`, { token: guest.token })).status).toBe(404);
    await doneAll();
  });
});

describe('merge requests', () => {
  it('review requests and assignments give to-dos; merging resolves them; POST …/merge_requests/:iid/todo', async () => {
    await seedRepository(kiln, owner, project.id);
    await branchWith(kiln, owner, project.id, 'feature', [create('a.txt', 'a\n')]);
    const mr = await openMergeRequest(kiln, owner, project.id, { source_branch: 'feature', reviewer_ids: [dev.id], assignee_ids: [owner.id], description: '@guest FYI' });
    expect((await todosOf(dev)).map((todo) => [todo.action_name, todo.target_type, todo.target.iid])).toEqual([['review_requested', 'MergeRequest', mr.iid]]);
    expect((await todosOf(owner)).map((todo) => todo.action_name)).toEqual(['assigned']);
    // A Guest cannot read merge requests of a private project: no to-do.
    expect(await todosOf(guest)).toEqual([]);
    const marked = await kiln.api('POST', `/projects/${project.id}/merge_requests/${mr.iid}/todo`, { token: dev.token });
    expect(marked.status).toBe(304);
    expect((await kiln.api('POST', `/projects/${project.id}/merge_requests/999/todo`, { token: dev.token })).body).toEqual({ message: '404 Merge Request Not Found' });
    expect((await kiln.api('PUT', `/projects/${project.id}/merge_requests/${mr.iid}/merge`, { token: owner.token })).status).toBe(200);
    expect(await todosOf(dev)).toEqual([]);
    expect(await todosOf(owner)).toEqual([]);
  });
});


describe('GET /dashboard/todos', () => {
  it('lists pending to-dos with the count in the top bar, text escaped, filters kept in links', async () => {
    await doneAll();
    const issue = await newIssue({ title: `Page ${XSS}`, description: `Hello @guest ${XSS}` });
    await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: `Ping @guest ${XSS}` });
    await kiln.worker.drain();
    const web = await signedIn(guest);
    const list = await web.get('/dashboard/todos');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('<span id="todos-count" class="todos-count">1</span>');
    expect(list.body).toContain(`href="/owner/app/-/issues/${issue.iid}">owner/app#${issue.iid}</a>`);
    expect(list.body).toContain('mentioned you on');
    expect(list.body).not.toContain('<img src=x');
    expect(list.body).toContain('Page &lt;img src=x onerror=alert(1)&gt;');
    const filtered = await web.get('/dashboard/todos?action=assigned&type=Issue');
    expect(filtered.body).toContain('No pending to-dos match these filters.');
    expect(filtered.body).toContain('<option value="assigned" selected>');
    expect((await web.get('/dashboard/todos?action=%3Cscript%3E&project_id=abc')).statusCode).toBe(200);
  });

  it('marks done and undoes without JavaScript, and in place with htmx (the count swapped out of band)', async () => {
    const [todo] = await todosOf(guest);
    const web = await signedIn(guest);
    const plain = await web.post(`/dashboard/todos/${todo.id}/done`, { return_to: '/dashboard/todos?type=Issue' }, { csrfFrom: '/dashboard/todos' });
    expect(plain.statusCode).toBe(303);
    expect(plain.headers.location).toBe('/dashboard/todos?type=Issue');
    expect(await todosOf(guest)).toEqual([]);
    expect((await web.get('/dashboard/todos?state=done')).body).toContain('>Undo</button>');
    const token = csrfTokenOf((await web.get('/dashboard/todos')).body);
    const undo = await kiln.app.inject({
      method: 'POST', url: `/dashboard/todos/${todo.id}/restore`,
      headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded', 'hx-request': 'true' },
      payload: new URLSearchParams({ authenticity_token: token, return_to: '//evil.example' }).toString(),
    });
    expect(undo.statusCode).toBe(200);
    expect(undo.body).toContain('Restored to your to-dos.');
    expect(undo.body).toContain('<span id="todos-count" class="todos-count" hx-swap-oob="true">1</span>');
    expect(undo.body).not.toContain('<html');
    expect(await todosOf(guest)).toHaveLength(1);
  });

  it('refuses another user\'s to-do (404), a form without the CSRF token (422), and anonymous visitors (sign-in)', async () => {
    const [todo] = await todosOf(guest);
    const other = await signedIn(dev);
    expect((await other.post(`/dashboard/todos/${todo.id}/done`, {}, { csrfFrom: '/dashboard/todos' })).statusCode).toBe(404);
    expect((await other.post('/dashboard/todos/mark_all_done', { authenticity_token: 'forged' })).statusCode).toBe(422);
    expect(await todosOf(guest)).toHaveLength(1);
    const anonymous = await kiln.request('GET', '/dashboard/todos');
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toContain('/users/sign_in');
    const web = await signedIn(guest);
    expect((await web.post('/dashboard/todos/mark_all_done', {}, { csrfFrom: '/dashboard/todos' })).headers.location).toBe('/dashboard/todos');
    expect(await todosOf(guest)).toEqual([]);
    expect((await web.get('/dashboard/todos')).body).toContain('Nothing to do.');
  });
});

describe('GET /dashboard/issues and /dashboard/merge_requests (your work)', () => {
  it('list what is assigned to, created by, or waiting for the review of the reader, by state, only while readable', async () => {
    const ana = await kiln.createUser('ana');
    await kiln.addMember(owner, 'projects', project.id, ana, 30);
    const elsewhere = await kiln.createProject(owner, 'elsewhere', { visibility: 'private' });
    await kiln.addMember(owner, 'projects', elsewhere.id, ana, 30);
    const assigned = await newIssue({ title: `Assigned ${XSS}`, assignee_ids: [ana.id] });
    const closed = await newIssue({ title: 'Closed one', assignee_ids: [ana.id] });
    await kiln.apiAs(owner, 'PUT', `/projects/${project.id}/issues/${closed.iid}`, { state_event: 'close' });
    await kiln.apiAs(ana, 'POST', `/projects/${project.id}/issues`, { title: 'Mine' });
    const hidden = await kiln.apiAs(owner, 'POST', `/projects/${elsewhere.id}/issues`, { title: 'Gone soon', assignee_ids: [ana.id] });
    const web = await signedIn(ana);
    const list = await web.get('/dashboard/issues');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`href="/owner/app/-/issues/${assigned.iid}">Assigned &lt;img src=x onerror=alert(1)&gt;</a>`);
    expect(list.body).toContain(`href="/owner/elsewhere/-/issues/${hidden.iid}"`);
    expect(list.body).not.toContain('Closed one');
    expect(list.body).toContain('data-tab="closed"');
    expect(list.body).toMatch(/data-tab="opened" aria-current="page">Open <span class="badge">2<\/span>/);
    expect((await web.get('/dashboard/issues?state=closed')).body).toContain('Closed one');
    const created = (await web.get('/dashboard/issues?scope=created_by_me')).body;
    expect(created).toContain('Mine');
    expect(created).not.toContain('Assigned &lt;img');
    await kiln.api('DELETE', `/projects/${elsewhere.id}/members/${ana.id}`, { token: owner.token });
    expect((await web.get('/dashboard/issues')).body).not.toContain('/owner/elsewhere/');
    expect((await web.get('/dashboard/issues?scope=%3Cx%3E&state=bogus&page=-3')).statusCode).toBe(200);

    await branchWith(kiln, owner, project.id, 'review', [create('b.txt', 'b\n')]);
    const mr = await openMergeRequest(kiln, owner, project.id, { source_branch: 'review', title: `Review ${XSS}`, reviewer_ids: [ana.id] });
    const reviews = await web.get('/dashboard/merge_requests?scope=reviews_for_me');
    expect(reviews.body).toContain(`href="/owner/app/-/merge_requests/${mr.iid}">Review &lt;img src=x onerror=alert(1)&gt;</a>`);
    expect((await web.get('/dashboard/merge_requests')).body).toContain('No open merge requests assigned to you.');
    const anonymous = await kiln.request('GET', '/dashboard/merge_requests');
    expect(anonymous.statusCode).toBe(302);
  });
});
