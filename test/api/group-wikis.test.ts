// Group wikis (issue 38): /groups/:id/wikis — the project wikis' API on a group's `<group>.wiki.git`
// repository, the group's wiki_access_level, the pages under /groups/<group>/-/wikis, a clone with the
// real git client of what the API wrote, and writes refused while the group's repository moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { gitBytes, readableWiki } from '../../src/repositories/api.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';
import { WebSession } from '../helpers/browser-session.js';
import { multipart, TINY_PNG } from '../helpers/multipart.js';

let kiln: TestKiln;
let base: string;
let work: string;
const { run: gitRun } = gitCommands(() => work);
let alice: TestUser;
let dev: TestUser;
let guest: TestUser;
let outsider: TestUser;
let group: any;
let open: any;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-group-wikis-'));
  kiln = await testKiln({ storages: [{ name: 'default', path: join(work, 'shards', 'default'), weight: 100 }] });
  base = await listenOnLoopback(kiln.app);
  alice = await kiln.createUser('alice');
  dev = await kiln.createUser('dev');
  guest = await kiln.createUser('guest');
  outsider = await kiln.createUser('outsider');
  group = await kiln.createGroup(alice, 'team', { visibility: 'private' });
  open = await kiln.createGroup(alice, 'open', { visibility: 'public' });
  await kiln.addMember(alice, 'groups', group.id, dev, ACCESS.developer);
  await kiln.addMember(alice, 'groups', group.id, guest, ACCESS.guest);
}, 60_000);

afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

const wikis = (id: number | string, rest = '') => `/groups/${id}/wikis${rest}`;

describe('the group wikis API', () => {
  it('as a developer creates a page in the group wiki repository, committed as them', async () => {
    const created = await kiln.api('POST', wikis(group.id), { token: dev.token, body: { title: 'Team Handbook', content: '# Hi\n\nSee [rules](rules).' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ format: 'markdown', slug: 'Team-Handbook', title: 'Team Handbook', content: '# Hi\n\nSee [rules](rules).', encoding: 'UTF-8', front_matter: {} });
    const repoPath = (await readableWiki(kiln.deps, { type: 'group', id: group.id }))!;
    expect(repoPath).toMatch(/@groups\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.wiki\.git$/);
    expect((await gitBytes(repoPath, ['log', '-1', '--format=%an|%s', 'HEAD'])).toString().trim()).toBe('User dev|dev created page: Team-Handbook');
    // The group's path names it too; a project's wiki of the same id is another repository.
    expect((await kiln.api('GET', wikis('team', '/Team-Handbook'), { token: guest.token })).body.title).toBe('Team Handbook');
    expect(await readableWiki(kiln.deps, group.id)).toBeNull();
  });

  it('lists, reads (rendered, with links between pages), changes and deletes pages', async () => {
    await kiln.api('POST', wikis(group.id), { token: dev.token, body: { title: 'ops/rules', content: 'Be kind', format: 'rdoc' } });
    const list = await kiln.api('GET', wikis(group.id), { token: guest.token });
    expect(list.body).toEqual([
      { format: 'markdown', slug: 'Team-Handbook', title: 'Team Handbook' },
      { format: 'rdoc', slug: 'ops/rules', title: 'rules' },
    ]);
    const rendered = await kiln.api('GET', wikis(group.id, '/Team-Handbook?render_html=true'), { token: guest.token });
    expect(rendered.body.content).toContain('href="/groups/team/-/wikis/rules"');
    const changed = await kiln.api('PUT', wikis(group.id, '/ops%2Frules'), { token: dev.token, body: { content: 'Be very kind', format: 'markdown' } });
    expect(changed.body).toMatchObject({ slug: 'ops/rules', format: 'markdown', content: 'Be very kind' });
    expect((await kiln.api('DELETE', wikis(group.id, '/ops%2Frules'), { token: dev.token })).status).toBe(204);
    expect(await kiln.api('GET', wikis(group.id, '/ops%2Frules'), { token: dev.token })).toMatchObject({ status: 404, body: { message: '404 Wiki Page Not Found' } });
  });

  it('takes attachments', async () => {
    const { payload, contentType } = await multipart({ file: { filename: 'dot.png', data: TINY_PNG, type: 'image/png' } });
    const uploaded = await kiln.app.inject({ method: 'POST', url: `/api/v4${wikis(group.id, '/attachments')}`, headers: { 'private-token': dev.token, 'content-type': contentType }, payload });
    expect(uploaded.statusCode).toBe(201);
    expect(uploaded.json()).toMatchObject({ file_name: 'dot.png', branch: 'main', file_path: expect.stringMatching(/^uploads\/[0-9a-f]{32}\/dot\.png$/) });
  });

  it('is read by guests, written by developers, hidden from outsiders; anyone reads a public group', async () => {
    expect((await kiln.api('POST', wikis(group.id), { token: guest.token, body: { title: 'x', content: 'y' } })).status).toBe(403);
    expect((await kiln.api('DELETE', wikis(group.id, '/Team-Handbook'), { token: guest.token })).status).toBe(403);
    expect((await kiln.api('GET', wikis(group.id), { token: outsider.token })).status).toBe(404);
    expect((await kiln.api('GET', wikis(group.id))).status).toBe(404);
    await kiln.api('POST', wikis(open.id), { token: alice.token, body: { title: 'home', content: 'Hello' } });
    expect((await kiln.api('GET', wikis(open.id))).body).toEqual([{ format: 'markdown', slug: 'home', title: 'home' }]);
    expect((await kiln.api('POST', wikis(open.id), { token: outsider.token, body: { title: 'x', content: 'y' } })).status).toBe(403);
  });

  it('refuses bad input naming the parameter', async () => {
    expect(await kiln.api('POST', wikis(group.id), { token: dev.token, body: { content: 'y' } })).toMatchObject({ status: 400, body: { error: 'title is missing' } });
    expect(await kiln.api('POST', wikis(group.id), { token: dev.token, body: { title: 'a/../b', content: 'y' } })).toMatchObject({ status: 400, body: { message: { title: ['is invalid'] } } });
    expect((await kiln.api('POST', wikis(group.id), { token: dev.token, body: { title: 'Team Handbook', content: 'again' } })).status).toBe(400);
    expect((await kiln.api('GET', wikis(999_999))).status).toBe(404);
  });
});

describe("the group's wiki_access_level", () => {
  it('private keeps the wiki to members; disabled closes it to everyone (API, git and pages)', async () => {
    await kiln.api('POST', wikis(open.id), { token: alice.token, body: { title: 'private-check', content: 'x' } });
    expect((await kiln.api('PUT', `/groups/${open.id}`, { token: alice.token, body: { wiki_access_level: 'private' } })).status).toBe(200);
    expect((await kiln.api('GET', wikis(open.id))).status).toBe(403);
    expect((await kiln.api('GET', wikis(open.id), { token: outsider.token })).status).toBe(403);
    expect((await kiln.api('GET', wikis(open.id), { token: alice.token })).status).toBe(200);
    expect((await kiln.api('PUT', `/groups/${open.id}`, { token: alice.token, body: { wiki_access_level: 'disabled' } })).status).toBe(200);
    expect((await kiln.api('GET', wikis(open.id), { token: alice.token })).status).toBe(403);
    const url = `${base.replace('http://', `http://alice:${alice.token}@`)}/open.wiki.git`;
    const clone = await gitRun(['clone', url, join(work, 'closed')]);
    expect(clone.code).not.toBe(0);
    const web = new WebSession(kiln);
    await web.signIn(alice.username, alice.password);
    expect((await web.get('/groups/open/-/wikis/home')).statusCode).toBe(403);
    await kiln.api('PUT', `/groups/${open.id}`, { token: alice.token, body: { wiki_access_level: 'enabled' } });
  });
});

describe('git and the pages of a group wiki', () => {
  it('clones what the API wrote, and shows it in the pages with the group navigation', async () => {
    const dir = join(work, 'team-wiki');
    const clone = await gitRun(['clone', `${base.replace('http://', `http://guest:${guest.token}@`)}/team.wiki.git`, dir]);
    expect(clone.code, clone.stderr).toBe(0);
    expect(readFileSync(join(dir, 'Team-Handbook.md'), 'utf8')).toBe('# Hi\n\nSee [rules](rules).');
    const web = new WebSession(kiln);
    await web.signIn(guest.username, guest.password);
    const shown = await web.get('/groups/team/-/wikis/Team-Handbook');
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<h1>Team Handbook</h1>');
    expect(shown.body).toContain('href="/groups/team/-/wikis" aria-current="page">Wiki</a>');
    expect(shown.body).not.toContain('Team-Handbook/edit');
    expect((await web.get('/groups/team/-/wikis/new')).statusCode).toBe(403);
  });
});

describe('a group wiki being moved', () => {
  it('refuses writes with 403 while the group is read-only', async () => {
    await kiln.deps.db.updateTable('namespaces').set({ read_only: 1 }).where('id', '=', group.id).execute();
    try {
      expect(await kiln.api('POST', wikis(group.id), { token: dev.token, body: { title: 'During move', content: 'x' } })).toMatchObject({
        status: 403, body: { message: 'The repository is temporarily read-only. Please try again later.' },
      });
      expect((await kiln.api('GET', wikis(group.id), { token: dev.token })).status).toBe(200);
    } finally {
      await kiln.deps.db.updateTable('namespaces').set({ read_only: 0 }).where('id', '=', group.id).execute();
    }
    expect((await kiln.api('GET', wikis(group.id, '/During-move'), { token: dev.token })).status).toBe(404);
  });
});
