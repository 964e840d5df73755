// The repository pages (issue 35) under hostile repository content and hostile addresses. Content:
// a file named `<img src=x onerror=alert(1)>`, a folder with markup in its name, a branch and a tag
// whose names are markup, commit and tag messages with HTML and file contents with HTML; every
// repository page shows them as text. Addresses: `..`, NUL, very long names and refs that look like
// git options answer 400 or 404 (never a 500), and every git process the pages start is recorded:
// nothing from an address reaches git as an option; a path that looks like one (a file named
// `--output=x.txt`, which exists) reaches git only after `--`.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import type { StartedProcess } from '../helpers/process-starts.js';

const started = vi.hoisted(() => [] as StartedProcess[]);
vi.mock('node:child_process', async (original) => (await import('../helpers/process-starts.js')).recordingChildProcess(await original(), started));
/** The arguments of every git process started since the index `from` of `started`. */
const gitCallsSince = (from: number) => started.slice(from).filter((start) => start.file === 'git').map((start) => start.args);

const IMG = '<img src=x onerror=alert(1)>';
const FOLDER = '<script>alert(1)<';
const BRANCH = '"><svg/onload=alert(2)>';
const TAG = '<b>v1<';
const MESSAGE = `Add <script>alert(3)</script> and ${IMG}`;
const CONTENT = `<script>alert(4)</script>\n<a href="javascript:alert(5)">x</a>\n${IMG}\n`;

let kiln: TestKiln;
let owner: TestUser;
let project: { id: number };
let web: WebSession;
let first: string;

async function commit(branch: string, message: string, actions: unknown[], startBranch?: string): Promise<string> {
  const body = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/repository/commits`, { branch, commit_message: message, actions, ...(startBranch ? { start_branch: startBranch } : {}) });
  return body.id;
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  project = await kiln.createProject(owner, 'shop');
  first = await commit('main', MESSAGE, [
    { action: 'create', file_path: 'README.md', content: `# Shop\n\n${CONTENT}` },
    { action: 'create', file_path: IMG, content: CONTENT },
    { action: 'create', file_path: `${FOLDER}/${IMG}.html`, content: CONTENT },
    { action: 'create', file_path: '--output=x.txt', content: 'not an option\n' },
  ]);
  await commit(BRANCH, `Change on the branch: ${MESSAGE}`, [{ action: 'update', file_path: IMG, content: `${CONTENT}changed\n` }], 'main');
  await kiln.apiAs(owner, 'POST', `/projects/${project.id}/repository/tags`, { tag_name: TAG, ref: 'main', message: `Release ${IMG}` });
  web = new WebSession(kiln);
  await web.signIn(owner.username, owner.password);
});
afterAll(() => kiln?.close());

const e = encodeURIComponent;
const file = (path: string) => path.split('/').map(e).join('/');

function expectInert(body: string) {
  expect(body).not.toMatch(/<script>alert/i);
  expect(body).not.toMatch(/<img[^>]*onerror/i);
  expect(body).not.toMatch(/<svg[^>]*onload/i);
  expect(body).not.toMatch(/href="\s*javascript:/i);
  expect(body).not.toMatch(/<b>v1</);
}

describe('every repository page with markup in names, messages and contents', () => {
  const pages = [
    '/owner/shop',
    '/owner/shop/-/tree/main',
    `/owner/shop/-/tree/main/${file(FOLDER)}`,
    `/owner/shop/-/tree/${file(BRANCH)}`,
    `/owner/shop/-/tree/${file(TAG)}`,
    `/owner/shop/-/blob/main/${file(IMG)}`,
    `/owner/shop/-/blob/${file(BRANCH)}/${file(IMG)}`,
    `/owner/shop/-/blob/main/${file(`${FOLDER}/${IMG}.html`)}`,
    '/owner/shop/-/blob/main/README.md',
    `/owner/shop/-/blame/main/${file(IMG)}`,
    `/owner/shop/-/blame/main/${file(`${FOLDER}/${IMG}.html`)}`,
    '/owner/shop/-/commits/main',
    `/owner/shop/-/commits/${file(BRANCH)}/${file(IMG)}`,
    '/owner/shop/-/commit/FIRST',
    `/owner/shop/-/compare/main...${file(BRANCH)}`,
    `/owner/shop/-/compare?from=${e(BRANCH)}`,
    '/owner/shop/-/branches',
    `/owner/shop/-/branches?search=${e('<svg')}`,
    '/owner/shop/-/tags',
    `/owner/shop/-/branches/new?ref=${e(BRANCH)}`,
    `/owner/shop/-/tags/new?ref=${e(BRANCH)}`,
    `/owner/shop/-/graphs/${file(BRANCH)}`,
    `/owner/shop/-/find_file/${file(BRANCH)}`,
    `/owner/shop/-/find_file/main?q=${e('<img')}`,
    `/owner/shop/-/refs?search=${e('<')}`,
    `/owner/shop/-/edit/${file(BRANCH)}/${file(IMG)}`,
    `/owner/shop/-/new/${file(BRANCH)}/${file(FOLDER)}`,
    `/owner/shop/-/upload/${file(BRANCH)}/${file(FOLDER)}`,
    `/owner/shop/-/new_dir/${file(BRANCH)}/${file(FOLDER)}`,
    '/owner/shop/-/settings/repository',
  ];

  it.each(pages)('%.70s shows them as text', async (path) => {
    // The first commit's id is known once beforeAll ran, after the cases were listed.
    const response = await web.get(path.replace('FIRST', first));
    expect(response.statusCode, path).toBe(200);
    expectInert(response.body);
  });

  it('names the file, the folder, the branch and the message escaped', async () => {
    expect((await web.get('/owner/shop/-/tree/main')).body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect((await web.get('/owner/shop/-/branches')).body).toContain('&quot;&gt;&lt;svg/onload=alert(2)&gt;');
    expect((await web.get('/owner/shop/-/tags')).body).toContain('&lt;b&gt;v1&lt;');
    expect((await web.get(`/owner/shop/-/commit/${first}`)).body).toContain('Add &lt;script&gt;alert(3)&lt;/script&gt;');
  });

  it('answers the raw file as text no browser runs', async () => {
    const response = await web.get(`/owner/shop/-/raw/main/${file(`${FOLDER}/${IMG}.html`)}`);
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^text\/plain/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('hostile addresses', () => {
  const MARKERS = ['upload-pack', 'output=', 'remote=', 'exec=', '--all', '--help', 'HEAD~1', '..', '\0', 'aaaaaaaaaa'];
  const hostile = [
    '/owner/shop/-/tree/main/../../etc',
    '/owner/shop/-/tree/main/%2e%2e/%2e%2e',
    '/owner/shop/-/blob/main/%00README.md',
    '/owner/shop/-/blob/main/README.md%00',
    '/owner/shop/-/raw/main/a%00b',
    `/owner/shop/-/blob/main/${'a'.repeat(4000)}`,
    `/owner/shop/-/tree/${'a'.repeat(4000)}`,
    '/owner/shop/-/tree/--upload-pack=touch%20pwned',
    '/owner/shop/-/blob/--output=x.txt',
    '/owner/shop/-/blame/--exec=id/README.md',
    '/owner/shop/-/commits/--all',
    '/owner/shop/-/commits/main/..',
    '/owner/shop/-/raw/HEAD~1/README.md',
    '/owner/shop/-/graphs/--all',
    '/owner/shop/-/find_file/--all',
    '/owner/shop/-/compare/--output=x...main',
    '/owner/shop/-/compare/main...--upload-pack=x',
    '/owner/shop/-/compare?from=--all&to=main',
    '/owner/shop/-/refs/switch?ref=--upload-pack=x&destination=tree',
    '/owner/shop/-/archive/--remote=x/shop.zip',
    '/owner/shop/-/archive/main/shop.tar.gz?path=--output=x',
    '/owner/shop/-/archive/main/shop.tar.gz?path=../..',
    '/owner/shop/-/commit/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    '/owner/shop/-/edit/main/..%2fREADME.md',
    '/owner/shop/-/new/--all/x',
    `/owner/shop/-/diff_lines/${'0'.repeat(40)}/..%2f..%2fetc?since=1&to=5`,
  ];

  it.each(hostile)('%.70s answers 400 or 404, and no part of it reaches git as an option', async (url) => {
    const before = started.length;
    let response = await web.get(url);
    // The compare form redirects to the comparison's address, which then answers.
    if (response.statusCode === 303 || response.statusCode === 302) response = await web.get(String(response.headers.location));
    expect([400, 404], `${url}: ${response.statusCode}`).toContain(response.statusCode);
    for (const args of gitCallsSince(before)) {
      const end = args.findIndex((arg) => arg === '--' || arg === '--end-of-options');
      const options = end < 0 ? args : args.slice(0, end);
      for (const marker of MARKERS) expect(options.some((arg) => arg.includes(marker)), `git ${args.join(' ')}`).toBe(false);
    }
  });

  it('the switcher sends a path outside the repository to the root of the ref', async () => {
    const response = await web.get('/owner/shop/-/refs/switch?ref=main&destination=blob&path=../../etc/passwd');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/owner/shop/-/tree/main');
  });

  it('a file named like an option is shown, and reaches git only after --', async () => {
    let reached = 0;
    for (const url of ['/owner/shop/-/blob/main/--output=x.txt', '/owner/shop/-/blame/main/--output=x.txt', '/owner/shop/-/commits/main/--output=x.txt', '/owner/shop/-/raw/main/--output=x.txt']) {
      const before = started.length;
      const response = await web.get(url);
      expect(response.statusCode, url).toBe(200);
      if (!url.includes('/commits/')) expect(response.body, url).toContain('not an option');
      for (const args of gitCallsSince(before)) {
        const at = args.findIndex((arg) => arg.includes('--output=x.txt'));
        if (at < 0) continue;
        reached += 1;
        expect(args.slice(0, at).some((arg) => arg === '--' || arg === '--end-of-options'), `git ${args.join(' ')}`).toBe(true);
      }
    }
    // The recording sees Kiln's git processes: the blame and the history name the path to git.
    expect(reached).toBeGreaterThan(0);
  });
});
