// The repository pages (issue 16): a commit with its message, author, parents and diff; trees with
// links; files escaped, Markdown rendered; comparisons; all for those who may download the code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: any;
let first: any;
let second: any;

async function commit(message: string, branch: string, actions: unknown[], startBranch?: string) {
  const response = await kiln.api('POST', `/projects/${project.id}/repository/commits`, { token: owner.token, body: { branch, commit_message: message, actions, ...(startBranch ? { start_branch: startBranch } : {}) } });
  expect(response.status).toBe(201);
  return response.body;
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'shop');
  await kiln.addMember(owner, 'projects', project.id, guest, 10);
  first = await commit('Add the <b>docs</b>', 'main', [
    { action: 'create', file_path: 'README.md', content: '# Shop\n\n<script>alert(1)</script> [x](javascript:alert(1))\n' },
    { action: 'create', file_path: 'src/app.ts', content: 'const a = "<img src=x onerror=alert(1)>";\n' },
  ]);
  second = await commit('Change the app', 'feature/x', [{ action: 'update', file_path: 'src/app.ts', content: 'const a = 2;\n' }], 'main');
});
afterAll(() => kiln.close());

/** The page's text as a reader sees it: tags removed, entities decoded. */
function textOf(body: string): string {
  return body.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('GET /:project/-/commit/:sha', () => {
  it('as the owner shows the message, author, parent and the diff as escaped text', async () => {
    const response = await (await signedIn(owner)).get(`/owner/shop/-/commit/${second.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Change the app');
    expect(response.body).toContain(`href="/owner/shop/-/commit/${first.id}"`);
    expect(response.body).toContain('data-path="src/app.ts"');
    expect(textOf(response.body)).toContain('+const a = 2;');
    expect(textOf(response.body)).toContain('-const a = "<img src=x onerror=alert(1)>";');
    expect(response.body).not.toContain('<img src=x');
  });

  it('as the owner escapes the message of the root commit and says it has no parents', async () => {
    const body = (await (await signedIn(owner)).get(`/owner/shop/-/commit/${first.id}`)).body;
    expect(body).toContain('Add the &lt;b&gt;docs&lt;/b&gt;');
    expect(body).toContain('No parents');
  });

  it('answers the styled 404 for an unknown sha', async () => {
    const response = await (await signedIn(owner)).get(`/owner/shop/-/commit/${'0'.repeat(40)}`);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('as a guest of a private project (no download_code) answers 403', async () => {
    const response = await (await signedIn(guest)).get(`/owner/shop/-/commit/${first.id}`);
    expect(response.statusCode).toBe(403);
  });

  it('as an outsider answers 404', async () => {
    expect((await (await signedIn(stranger)).get(`/owner/shop/-/commit/${first.id}`)).statusCode).toBe(404);
  });
});

describe('GET /:project/-/tree/:ref/:path', () => {
  it('lists the root with folders first, each linked', async () => {
    const body = (await (await signedIn(owner)).get('/owner/shop/-/tree/main')).body;
    expect(body.indexOf('data-entry="src"')).toBeLessThan(body.indexOf('data-entry="README.md"'));
    expect(body).toContain('href="/owner/shop/-/tree/main/src"');
    expect(body).toContain('href="/owner/shop/-/blob/main/README.md"');
  });

  it('resolves a ref with a slash and lists a subdirectory', async () => {
    const response = await (await signedIn(owner)).get('/owner/shop/-/tree/feature/x/src');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('href="/owner/shop/-/blob/feature/x/src/app.ts"');
  });

  it('of an empty repository at the default branch says it is empty (the sidebar links it)', async () => {
    const web = await signedIn(owner);
    await kiln.createProject(owner, 'blank');
    const response = await web.get('/owner/blank/-/tree/main');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('id="empty-repository"');
    expect((await web.get('/owner/blank/-/tree/other')).statusCode).toBe(404);
  });

  it('is linked from the project sidebar as Repository, the milestones as Milestones', async () => {
    const body = (await (await signedIn(owner)).get('/owner/shop')).body;
    expect(body).toContain('href="/owner/shop/-/tree/main">Repository</a>');
    expect(body).toContain('href="/owner/shop/-/milestones">Milestones</a>');
  });

  it('answers 404 for an unknown ref or path', async () => {
    const web = await signedIn(owner);
    expect((await web.get('/owner/shop/-/tree/nope')).statusCode).toBe(404);
    expect((await web.get('/owner/shop/-/tree/main/missing')).statusCode).toBe(404);
    expect((await web.get('/owner/shop/-/tree/main/../..')).statusCode).toBe(404);
  });
});

describe('GET /:project/-/blob/:ref/:path', () => {
  it('shows a file escaped', async () => {
    const response = await (await signedIn(owner)).get('/owner/shop/-/blob/main/src/app.ts');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(response.body).not.toContain('<img src=x');
  });

  it('renders a Markdown file, its script and javascript: link inert', async () => {
    const body = (await (await signedIn(owner)).get('/owner/shop/-/blob/main/README.md')).body;
    expect(body).toMatch(/<h1[^>]*>Shop<\/h1>/);
    expect(body).not.toContain('<script>alert');
    expect(body).not.toContain('href="javascript:');
  });

  it('answers 404 for a missing file', async () => {
    expect((await (await signedIn(owner)).get('/owner/shop/-/blob/main/nope.txt')).statusCode).toBe(404);
  });
});

describe('GET /:project/-/compare/:from...:to', () => {
  it('lists the commits of to not in from and the diff', async () => {
    const response = await (await signedIn(owner)).get('/owner/shop/-/compare/main...feature/x');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`data-commit="${second.id}"`);
    expect(response.body).not.toContain(`data-commit="${first.id}"`);
    expect(textOf(response.body)).toContain('+const a = 2;');
  });

  it('says when both sides are the same revision', async () => {
    const body = (await (await signedIn(owner)).get('/owner/shop/-/compare/main...main')).body;
    expect(body).toContain('nothing to compare');
  });

  it('answers 404 for an unknown ref', async () => {
    expect((await (await signedIn(owner)).get('/owner/shop/-/compare/main...nope')).statusCode).toBe(404);
  });
});

describe('commit statuses on the commit list and the commit page', () => {
  const status = (sha: string, body: Record<string, unknown>) => kiln.api('POST', `/projects/${project.id}/statuses/${sha}`, { token: owner.token, body });

  it('shows each commit’s latest pipeline, linked to its status’s target_url; a commit without one shows none', async () => {
    expect((await status(second.id, { state: 'running', name: 'ci', ref: 'feature/x', target_url: 'https://ci.example.com/runs/1' })).status).toBe(201);
    expect((await status(second.id, { state: 'success', name: 'ci', ref: 'feature/x', target_url: 'https://ci.example.com/runs/1' })).status).toBe(201);
    const web = await signedIn(owner);
    const list = (await web.get('/owner/shop/-/commits/feature/x')).body;
    const row = (sha: string) => list.slice(list.indexOf(`data-commit="${sha}"`), list.indexOf('</li>', list.indexOf(`data-commit="${sha}"`)));
    expect(row(second.id)).toContain('data-ci-status="success"');
    expect(row(second.id)).toContain('href="https://ci.example.com/runs/1"');
    expect(textOf(row(second.id))).toMatch(/Pipeline #\d+ passed/);
    expect(row(first.id)).not.toContain('data-ci-status');
    expect((await web.get('/owner/shop/-/compare/main...feature/x')).body).toContain('data-ci-status="success"');
    const commitPage = (await web.get(`/owner/shop/-/commit/${second.id}`)).body;
    expect(commitPage).toContain('data-ci-status="success"');
    expect((await web.get(`/owner/shop/-/commit/${first.id}`)).body).not.toContain('data-ci-status');
  });

  it('shows a status without a target_url unlinked, and a failed one as failed', async () => {
    expect((await status(first.id, { state: 'failed', name: 'lint', ref: 'main' })).status).toBe(201);
    const body = (await (await signedIn(owner)).get(`/owner/shop/-/commit/${first.id}`)).body;
    expect(body).toContain('data-ci-status="failed"');
    expect(body).not.toContain('class="ci-status"');
  });
});
