// Browsing a pushed repository (issue 35): trees with the last commit of every entry (checked
// against `git log -1 -- <path>`), files with their last change, highlighting and anchors, raw,
// blame, history, find file, the ref switcher, archives (read back with tar and unzip), README links
// resolved in the repository, and hostile addresses answered 404 without reaching git.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';
import { WebSession } from '../helpers/browser-session.js';
import { BLAME_PER_PAGE } from '../../src/repositories/pages/blame-page.js';

const HOSTILE_NAME = '<img src=x onerror=alert(1)>.txt';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;
let stranger: TestUser;
let work: string;
let repo: string;
let web: WebSession;
let remote: string;
const { ok } = gitCommands(() => work);

function textOf(body: string): string {
  return body.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

async function write(path: string, content: string | Buffer, message: string) {
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), content);
  await ok(['add', '--', path], repo);
  await ok(['commit', '-q', '-m', message], repo);
}

const lastCommit = async (ref: string, path: string) => (await ok(['log', '-1', '--format=%H', ref, '--', path], repo)).trim();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-browse-'));
  kiln = await testKiln();
  const base = await listenOnLoopback(kiln.app);
  owner = await kiln.createUser('owner');
  reporter = await kiln.createUser('reporter');
  stranger = await kiln.createUser('stranger');
  const project = await kiln.createProject(owner, 'shop');
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
  repo = join(work, 'repo');
  await ok(['init', '-q', repo]);
  await write('README.md', '# Shop\n\nSee [the guide](docs/guide.md), [setup](/docs/setup.md#start) and ![logo](img/logo.png).\n', 'Add README');
  await write('docs/guide.md', 'Back to the [readme](../README.md).\n', 'Add the guide');
  await write('docs/setup.md', '# Start\n', 'Add setup');
  await write('img/logo.png', PNG, 'Add the logo');
  await write('src/app.ts', 'export const a = "<b>bold</b>";\n', 'Add the <script>alert(1)</script> app');
  await write(HOSTILE_NAME, 'x\n', 'Add a file with a hostile name');
  await ok(['checkout', '-q', '-b', 'feature/x'], repo);
  await write('src/feature.ts', 'export const f = 1;\n', 'Add the feature');
  await write('docs/guide.md', 'The guide, changed on the branch: back to the [readme](../README.md).\n', 'Change the guide on the branch');
  await ok(['checkout', '-q', 'main'], repo);
  await write('src/app.ts', 'export const a = 2;\n', 'Change the app on main');
  await ok(['merge', '-q', '--no-ff', '-m', 'Merge feature/x', 'feature/x'], repo);
  for (let index = 0; index < 45; index += 1) await write('log.txt', `${index}\n`, `Log entry ${index}`);
  await ok(['tag', 'v1.0'], repo);
  await ok(['tag', '-a', 'v1.1', '-m', 'Release 1.1'], repo);
  remote = `${base.replace('http://', `http://owner:${owner.token}@`)}/owner/shop.git`;
  await ok(['push', '-q', remote, 'main', 'feature/x', '--tags'], repo);
  web = new WebSession(kiln);
  await web.signIn(owner.username, owner.password);
});
afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

function lastCommitsOf(body: string): Map<string, string> {
  return new Map([...body.matchAll(/data-entry="([^"]*)" data-last-commit="([0-9a-f]{40})"/g)].map((match) => [textOf(match[1]), match[2]]));
}

/** The follow-up request a tree page makes for its "last commit" column (none when the page has them). */
const lastCommitsRequest = (body: string) => /hx-get="([^"]*\?last_commits=[0-9a-f]{40})" hx-trigger="load"/.exec(body)?.[1].replace(/&amp;/g, '&') ?? null;

/** The last commit of every entry a tree page shows: in the page, or in its follow-up fragment. */
async function shownLastCommits(path: string): Promise<Map<string, string>> {
  const response = await web.get(path);
  expect(response.statusCode).toBe(200);
  const followUp = lastCommitsRequest(response.body);
  if (!followUp) return lastCommitsOf(response.body);
  const fragment = await web.get(followUp);
  expect(fragment.statusCode).toBe(200);
  return lastCommitsOf(fragment.body);
}

describe('GET /:project/-/tree/:ref/:path', () => {
  it('names, for every entry of the root, the commit `git log -1 -- <path>` names', async () => {
    const found = await shownLastCommits('/owner/shop/-/tree/main');
    const entries = (await ok(['ls-tree', '--name-only', 'main'], repo)).trim().split('\n').map((name) => name.replace(/^"|"$/g, ''));
    expect(found.size).toBe(entries.length);
    for (const [path, id] of found) expect(id, path).toBe(await lastCommit('main', path));
  });

  it('does the same in a folder, and at a branch with a slash in its name', async () => {
    for (const [ref, folder] of [['main', 'docs'], ['main', 'src'], ['feature/x', 'src'], ['feature/x', 'docs']]) {
      const found = await shownLastCommits(`/owner/shop/-/tree/${ref}/${folder}`);
      expect(found.size).toBeGreaterThan(0);
      for (const [path, id] of found) expect(id, `${ref}:${path}`).toBe(await lastCommit(ref, path));
    }
  });

  it('answers a folder never walked at once, its "last commit" column from a follow-up request, and in the page once kept', async () => {
    const address = '/owner/shop/-/tree/feature/x/img';
    const first = await web.get(address);
    expect(first.statusCode).toBe(200);
    // Every entry is listed at once; the column waits for the walk, and a reload (no JavaScript) shows it.
    expect(first.body).toContain('data-entry="img/logo.png"');
    expect(lastCommitsOf(first.body).size).toBe(0);
    expect(first.body).toContain(`<a href="${address}">Reload the page</a>`);
    // The folder's own last commit is shown at once.
    expect(first.body).toContain(`/owner/shop/-/commit/${await lastCommit('feature/x', 'img')}`);
    const followUp = lastCommitsRequest(first.body);
    expect(followUp).toBe(`${address}?last_commits=${(await ok(['rev-parse', 'feature/x'], repo)).trim()}`);
    const fragment = await web.get(followUp!);
    expect(fragment.body).toMatch(/^<tbody id="tree-entries">/);
    expect(fragment.body).not.toContain('<html');
    expect(Object.fromEntries(lastCommitsOf(fragment.body))).toEqual({ 'img/logo.png': await lastCommit('feature/x', 'img/logo.png') });
    const again = await web.get(address);
    expect(lastCommitsRequest(again.body)).toBeNull();
    expect(Object.fromEntries(lastCommitsOf(again.body))).toEqual({ 'img/logo.png': await lastCommit('feature/x', 'img/logo.png') });
    // The fragment names a commit of the repository: anything else is 404.
    for (const bad of ['main', '0'.repeat(40), '--output=x']) expect((await web.get(`${address}?last_commits=${encodeURIComponent(bad)}`)).statusCode).toBe(404);
  });

  it('escapes a hostile file name and renders the README with its links resolved in the repository', async () => {
    const body = (await web.get('/owner/shop/-/tree/main')).body;
    expect(body).not.toContain('<img src=x');
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;.txt');
    expect(body).toContain('href="/owner/shop/-/blob/main/docs/guide.md"');
    expect(body).toContain('href="/owner/shop/-/blob/main/docs/setup.md#start"');
    expect(body).toContain('src="/owner/shop/-/raw/main/img/logo.png"');
  });

  it('offers the ref switcher, find file, history and downloads', async () => {
    const body = (await web.get('/owner/shop/-/tree/main/src')).body;
    expect(body).toContain('id="ref-switcher"');
    expect(body).toContain('href="/owner/shop/-/refs/switch?ref=feature%2Fx&amp;destination=tree&amp;path=src"');
    expect(body).toContain('href="/owner/shop/-/find_file/main"');
    expect(body).toContain('href="/owner/shop/-/commits/main/src"');
    expect(body).toContain('href="/owner/shop/-/archive/main/shop-main.zip"');
    expect(body).toMatch(/data-permalink="\/owner\/shop\/-\/tree\/[0-9a-f]{40}\/src"/);
  });

  it('shows a file given a tree address, and answers 404 for a missing folder', async () => {
    const response = await web.get('/owner/shop/-/tree/main/src/app.ts');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/owner/shop/-/blob/main/src/app.ts');
    expect((await web.get('/owner/shop/-/tree/main/nope')).statusCode).toBe(404);
  });

  it('the project overview resolves the README links in the repository too', async () => {
    const body = (await web.get('/owner/shop')).body;
    expect(body).toContain('href="/owner/shop/-/blob/main/docs/guide.md"');
    expect(body).toContain('src="/owner/shop/-/raw/main/img/logo.png"');
  });
});

describe('GET /:project/-/blob/:ref/:path', () => {
  it('names the commit that last changed the file, not the branch head', async () => {
    const response = await web.get('/owner/shop/-/blob/main/src/app.ts');
    expect(response.statusCode).toBe(200);
    const last = await lastCommit('main', 'src/app.ts');
    expect(last).not.toBe((await ok(['rev-parse', 'main'], repo)).trim());
    expect(response.body).toContain(`<li data-commit="${last}">`);
  });

  it('numbers and anchors the lines and highlights them', async () => {
    const body = (await web.get('/owner/shop/-/blob/feature/x/src/app.ts')).body;
    expect(body).toContain('<tr id="L1"><td class="num"><a href="#L1" data-line-number="1">1</a></td>');
    expect(body).toContain('<span class="hljs-keyword">export</span>');
    expect(body).not.toContain('<b>bold</b>');
  });

  it('shows an image through its raw address and resolves a Markdown file’s links from its folder', async () => {
    expect((await web.get('/owner/shop/-/blob/main/img/logo.png')).body).toContain('<img src="/owner/shop/-/raw/main/img/logo.png"');
    const guide = await web.get('/owner/shop/-/blob/main/docs/guide.md');
    expect(guide.body).toContain('href="/owner/shop/-/blob/main/README.md"');
    expect((await web.get('/owner/shop/-/blob/main/docs/guide.md?plain=1')).body).toContain('id="L1"');
  });
});

describe('GET /:project/-/raw/:ref/:path', () => {
  it('answers the bytes as text that no browser runs, images as images, downloads as attachments', async () => {
    const text = await web.get('/owner/shop/-/raw/feature/x/src/app.ts');
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.headers['content-security-policy']).toContain('sandbox');
    expect(text.headers['x-content-type-options']).toBe('nosniff');
    expect(text.body).toBe('export const a = "<b>bold</b>";\n');
    expect((await web.get('/owner/shop/-/raw/main/img/logo.png')).headers['content-type']).toBe('image/png');
    expect((await web.get('/owner/shop/-/raw/main/src/app.ts?inline=false')).headers['content-disposition']).toMatch(/^attachment; filename="app.ts"/);
  });
});

describe('GET /:project/-/blame/:ref/:path', () => {
  it('puts each line beside the commit that last changed it', async () => {
    const response = await web.get('/owner/shop/-/blame/main/log.txt');
    expect(response.statusCode).toBe(200);
    const last = await lastCommit('main', 'log.txt');
    expect(response.body).toContain(`href="/owner/shop/-/commit/${last}"`);
    expect(response.body).toContain('id="L1"');
  });

  it(`shows a long file ${BLAME_PER_PAGE} lines a page, each line beside the commit git blame names, and all of it when asked`, async () => {
    // A branch of its own: a 2,500-line file, then a change of lines 2 and 1,500.
    const lines = Array.from({ length: 2500 }, (_, index) => `line ${index + 1}`);
    await ok(['checkout', '-q', '-b', 'long', 'main'], repo);
    await write('long.txt', `${lines.join('\n')}\n`, 'Add a long file');
    lines[1] = 'line 2, changed';
    lines[1499] = 'line 1500, changed';
    await write('long.txt', `${lines.join('\n')}\n`, 'Change two lines');
    await ok(['checkout', '-q', 'main'], repo);
    await ok(['push', '-q', remote, 'long'], repo);
    const blamed = new Map<number, string>();
    const porcelain = await ok(['blame', '--porcelain', 'long', '--', 'long.txt'], repo);
    for (const match of porcelain.matchAll(/^([0-9a-f]{40}) \d+ (\d+) (\d+)$/gm)) for (let line = 0; line < Number(match[3]); line += 1) blamed.set(Number(match[2]) + line, match[1]);
    /** Line number → commit, as the page shows them (a commit cell spans its run's rows). */
    const shown = (body: string) => {
      const found = new Map<number, string>();
      let commit = '';
      let left = 0;
      for (const row of body.matchAll(/<tr id="L(\d+)"[^>]*>(.*?)<\/tr>/g)) {
        const cell = /<td class="blame-commit" rowspan="(\d+)">.*?\/-\/commit\/([0-9a-f]{40})/.exec(row[2]);
        if (cell) [left, commit] = [Number(cell[1]), cell[2]];
        expect(left, `line ${row[1]} has a commit`).toBeGreaterThan(0);
        found.set(Number(row[1]), commit);
        left -= 1;
      }
      return found;
    };
    const base = '/owner/shop/-/blame/long/long.txt';
    for (const [query, first, last] of [['', 1, 1000], ['?page=2', 1001, 2000], ['?page=3', 2001, 2500], ['?page=4', 1, 1000], ['?page=0', 1, 1000], ['?page=x', 1, 1000], ['?no_pagination=true', 1, 2500]] as const) {
      const response = await web.get(`${base}${query}`);
      expect(response.statusCode).toBe(200);
      const found = shown(response.body);
      expect([...found.keys()], query).toEqual(Array.from({ length: last - first + 1 }, (_, index) => first + index));
      for (const [line, commit] of found) expect(commit, `line ${line}`).toBe(blamed.get(line));
      const paged = query !== '?no_pagination=true';
      expect(response.body.includes(`data-lines-per-page="${BLAME_PER_PAGE}"`), query).toBe(paged);
      expect(response.body.includes(`href="${base}?no_pagination=true"`), query).toBe(paged);
    }
    const second = (await web.get(`${base}?page=2`)).body;
    expect(second).toContain(`href="${base}?page=1" rel="prev"`);
    expect(second).toContain(`href="${base}?page=3" rel="next"`);
    expect(new Set(shown(second).values()).size).toBe(2);
  });

  it('sends the lines past a page\'s first chunk plain, named, and swaps in each chunk\'s highlighted lines when it is asked for', async () => {
    // A file of its own: a file viewed before has its whole highlighting kept, and is shown all highlighted.
    await ok(['checkout', '-q', '-b', 'longer', 'main'], repo);
    await write('long.txt', `${Array.from({ length: 2500 }, (_, index) => `line ${index + 1}`).join('\n')}\n\n`, 'Add a long file, one line longer');
    await ok(['checkout', '-q', 'main'], repo);
    await ok(['push', '-q', remote, 'longer'], repo);
    const base = '/owner/shop/-/blame/longer/long.txt';
    const commit = (await ok(['rev-parse', 'longer'], repo)).trim();
    const body = (await web.get(`${base}?page=2`)).body;
    // Page 2's first chunk (lines 1001-1100) comes highlighted with it; line 1101 starts the next chunk, plain and named.
    expect(body).not.toContain('id="LC1100"');
    // Each plain chunk is a section of its own that asks for its lines when it comes into view; the run of
    // lines crossing into it shows its commit again there.
    expect(body).toContain(`</tbody><tbody hx-get="/owner/shop/-/blame/${commit}/long.txt?chunk=11" hx-trigger="intersect once" hx-swap="none"><tr id="L1101" class="blame-start"><td class="blame-commit" rowspan="100">`);
    expect(body).toContain('<td class="line"><span id="LC1101">line 1101</span></td>');
    expect(body).toContain('<td class="line"><span id="LC1102">line 1102</span></td>');
    const chunk = await web.get(`/owner/shop/-/blame/${commit}/long.txt?chunk=11`);
    // Asked for again, the same lines, now from the whole file's kept highlighting.
    expect((await web.get(`/owner/shop/-/blame/${commit}/long.txt?chunk=11`)).body).toBe(chunk.body);
    expect(chunk.statusCode).toBe(200);
    const swapped = [...chunk.body.matchAll(/<span id="LC(\d+)" hx-swap-oob="true">(.*?)<\/span>/g)];
    expect(swapped.map((match) => Number(match[1]))).toEqual(Array.from({ length: 100 }, (_, index) => 1101 + index));
    expect(swapped[0][2]).toBe('line 1101');
    for (const bad of ['0', '26', '-1', 'x', '1e3']) expect((await web.get(`/owner/shop/-/blame/${commit}/long.txt?chunk=${bad}`)).statusCode, bad).toBe(404);
  });
});

describe('GET /:project/-/commits/:ref/:path', () => {
  it('lists 40 commits a page, newest first, with a link to older ones, escaping messages', async () => {
    const first = await web.get('/owner/shop/-/commits/main');
    expect(first.statusCode).toBe(200);
    expect([...first.body.matchAll(/<li data-commit=/g)]).toHaveLength(40);
    expect(first.body).toContain('href="/owner/shop/-/commits/main?page=2" rel="next"');
    const second = await web.get('/owner/shop/-/commits/main?page=2');
    expect(textOf(second.body)).toContain('Add the <script>alert(1)</script> app');
    expect(second.body).not.toContain('<script>alert(1)');
  });

  it('follows one path', async () => {
    const body = (await web.get('/owner/shop/-/commits/main/docs/guide.md')).body;
    const expected = (await ok(['log', '--format=%H', 'main', '--', 'docs/guide.md'], repo)).trim().split('\n');
    expect([...body.matchAll(/<li data-commit="([0-9a-f]{40})"/g)].map((match) => match[1])).toEqual(expected);
  });
});

describe('GET /:project/-/find_file/:ref', () => {
  it('lists the files matching what was typed, and answers htmx with the list alone', async () => {
    const page = await web.get('/owner/shop/-/find_file/main?q=gde');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="/owner/shop/-/blob/main/docs/guide.md"');
    expect(page.body).not.toContain('href="/owner/shop/-/blob/main/src/app.ts"');
    const list = await web.get('/owner/shop/-/files/main?q=app');
    expect(list.body.startsWith('<ul class="file-matches">')).toBe(true);
    expect(list.body).toContain('src/app.ts');
  });
});

describe('GET /:project/-/refs and /-/refs/switch', () => {
  it('switches to the same file at another ref, or to its root when the file is not there', async () => {
    const same = await web.get('/owner/shop/-/refs/switch?ref=feature%2Fx&destination=blob&path=src%2Fapp.ts');
    expect(same.headers.location).toBe('/owner/shop/-/blob/feature/x/src/app.ts');
    const gone = await web.get('/owner/shop/-/refs/switch?ref=v1.0&destination=blob&path=src%2Fnope.ts');
    expect(gone.headers.location).toBe('/owner/shop/-/tree/v1.0');
    expect((await web.get('/owner/shop/-/refs/switch?ref=nope&destination=tree')).statusCode).toBe(404);
  });

  it('answers a search with the matching branches and tags', async () => {
    const body = (await web.get('/owner/shop/-/refs?ref=v1&destination=tree')).body;
    expect(body).toContain('>v1.1</a>');
    expect(body).not.toContain('>main</a>');
  });
});

describe('GET /:project/-/archive/:ref/:file', () => {
  it('streams a tar.gz and a zip of the ref that tar and unzip read', async () => {
    for (const [format, list] of [['tar.gz', ['tar', 'tzf']], ['zip', ['unzip', '-Z1']]] as const) {
      const response = await web.get(`/owner/shop/-/archive/feature/x/shop-feature-x.${format}`);
      expect(response.statusCode, format).toBe(200);
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="shop-feature-x-[0-9a-f]{40}\./);
      const file = join(work, `archive.${format}`);
      writeFileSync(file, response.rawPayload);
      const names = execFileSync(list[0], [list[1], file], { encoding: 'utf8' }).split('\n').map((name) => name.replace(/^[^/]+\//, ''));
      expect(names).toContain('src/feature.ts');
      expect(names).toContain('docs/guide.md');
    }
  });

  it('limits an archive to a folder with ?path=', async () => {
    const response = await web.get('/owner/shop/-/archive/main/shop-main.tar.gz?path=docs');
    const file = join(work, 'docs.tar.gz');
    writeFileSync(file, response.rawPayload);
    const names = execFileSync('tar', ['tzf', file], { encoding: 'utf8' }).split('\n').filter((name) => name !== '' && !name.endsWith('/'));
    expect(names.every((name) => name.includes('/docs/'))).toBe(true);
  });
});

describe('the repository pages under hostile addresses', () => {
  it.each([
    '/owner/shop/-/tree/main/../../etc',
    '/owner/shop/-/tree/main/%2e%2e/x',
    '/owner/shop/-/blob/main/src%00/app.ts',
    '/owner/shop/-/tree/--upload-pack=touch%20pwned',
    '/owner/shop/-/blob/--output=x/app.ts',
    `/owner/shop/-/blob/main/${'a'.repeat(5000)}`.slice(0, 5030),
    `/owner/shop/-/tree/${'b'.repeat(5000)}`.slice(0, 5030),
    '/owner/shop/-/commits/--all',
    '/owner/shop/-/blame/main/--help',
    '/owner/shop/-/raw/HEAD~1:README.md',
    '/owner/shop/-/refs/switch?ref=--upload-pack=evil&destination=tree',
    '/owner/shop/-/archive/--remote=x/shop.zip',
    '/owner/shop/-/archive/main/shop.exe',
    '/owner/shop/-/compare/--output=x...main',
    '/owner/shop/-/find_file/main%0a--all',
  ])('%.80s answers 400 or 404', async (url) => {
    const response = await web.get(url);
    expect([400, 404]).toContain(response.statusCode);
  });

  it('a page number past the history is an empty page, not an error', async () => {
    expect((await web.get('/owner/shop/-/commits/main?page=-5')).statusCode).toBe(200);
    expect((await web.get('/owner/shop/-/commits/main?page=999999999')).statusCode).toBe(200);
  });
});

describe('who may browse', () => {
  it('a reporter browses; an outsider gets 404 everywhere', async () => {
    const asReporter = new WebSession(kiln);
    await asReporter.signIn(reporter.username, reporter.password);
    const asStranger = new WebSession(kiln);
    await asStranger.signIn(stranger.username, stranger.password);
    for (const url of ['/owner/shop/-/tree/main', '/owner/shop/-/blob/main/README.md', '/owner/shop/-/raw/main/README.md', '/owner/shop/-/blame/main/README.md', '/owner/shop/-/commits/main', '/owner/shop/-/find_file/main', '/owner/shop/-/archive/main/shop-main.zip']) {
      expect((await asReporter.get(url)).statusCode, url).toBe(200);
      expect((await asStranger.get(url)).statusCode, url).toBe(404);
    }
  });
});

describe('GET /:project/-/branches', () => {
  it('lists the branches with their place against the default branch, and filters them', async () => {
    const body = (await web.get('/owner/shop/-/branches')).body;
    expect(body).toContain('data-branch="main"');
    expect(body).toMatch(/data-branch="feature\/x"[\s\S]*?<span>\d+ behind<\/span><span>0 ahead<\/span>/);
    const filtered = (await web.get('/owner/shop/-/branches?search=feat')).body;
    expect(filtered).toContain('data-branch="feature/x"');
    expect(filtered).not.toContain('data-branch="main"');
  });

  it('POST /-/branches/new creates a branch and says why it cannot', async () => {
    const created = await web.post('/owner/shop/-/branches/new', { branch_name: 'topic', ref: 'v1.0' }, { csrfFrom: '/owner/shop/-/branches/new' });
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toBe('/owner/shop/-/tree/topic');
    const refused = await web.post('/owner/shop/-/branches/new', { branch_name: 'bad..name', ref: 'main' }, { csrfFrom: '/owner/shop/-/branches/new' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Branch name is invalid');
  });

  it('POST /-/branches/delete deletes a branch, and refuses the default branch with a push’s message', async () => {
    const deleted = await web.post('/owner/shop/-/branches/delete', { name: 'topic' }, { csrfFrom: '/owner/shop/-/branches' });
    expect(deleted.statusCode).toBe(303);
    expect((await web.get('/owner/shop/-/branches')).body).not.toContain('data-branch="topic"');
    const refused = await web.post('/owner/shop/-/branches/delete', { name: 'main' }, { csrfFrom: '/owner/shop/-/branches' });
    expect(refused.statusCode).toBe(303);
    expect((await web.get('/owner/shop/-/branches')).body).toContain('The default branch of a project cannot be deleted.');
  });

  it('as a reporter offers no form and refuses the posts', async () => {
    const asReporter = new WebSession(kiln);
    await asReporter.signIn(reporter.username, reporter.password);
    expect((await asReporter.get('/owner/shop/-/branches')).body).not.toContain('New branch');
    expect((await asReporter.get('/owner/shop/-/branches/new')).statusCode).toBe(403);
    expect((await asReporter.post('/owner/shop/-/branches/delete', { name: 'feature/x' }, { csrfFrom: '/owner/shop/-/branches' })).statusCode).toBe(403);
  });
});

describe('GET /:project/-/tags and /-/graphs/:ref', () => {
  it('lists the tags with their messages, and creates and deletes one', async () => {
    const body = (await web.get('/owner/shop/-/tags')).body;
    expect(body).toContain('data-tag="v1.1"');
    expect(body).toContain('Release 1.1');
    expect((await web.post('/owner/shop/-/tags/new', { tag_name: 'v2', ref: 'main', message: 'Two <b>big</b>' }, { csrfFrom: '/owner/shop/-/tags/new' })).statusCode).toBe(303);
    const after = (await web.get('/owner/shop/-/tags')).body;
    expect(after).toContain('Two &lt;b&gt;big&lt;/b&gt;');
    expect((await web.post('/owner/shop/-/tags/delete', { name: 'v2' }, { csrfFrom: '/owner/shop/-/tags' })).statusCode).toBe(303);
    expect((await web.get('/owner/shop/-/tags')).body).not.toContain('data-tag="v2"');
  });

  it("shows a tag's release notes as Markdown, linked to the release, and none on a tag without a release", async () => {
    const project = await kiln.api('GET', `/projects/${encodeURIComponent('owner/shop')}`, { token: owner.token });
    const made = await kiln.api('POST', `/projects/${project.body.id}/releases`, { token: owner.token, body: { tag_name: 'v1.1', description: 'Fixes **everything** <script>alert(1)</script>' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const body = (await web.get('/owner/shop/-/tags')).body;
    const tagItem = (name: string) => body.slice(body.indexOf(`data-tag="${name}"`), body.indexOf('</li>', body.indexOf(`data-tag="${name}"`)));
    expect(tagItem('v1.1')).toContain('<strong>everything</strong>');
    expect(tagItem('v1.1')).toContain('href="/owner/shop/-/releases/v1.1"');
    expect(tagItem('v1.1')).not.toContain('<script>');
    expect(tagItem('v1.0')).not.toContain('release-notes');
  });

  it('draws the contributors as SVG bars', async () => {
    const response = await web.get('/owner/shop/-/graphs/main');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<figure class="chart" id="contributors-chart">');
    expect(response.body).toMatch(/<title>Test: \d+<\/title>/);
  });
});
