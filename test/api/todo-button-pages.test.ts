// The to-do button of the issue and merge request pages (issue 36): "Add a to do" adds a `marked`
// to-do for the reader through the API's service, "Mark as done" marks the reader's pending to-dos
// on the target done (an assignment's too); without JavaScript the page comes back, with htmx the
// button and the top bar's count are swapped; a stale repeat lands where the button said; CSRF,
// anonymous visitors and readers who cannot see the target are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession, csrfTokenOf } from '../helpers/browser-session.js';
import { branchWith, openMergeRequest, seedRepository, create } from './merge-requests-helpers.js';

let kiln: TestKiln;
let owner: TestUser;
let dev: TestUser;
let stranger: TestUser;
let project: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  dev = await kiln.createUser('dev');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'app', { visibility: 'private' });
  await kiln.addMember(owner, 'projects', project.id, dev, 30);
});
afterAll(() => kiln.close());

async function todosOf(user: TestUser, state = 'pending') {
  await kiln.worker.drain();
  const response = await kiln.api('GET', '/todos', { token: user.token, query: { state } });
  expect(response.status).toBe(200);
  return response.body as any[];
}

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

function htmxPost(web: WebSession, url: string, form: Record<string, string>) {
  return kiln.app.inject({
    method: 'POST', url,
    headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded', 'hx-request': 'true' },
    payload: new URLSearchParams(form).toString(),
  });
}

/** Adds and marks done a to-do through one target's page, both ways. */
async function journey(self: string, type: 'Issue' | 'MergeRequest', iid: number) {
  const web = await signedIn(dev);
  const shown = await web.get(self);
  expect(shown.statusCode).toBe(200);
  expect(shown.body).toContain(`<form method="post" action="${self}/todo"`);
  expect(shown.body).toMatch(/name="pending" value="0"><button type="submit" class="small secondary">Add a to do<\/button>/);

  const added = await web.post(`${self}/todo`, { pending: '0' }, { csrfFrom: self });
  expect(added.statusCode).toBe(303);
  expect(added.headers.location).toBe(self);
  const [todo] = await todosOf(dev);
  expect(todo).toMatchObject({ action_name: 'marked', target_type: type, target: { iid }, author: { username: 'dev' } });
  // A second "add" from a stale page adds nothing (GitLab's one pending to-do per target).
  expect((await web.post(`${self}/todo`, { pending: '0' }, { csrfFrom: self })).statusCode).toBe(303);
  expect(await todosOf(dev)).toHaveLength(1);
  const again = await web.get(self);
  expect(again.body).toContain('<span id="todos-count" class="todos-count">1</span>');
  expect(again.body).toMatch(/name="pending" value="1"><button type="submit" class="small secondary">Mark as done<\/button>/);

  const token = csrfTokenOf(again.body);
  const done = await htmxPost(web, `${self}/todo`, { authenticity_token: token, pending: '1' });
  expect(done.statusCode).toBe(200);
  expect(done.body).not.toContain('<html');
  expect(done.body).toContain('Add a to do</button>');
  expect(done.body).toContain('role="status">To-do marked as done.</span>');
  expect(done.body).toContain('<span id="todos-count" class="todos-count" hx-swap-oob="true">0</span>');
  expect(await todosOf(dev)).toEqual([]);
  expect((await todosOf(dev, 'done')).map((row) => row.id)).toContain(todo.id);
  // A stale "mark as done" with nothing pending changes nothing and adds nothing.
  expect((await htmxPost(web, `${self}/todo`, { authenticity_token: token, pending: '1' })).body).toContain('Add a to do</button>');
  expect(await todosOf(dev)).toEqual([]);
}

/** Who may not post: no CSRF token (422), anonymous (sign-in), a stranger to the private project (404). */
async function refusals(self: string) {
  const web = await signedIn(dev);
  expect((await web.post(`${self}/todo`, { pending: '0', authenticity_token: 'forged' })).statusCode).toBe(422);
  const anonymous = await kiln.request('POST', `${self}/todo`);
  expect(anonymous.statusCode).toBe(302);
  expect(anonymous.headers.location).toContain('/users/sign_in');
  const outsider = await signedIn(stranger);
  expect((await outsider.post(`${self}/todo`, { pending: '0' }, { csrfFrom: '/dashboard/todos' })).statusCode).toBe(404);
  expect(await todosOf(dev)).toEqual([]);
  expect(await todosOf(stranger)).toEqual([]);
}

describe('the to-do button on the issue page', () => {
  it('adds a to-do and marks it done, without JavaScript and in place', async () => {
    const issue = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Plan' });
    await journey(`/owner/app/-/issues/${issue.iid}`, 'Issue', issue.iid);
  });

  it('"Mark as done" also resolves the reader\'s assignment to-do; the sidebar swap keeps the button', async () => {
    const issue = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Assigned', assignee_ids: [dev.id] });
    expect((await todosOf(dev)).map((todo) => todo.action_name)).toEqual(['assigned']);
    const self = `/owner/app/-/issues/${issue.iid}`;
    const web = await signedIn(dev);
    expect((await web.get(self)).body).toContain('Mark as done</button>');
    expect((await web.post(`${self}/todo`, { pending: '1' }, { csrfFrom: self })).statusCode).toBe(303);
    expect(await todosOf(dev)).toEqual([]);
    // The sidebar's forms swap the whole sidebar: the button comes back with it, in its new state.
    const token = csrfTokenOf((await web.get(self)).body);
    const swapped = await htmxPost(web, `${self}/sidebar`, { authenticity_token: token, field: 'due_date', due_date: '2030-01-02' });
    expect(swapped.statusCode).toBe(200);
    expect(swapped.body).toContain(`action="${self}/todo"`);
    expect(swapped.body).toContain('Add a to do</button>');
  });

  it('is not offered to anonymous readers of a public project, and refuses what it must', async () => {
    const open = await kiln.createProject(owner, 'open', { visibility: 'public' });
    const issue = await kiln.apiAs(owner, 'POST', `/projects/${open.id}/issues`, { title: 'Public' });
    const anonymous = await kiln.request('GET', `/owner/open/-/issues/${issue.iid}`);
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.body).not.toContain('/todo"');
    const hidden = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Private' });
    await refusals(`/owner/app/-/issues/${hidden.iid}`);
    // A confidential issue the reader cannot see is no target either.
    const guest = await kiln.createUser('guest');
    await kiln.addMember(owner, 'projects', project.id, guest, 10);
    const secret = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Secret', confidential: true });
    const web = await signedIn(guest);
    expect((await web.post(`/owner/app/-/issues/${secret.iid}/todo`, { pending: '0' }, { csrfFrom: '/dashboard/todos' })).statusCode).toBe(404);
    expect(await todosOf(guest)).toEqual([]);
  }, 120_000);
});

describe('the to-do button on the merge request page', () => {
  it('adds a to-do and marks it done, and refuses what it must', async () => {
    await seedRepository(kiln, owner, project.id);
    await branchWith(kiln, owner, project.id, 'feature', [create('a.txt', 'a\n')]);
    const mr = await openMergeRequest(kiln, owner, project.id, { source_branch: 'feature' });
    const self = `/owner/app/-/merge_requests/${mr.iid}`;
    await journey(self, 'MergeRequest', mr.iid);
    await refusals(self);
    const web = await signedIn(dev);
    expect((await web.post('/owner/app/-/merge_requests/999/todo', { pending: '0' }, { csrfFrom: self })).statusCode).toBe(404);
  }, 180_000);
});
