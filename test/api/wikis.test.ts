// Project wikis (issue 38): /projects/:id/wikis — pages kept as files of the project's wiki
// repository, GitLab's entities, who reads and writes them, wiki_access_level and wiki_enabled, and
// the refusals GitLab answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { gitBytes, readableWiki, wikiHead } from '../../src/repositories/api.js';
import { multipart, TINY_PNG } from '../helpers/multipart.js';

let kiln: TestKiln;
let alice: TestUser;
let dev: TestUser;
let guest: TestUser;
let outsider: TestUser;
let project: any;
let open: any;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  dev = await kiln.createUser('dev');
  guest = await kiln.createUser('guest');
  outsider = await kiln.createUser('outsider');
  project = await kiln.createProject(alice, 'docs');
  open = await kiln.createProject(alice, 'open', { visibility: 'public' });
  await kiln.addMember(alice, 'projects', project.id, dev, ACCESS.developer);
  await kiln.addMember(alice, 'projects', project.id, guest, ACCESS.guest);
});

afterAll(async () => {
  await kiln?.close();
});

const wikis = (id: number, rest = '') => `/projects/${id}/wikis${rest}`;

describe('POST /api/v4/projects/:id/wikis', () => {
  it('as a developer creates the page in the wiki repository, committed as them, and answers the entity', async () => {
    const created = await kiln.api('POST', wikis(project.id), { token: dev.token, body: { title: 'Hello World', content: '# Hi\n\nSee [deploy](deploy).' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ format: 'markdown', slug: 'Hello-World', title: 'Hello World', content: '# Hi\n\nSee [deploy](deploy).', encoding: 'UTF-8', front_matter: {} });
    const repoPath = (await readableWiki(kiln.deps, project.id))!;
    expect(repoPath).toMatch(/@hashed\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.wiki\.git$/);
    const head = await wikiHead(repoPath);
    expect(head.branch).toBe('main');
    const log = (await gitBytes(repoPath, ['log', '-1', '--format=%an|%s', 'HEAD'])).toString().trim();
    expect(log).toBe('User dev|dev created page: Hello-World');
    expect((await gitBytes(repoPath, ['show', 'HEAD:Hello-World.md'])).toString()).toBe('# Hi\n\nSee [deploy](deploy).');
  });

  it('keeps other formats under their extension and directories in the title', async () => {
    const rdoc = await kiln.api('POST', wikis(project.id), { token: alice.token, body: { title: 'guides/Setup', content: '= Setup', format: 'rdoc' } });
    expect(rdoc.body).toMatchObject({ format: 'rdoc', slug: 'guides/Setup', title: 'Setup' });
    const repoPath = (await readableWiki(kiln.deps, project.id))!;
    expect((await gitBytes(repoPath, ['show', 'HEAD:guides/Setup.rdoc'])).toString()).toBe('= Setup');
  });

  it('reads the title from front matter', async () => {
    const created = await kiln.api('POST', wikis(project.id), { token: alice.token, body: { title: 'fm', content: '---\ntitle: Front Title\n---\nBody' } });
    expect(created.body).toMatchObject({ slug: 'fm', title: 'Front Title', front_matter: { title: 'Front Title' } });
  });

  it('refuses a duplicate, a missing or invalid parameter, and a path leaving the wiki', async () => {
    const cases: Array<[Record<string, unknown>, number, unknown]> = [
      [{ title: 'Hello World', content: 'again' }, 400, { message: 'Duplicate page: A page with that title already exists' }],
      [{ content: 'x' }, 400, { error: 'title is missing' }],
      [{ title: 'x' }, 400, { error: 'content is missing' }],
      [{ title: 'x', content: 'y', format: 'html' }, 400, { error: 'format does not have a valid value' }],
      [{ title: '../x', content: 'y' }, 400, { message: { title: ['is invalid'] } }],
      [{ title: ' / ', content: 'y' }, 400, { message: { title: ["can't be blank"] } }],
      [{ title: 'a'.repeat(246), content: 'y' }, 400, { message: { title: ['exceeds the limit of 245 bytes'] } }],
    ];
    for (const [body, status, answer] of cases) {
      const response = await kiln.api('POST', wikis(project.id), { token: alice.token, body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body, JSON.stringify(body)).toEqual(answer);
    }
  });

  it('as a guest answers 403, as a non-member 404', async () => {
    expect((await kiln.api('POST', wikis(project.id), { token: guest.token, body: { title: 'g', content: 'g' } })).status).toBe(403);
    expect((await kiln.api('POST', wikis(project.id), { token: outsider.token, body: { title: 'g', content: 'g' } })).status).toBe(404);
  });
});

describe('GET /api/v4/projects/:id/wikis', () => {
  it('as a guest lists the pages by slug, with content when asked', async () => {
    const list = await kiln.api('GET', wikis(project.id), { token: guest.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { format: 'markdown', slug: 'Hello-World', title: 'Hello World' },
      { format: 'markdown', slug: 'fm', title: 'fm' },
      { format: 'rdoc', slug: 'guides/Setup', title: 'Setup' },
    ]);
    const full = await kiln.api('GET', `${wikis(project.id)}?with_content=true`, { token: guest.token });
    expect(full.body[1]).toEqual({ format: 'markdown', slug: 'fm', title: 'Front Title', content: '---\ntitle: Front Title\n---\nBody', encoding: 'UTF-8', front_matter: { title: 'Front Title' } });
  });

  it('answers an empty list for a wiki nobody wrote to, to anyone of a public project', async () => {
    expect(await kiln.api('GET', wikis(open.id))).toMatchObject({ status: 200, body: [] });
  });
});

describe('GET /api/v4/projects/:id/wikis/:slug', () => {
  it('answers one page by its URL-encoded slug, rendered when asked, with wiki links resolved', async () => {
    const one = await kiln.api('GET', wikis(project.id, '/guides%2FSetup'), { token: guest.token });
    expect(one.body).toMatchObject({ slug: 'guides/Setup', content: '= Setup' });
    const rendered = await kiln.api('GET', wikis(project.id, '/Hello-World?render_html=true'), { token: guest.token });
    expect(rendered.body.content).toContain('<h1');
    expect(rendered.body.content).toContain(`href="/alice/docs/-/wikis/deploy"`);
  });

  it('answers an earlier version by commit id', async () => {
    const repoPath = (await readableWiki(kiln.deps, project.id))!;
    const first = (await gitBytes(repoPath, ['rev-list', '--reverse', 'HEAD'])).toString().split('\n')[0];
    await kiln.api('PUT', wikis(project.id, '/Hello-World'), { token: dev.token, body: { content: 'changed' } });
    const old = await kiln.api('GET', wikis(project.id, `/Hello-World?version=${first}`), { token: guest.token });
    expect(old.body.content).toBe('# Hi\n\nSee [deploy](deploy).');
    expect((await kiln.api('GET', wikis(project.id, '/Hello-World?version=0000000'), { token: guest.token })).status).toBe(404);
  });

  it('answers 404 Wiki Page Not Found for a missing page', async () => {
    expect(await kiln.api('GET', wikis(project.id, '/nope'), { token: guest.token })).toMatchObject({ status: 404, body: { message: '404 Wiki Page Not Found' } });
  });
});

describe('PUT /api/v4/projects/:id/wikis/:slug', () => {
  it('as a developer renames within the directory and changes the format', async () => {
    const moved = await kiln.api('PUT', wikis(project.id, '/guides%2FSetup'), { token: dev.token, body: { title: 'Install', format: 'markdown' } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ slug: 'guides/Install', title: 'Install', format: 'markdown', content: '= Setup' });
    expect((await kiln.api('GET', wikis(project.id, '/guides%2FSetup'), { token: dev.token })).status).toBe(404);
  });

  it('needs one of content, title or format, and refuses a guest', async () => {
    expect(await kiln.api('PUT', wikis(project.id, '/fm'), { token: dev.token, body: {} })).toMatchObject({ status: 400, body: { error: 'content, title, format are missing, at least one parameter must be provided' } });
    expect((await kiln.api('PUT', wikis(project.id, '/fm'), { token: guest.token, body: { content: 'x' } })).status).toBe(403);
  });
});

describe('DELETE /api/v4/projects/:id/wikis/:slug', () => {
  it('as a developer deletes the page (204), then it is gone', async () => {
    expect((await kiln.api('DELETE', wikis(project.id, '/fm'), { token: guest.token })).status).toBe(403);
    expect((await kiln.api('DELETE', wikis(project.id, '/fm'), { token: dev.token })).status).toBe(204);
    expect((await kiln.api('GET', wikis(project.id, '/fm'), { token: dev.token })).status).toBe(404);
    expect((await kiln.api('DELETE', wikis(project.id, '/fm'), { token: dev.token })).status).toBe(404);
  });
});

describe('POST /api/v4/projects/:id/wikis/attachments', () => {
  it('commits the file under uploads/<hex>/ and answers its link', async () => {
    const { payload, contentType } = await multipart({ file: { filename: 'dk.png', data: TINY_PNG, type: 'image/png' } });
    const response = await kiln.app.inject({ method: 'POST', url: `/api/v4${wikis(project.id, '/attachments')}`, headers: { 'private-token': dev.token, 'content-type': contentType }, payload });
    expect(response.statusCode).toBe(201);
    const body = JSON.parse(response.body);
    expect(body).toEqual({ file_name: 'dk.png', file_path: expect.stringMatching(/^uploads\/[0-9a-f]{32}\/dk\.png$/), branch: 'main', link: { url: body.file_path, markdown: `![dk](${body.file_path})` } });
    const repoPath = (await readableWiki(kiln.deps, project.id))!;
    expect((await gitBytes(repoPath, ['show', `HEAD:${body.file_path}`])).equals(TINY_PNG)).toBe(true);
  });
});

describe('wiki_access_level and wiki_enabled', () => {
  it('closes the wiki to everyone when disabled (403), to non-members when private', async () => {
    const pub = await kiln.createProject(alice, 'pubwiki', { visibility: 'public' });
    await kiln.api('POST', wikis(pub.id), { token: alice.token, body: { title: 'home', content: 'hi' } });
    expect((await kiln.api('GET', wikis(pub.id), { token: outsider.token })).status).toBe(200);
    await kiln.api('PUT', `/projects/${pub.id}`, { token: alice.token, body: { wiki_access_level: 'private' } });
    expect((await kiln.api('GET', wikis(pub.id), { token: outsider.token })).status).toBe(403);
    expect((await kiln.api('GET', wikis(pub.id), { token: alice.token })).status).toBe(200);
    await kiln.api('PUT', `/projects/${pub.id}`, { token: alice.token, body: { wiki_enabled: false } });
    expect((await kiln.api('GET', `/projects/${pub.id}`, { token: alice.token })).body).toMatchObject({ wiki_enabled: false, wiki_access_level: 'disabled' });
    expect((await kiln.api('GET', wikis(pub.id), { token: alice.token })).status).toBe(403);
    expect((await kiln.api('POST', wikis(pub.id), { token: alice.token, body: { title: 'x', content: 'y' } })).status).toBe(403);
    await kiln.api('PUT', `/projects/${pub.id}`, { token: alice.token, body: { wiki_enabled: true } });
    expect((await kiln.api('GET', wikis(pub.id), { token: outsider.token })).status).toBe(200);
  });
});
