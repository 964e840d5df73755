// The project board page (issue 36): Open, label lists and Closed; a move swaps the labels as GitLab's
// board does (the source list's label off, the target's on), closes into Closed and reopens out of it,
// with the system notes of any edit; the forms are Reporters', CSRF-checked, and text is escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: any;
let board: any;
const lists: Record<string, number> = {};
const XSS = '<img src=x onerror=alert(1)>';
const BOARDS = '/team/app/-/boards';

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  const group = await kiln.createGroup(owner, 'team', { visibility: 'private' });
  project = await kiln.createProject(owner, 'app', { namespace_id: group.id, visibility: 'private' });
  await kiln.addMember(owner, 'projects', project.id, reporter, ACCESS.reporter);
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
  for (const name of ['Doing', 'Review', `odd ${XSS}`]) await kiln.api('POST', `/projects/${project.id}/labels`, { token: owner.token, body: { name, color: '#428BCA' } });
  await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: `Plan ${XSS}` } });
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

async function issue() {
  return (await kiln.api('GET', `/projects/${project.id}/issues/1`, { token: owner.token })).body;
}

async function notes() {
  return (await kiln.api('GET', `/projects/${project.id}/issues/1/notes`, { token: owner.token, query: { sort: 'asc' } })).body.filter((note: any) => note.system).map((note: any) => note.body);
}

describe('GET /<project>/-/boards', () => {
  it('gives the project GitLab’s default board on first visit, with Open and Closed, text escaped', async () => {
    const web = await signedIn(reporter);
    const page = await web.get(BOARDS);
    expect(page.statusCode).toBe(200);
    [board] = (await kiln.api('GET', `/projects/${project.id}/boards`, { token: reporter.token })).body;
    expect(board).toMatchObject({ name: 'Development', lists: [] });
    expect(page.body).toContain('<h1>Development</h1>');
    expect(page.body).toContain('data-list="open"');
    expect(page.body).toContain('data-list="closed"');
    expect(page.body).toContain('Plan &lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).toContain('odd &lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toContain('src="/-/assets/boards.js"');
    expect((await web.get(BOARDS)).statusCode).toBe(200);
    expect((await kiln.api('GET', `/projects/${project.id}/boards`, { token: reporter.token })).body).toHaveLength(1);
  });

  it('adds label lists from the page (Reporters), in the order added', async () => {
    const web = await signedIn(reporter);
    const labels = (await kiln.api('GET', `/projects/${project.id}/labels`, { token: owner.token })).body;
    for (const name of ['Doing', 'Review']) {
      const added = await web.post(`${BOARDS}/${board.id}/lists`, { label_id: String(labels.find((label: any) => label.name === name).id) }, { csrfFrom: BOARDS });
      expect(added.statusCode).toBe(303);
    }
    const read = (await kiln.api('GET', `/projects/${project.id}/boards/${board.id}/lists`, { token: owner.token })).body;
    expect(read.map((list: any) => list.label.name)).toEqual(['Doing', 'Review']);
    for (const list of read) lists[list.label.name] = list.id;
    const page = (await web.get(BOARDS)).body;
    expect(page).toContain(`data-list="${lists.Doing}"`);
    expect(page).toContain('<option value="closed">Closed</option>');
  });

  it('shows readers the board without forms; hides a private project’s board from strangers', async () => {
    const asGuest = await (await signedIn(guest)).get(`${BOARDS}/${board.id}`);
    expect(asGuest.statusCode).toBe(200);
    expect(asGuest.body).toContain('Plan &lt;img');
    expect(asGuest.body).not.toContain('class="move-issue"');
    expect(asGuest.body).not.toContain('Add list');
    expect((await (await signedIn(stranger)).get(BOARDS)).statusCode).toBe(404);
    expect((await kiln.request('GET', BOARDS)).statusCode).toBe(302);
  });
});

describe('POST /<project>/-/boards/:board/issues/:iid/move', () => {
  it('swaps the labels between label lists, closes into Closed and reopens out of it, with system notes', async () => {
    const web = await signedIn(reporter);
    const move = (from: string | number, to: string | number) => web.post(`${BOARDS}/${board.id}/issues/1/move`, { from: String(from), to: String(to) }, { csrfFrom: BOARDS });
    expect((await move('open', lists.Doing)).statusCode).toBe(303);
    expect((await issue()).labels).toEqual(['Doing']);
    await move(lists.Doing, lists.Review);
    expect(await issue()).toMatchObject({ labels: ['Review'], state: 'opened' });
    const page = (await web.get(BOARDS)).body;
    expect(page).toContain('Moved #1 to Review.');
    await move(lists.Review, 'closed');
    expect(await issue()).toMatchObject({ labels: [], state: 'closed' });
    await move('closed', lists.Doing);
    expect(await issue()).toMatchObject({ labels: ['Doing'], state: 'opened' });
    await move(lists.Doing, 'open');
    expect(await issue()).toMatchObject({ labels: [], state: 'opened' });
    expect(await notes()).toEqual([
      'added ~Doing label',
      'added ~Review label and removed ~Doing label',
      'removed ~Review label',
      'closed',
      'added ~Doing label',
      'reopened',
      'removed ~Doing label',
    ]);
  });

  it('answers an htmx move with the board and a status line', async () => {
    const web = await signedIn(reporter);
    const response = await web.postHtmx(`${BOARDS}/${board.id}/issues/1/move`, { from: 'open', to: String(lists.Review) }, { csrfFrom: BOARDS });
    expect(response.statusCode).toBe(200);
    expect(response.body.startsWith('<div id="board">')).toBe(true);
    expect(response.body).toContain('role="status">Moved #1 to Review.</p>');
    expect((await issue()).labels).toEqual(['Review']);
  });

  it('refuses a Guest (403), a forged form (422), another project’s board and unknown lists (404)', async () => {
    const asGuest = await signedIn(guest);
    expect((await asGuest.post(`${BOARDS}/${board.id}/issues/1/move`, { from: String(lists.Review), to: 'closed' }, { csrfFrom: BOARDS })).statusCode).toBe(403);
    expect((await asGuest.post(`${BOARDS}/${board.id}/lists`, { label_id: '1' }, { csrfFrom: BOARDS })).statusCode).toBe(403);
    const web = await signedIn(reporter);
    expect((await web.post(`${BOARDS}/${board.id}/issues/1/move`, { from: String(lists.Review), to: 'closed', authenticity_token: 'forged' })).statusCode).toBe(422);
    const theirs = (await kiln.api('POST', `/projects/${(await kiln.createProject(owner, 'other')).id}/boards`, { token: owner.token, body: { name: 'theirs' } })).body;
    expect((await web.post(`${BOARDS}/${theirs.id}/issues/1/move`, { from: String(lists.Review), to: 'closed' }, { csrfFrom: BOARDS })).statusCode).toBe(404);
    expect((await web.post(`${BOARDS}/${board.id}/issues/1/move`, { from: String(lists.Review), to: '999999' }, { csrfFrom: BOARDS })).statusCode).toBe(404);
    expect(await issue()).toMatchObject({ labels: ['Review'], state: 'opened' });
  });

  it('moves by the list’s own label when a group label shares a project label’s title', async () => {
    const group = (await kiln.api('GET', '/groups/team', { token: owner.token })).body;
    const shared = (await kiln.api('POST', `/groups/${group.id}/labels`, { token: owner.token, body: { name: 'Doing', color: '#FF0000' } })).body;
    const list = (await kiln.api('POST', `/projects/${project.id}/boards/${board.id}/lists`, { token: owner.token, body: { label_id: shared.id } })).body;
    const second = (await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Second' } })).body;
    const labelIds = async () => (await kiln.api('GET', `/projects/${project.id}/issues`, { token: owner.token, query: { 'iids[]': second.iid, with_labels_details: true } })).body[0].labels.map((label: any) => label.id);
    const web = await signedIn(reporter);
    const move = (from: string | number, to: string | number) => web.post(`${BOARDS}/${board.id}/issues/${second.iid}/move`, { from: String(from), to: String(to) }, { csrfFrom: BOARDS });
    expect((await move('open', list.id)).statusCode).toBe(303);
    expect(await labelIds()).toEqual([shared.id]);
    expect((await move(list.id, 'open')).statusCode).toBe(303);
    expect(await labelIds()).toEqual([]);
  });
});

describe('managing boards from the page', () => {
  it('creates, renames and deletes boards (Reporters), keeping a refused name beside its field', async () => {
    const web = await signedIn(reporter);
    expect((await web.get(BOARDS)).body).toContain('id="new-board-name"');
    const made = await web.post(BOARDS, { name: `Sprint ${XSS}` }, { csrfFrom: BOARDS });
    expect(made.statusCode).toBe(303);
    const location = String(made.headers.location);
    expect(location).toMatch(/^\/team\/app\/-\/boards\/\d+$/);
    const shown = await web.get(location);
    expect(shown.body).toContain('Sprint &lt;img src=x onerror=alert(1)&gt;');
    expect(shown.body).not.toContain(`Sprint ${XSS}`);
    const id = Number(location.split('/').pop());
    expect((await kiln.api('GET', `/projects/${project.id}/boards/${id}`, { token: owner.token })).body.name).toBe(`Sprint ${XSS}`);
    const blank = await web.post(`${location}/edit`, { name: '  ' }, { csrfFrom: location });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain('id="rename-board-name-error"');
    expect(blank.body).toMatch(/id="rename-board-name" name="name" value=" {2}" required maxlength="255" aria-invalid="true"/);
    expect((await web.post(`${location}/edit`, { name: 'Sprint 2' }, { csrfFrom: location })).statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${project.id}/boards/${id}`, { token: owner.token })).body.name).toBe('Sprint 2');
    const deleted = await web.post(`${location}/delete`, {}, { csrfFrom: location });
    expect(deleted.statusCode).toBe(303);
    expect(deleted.headers.location).toBe(BOARDS);
    expect((await kiln.api('GET', `/projects/${project.id}/boards/${id}`, { token: owner.token })).status).toBe(404);
  });

  it('refuses a Guest (403) and a forged form (422), and shows Guests no forms', async () => {
    const web = await signedIn(guest);
    expect((await web.get(BOARDS)).body).not.toContain('id="new-board-name"');
    expect((await web.post(BOARDS, { name: 'Mine' }, { csrfFrom: BOARDS })).statusCode).toBe(403);
    const reporterWeb = await signedIn(reporter);
    const forged = await kiln.app.inject({ method: 'POST', url: BOARDS, headers: { cookie: reporterWeb.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=Forged' });
    expect(forged.statusCode).toBe(422);
  });
});
