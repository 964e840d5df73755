// The group issue board (issue 36): /groups/<group>/-/boards over the issues of the group's projects
// and its subgroups' that the reader may read, with the group's labels as lists; a move names the
// issue by id and asks admin_issue on its own project, which must be one of the group's; CSRF on
// the forms; text escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { countStatements, type StatementCounter } from '../helpers/statement-counter.js';

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let group: any;
let app: any;
let lib: any;
let outside: any;
let secret: any;
let board: any;
let doing: any;
let statements: StatementCounter;
const XSS = '<img src=x onerror=alert(1)>';
const BOARDS = '/groups/team/-/boards';

beforeAll(async () => {
  statements = countStatements();
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  group = await kiln.createGroup(owner, 'team', { visibility: 'private' });
  const sub = await kiln.createGroup(owner, 'sub', { parent_id: group.id, visibility: 'private' });
  await kiln.addMember(owner, 'groups', group.id, reporter, ACCESS.reporter);
  await kiln.addMember(owner, 'groups', group.id, guest, ACCESS.guest);
  const appProject = await kiln.createProject(owner, 'app', { namespace_id: group.id, visibility: 'private' });
  const libProject = await kiln.createProject(owner, 'lib', { namespace_id: sub.id, visibility: 'private' });
  const elsewhere = await kiln.createProject(owner, 'elsewhere', { visibility: 'private' });
  await kiln.addMember(owner, 'projects', elsewhere.id, reporter, ACCESS.reporter);
  app = await kiln.apiAs(owner, 'POST', `/projects/${appProject.id}/issues`, { title: `Plan ${XSS}` });
  secret = await kiln.apiAs(owner, 'POST', `/projects/${appProject.id}/issues`, { title: 'Hidden', confidential: true });
  lib = await kiln.apiAs(owner, 'POST', `/projects/${libProject.id}/issues`, { title: 'Library' });
  outside = await kiln.apiAs(owner, 'POST', `/projects/${elsewhere.id}/issues`, { title: 'Not the group’s' });
  doing = await kiln.apiAs(owner, 'POST', `/groups/${group.id}/labels`, { name: 'Doing', color: '#428BCA' });
});
afterAll(async () => {
  await kiln.close();
  statements.restore();
});

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

async function issue(row: any) {
  return (await kiln.api('GET', `/projects/${row.project_id}/issues/${row.iid}`, { token: owner.token })).body;
}

describe('GET /groups/<group>/-/boards', () => {
  it('shows the group’s projects’ issues with their references, on GitLab’s default board, text escaped', async () => {
    const page = await (await signedIn(reporter)).get(BOARDS);
    expect(page.statusCode).toBe(200);
    [board] = (await kiln.api('GET', `/groups/${group.id}/boards`, { token: reporter.token })).body;
    expect(board).toMatchObject({ name: 'Development', lists: [] });
    expect(page.body).toContain('<h1>Development</h1>');
    expect(page.body).toContain(`id="card-${lib.id}"`);
    expect(page.body).toContain('team/sub/lib#1');
    expect(page.body).toContain('href="/team/app/-/issues/1">Plan &lt;img src=x onerror=alert(1)&gt;</a> <span class="muted">team/app#1</span>');
    expect(page.body).toContain('Hidden');
    expect(page.body).not.toContain('Not the group’s');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toContain('<a href="/groups/team/-/boards" aria-current="page">Boards</a>');
  });

  it('adds a list for a group label from the page (Reporters)', async () => {
    const web = await signedIn(reporter);
    const added = await web.post(`${BOARDS}/${board.id}/lists`, { label_id: String(doing.id) }, { csrfFrom: BOARDS });
    expect(added.statusCode).toBe(303);
    const lists = (await kiln.api('GET', `/groups/${group.id}/boards/${board.id}/lists`, { token: owner.token })).body;
    expect(lists.map((list: any) => list.label.name)).toEqual(['Doing']);
    board.lists = lists;
    expect((await web.get(BOARDS)).body).toContain(`data-list="${lists[0].id}"`);
  });

  it('shows Guests the board without forms and without confidential issues; hides it from strangers', async () => {
    const asGuest = await (await signedIn(guest)).get(BOARDS);
    expect(asGuest.statusCode).toBe(200);
    expect(asGuest.body).toContain('team/sub/lib#1');
    expect(asGuest.body).not.toContain('Hidden');
    expect(asGuest.body).not.toContain('class="move-issue"');
    expect(asGuest.body).not.toContain('Add list');
    expect((await (await signedIn(stranger)).get(BOARDS)).statusCode).toBe(404);
    expect((await kiln.request('GET', BOARDS)).statusCode).toBe(302);
  });
});

describe('POST /groups/<group>/-/boards/:board/issues/:id/move', () => {
  it('moves a subgroup project’s issue into a label list and into Closed, by keyboard form and htmx', async () => {
    const web = await signedIn(reporter);
    const list = board.lists[0].id;
    const moved = await web.post(`${BOARDS}/${board.id}/issues/${lib.id}/move`, { from: 'open', to: String(list) }, { csrfFrom: BOARDS });
    expect(moved.statusCode).toBe(303);
    expect((await issue(lib)).labels).toEqual(['Doing']);
    expect((await web.get(BOARDS)).body).toContain('Moved team/sub/lib#1 to Doing.');
    const htmx = await web.postHtmx(`${BOARDS}/${board.id}/issues/${lib.id}/move`, { from: String(list), to: 'closed' }, { csrfFrom: BOARDS });
    expect(htmx.statusCode).toBe(200);
    expect(htmx.body.startsWith('<div id="board">')).toBe(true);
    expect(htmx.body).toContain('role="status">Moved team/sub/lib#1 to Closed.</p>');
    expect(await issue(lib)).toMatchObject({ labels: [], state: 'closed' });
  });

  it('refuses a Guest (403), a forged form (422), and an issue outside the group or unknown (404)', async () => {
    const asGuest = await signedIn(guest);
    expect((await asGuest.post(`${BOARDS}/${board.id}/issues/${app.id}/move`, { from: 'open', to: 'closed' }, { csrfFrom: BOARDS })).statusCode).toBe(403);
    expect((await asGuest.post(`${BOARDS}/${board.id}/lists`, { label_id: String(doing.id) }, { csrfFrom: BOARDS })).statusCode).toBe(403);
    const web = await signedIn(reporter);
    expect((await web.post(`${BOARDS}/${board.id}/issues/${app.id}/move`, { from: 'open', to: 'closed', authenticity_token: 'forged' })).statusCode).toBe(422);
    expect((await web.post(`${BOARDS}/${board.id}/issues/${outside.id}/move`, { from: 'open', to: 'closed' }, { csrfFrom: BOARDS })).statusCode).toBe(404);
    expect((await web.post(`${BOARDS}/${board.id}/issues/999999/move`, { from: 'open', to: 'closed' }, { csrfFrom: BOARDS })).statusCode).toBe(404);
    expect((await asGuest.post(`${BOARDS}/${board.id}/issues/${secret.id}/move`, { from: 'open', to: 'closed' }, { csrfFrom: BOARDS })).statusCode).toBe(404);
    expect((await issue(app)).state).toBe('opened');
    expect((await issue(outside)).state).toBe('opened');
  });
});

describe('the group board’s statements', () => {
  it('reads a board of cards from many projects in as many statements as a board of one card', async () => {
    const many = await kiln.createGroup(owner, 'many', { visibility: 'public' });
    const web = await signedIn(owner);
    const first = await kiln.createProject(owner, 'p0', { namespace_id: many.id, visibility: 'public' });
    await kiln.apiAs(owner, 'POST', `/projects/${first.id}/issues`, { title: 'Only one' });
    await web.get('/groups/many/-/boards');
    statements.count = 0;
    expect((await web.get('/groups/many/-/boards')).body.match(/class="board-card"/g)).toHaveLength(1);
    const one = statements.count;
    for (let i = 1; i < 6; i += 1) {
      const project = await kiln.createProject(owner, `p${i}`, { namespace_id: many.id, visibility: 'public' });
      await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: `Issue ${i}` });
      await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: `Another ${i}` });
    }
    statements.count = 0;
    expect((await web.get('/groups/many/-/boards')).body.match(/class="board-card"/g)).toHaveLength(11);
    expect(statements.count).toBe(one);
  }, 120_000);
});
