// Binary files in snippets (issue 38): a file pushed to a snippet's repository that is not UTF-8 text
// (a NUL byte, 0xFF) is taken as GitLab takes it; the raw endpoints (personal and project, API and
// pages) answer its bytes unchanged as application/octet-stream; a change of another file through the
// API or the edit page keeps it byte for byte in the repository; the page shows "Binary file" with a
// download, and the edit form keeps it out of its text areas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';
import { csrfTokenOf, WebSession } from '../helpers/browser-session.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let work: string;
let base: string;
let alice: TestUser;
let bob: TestUser;
let guest: TestUser;
let project: any;
let clones = 0;
const { run: git, ok } = gitCommands(() => work);
/** PNG-like bytes: the PNG signature, NUL bytes and 0xFF — neither UTF-8 text nor NUL-free. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0x0a]);

const url = (path: string, user: TestUser) => base.replace('http://', `http://${user.username}:${user.token}@`) + `/${path}.git`;

async function clone(path: string, user: TestUser): Promise<string> {
  const dir = join(work, `clone-${(clones += 1)}`);
  await ok(['clone', '-q', url(path, user), dir]);
  return dir;
}

/** Push `image.png` (and `others` files) to the snippet's repository; its files then. */
async function pushBinary(path: string, user: TestUser, others: 'keep' | 'remove'): Promise<string> {
  const dir = await clone(path, user);
  if (others === 'remove') await ok(['rm', '-q', '-r', '.'], dir);
  writeFileSync(join(dir, 'image.png'), PNG);
  await ok(['add', '-A'], dir);
  await ok(['commit', '-q', '-m', 'add an image'], dir);
  const pushed = await git(['push', '-q', 'origin', 'main'], dir);
  expect(pushed.code, pushed.stderr).toBe(0);
  return dir;
}

async function expectBytes(requestUrl: string, token?: string) {
  const response = await kiln.request('GET', requestUrl, token ? { token } : {});
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/octet-stream');
  expect(response.rawPayload.equals(PNG)).toBe(true);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-snippet-binary-'));
  kiln = await testKiln({ storages: [{ name: 'default', path: join(work, 'storage'), weight: 100 }] });
  base = await listenOnLoopback(kiln.app);
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  guest = await kiln.createUser('guest');
  project = await kiln.createProject(alice, 'app', { visibility: 'private' });
  await kiln.addMember(alice, 'projects', project.id, guest, ACCESS.guest);
}, 120_000);
afterAll(async () => {
  await kiln?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('binary files of personal snippets', () => {
  it('takes a pushed binary file, answers its bytes raw, and keeps it identical through changes of other files', async () => {
    const files = [{ file_path: 'hello.py', content: 'print("hello")\n' }, { file_path: 'notes.txt', content: 'notes\n' }];
    const snippet = (await kiln.api('POST', '/snippets', { token: alice.token, body: { title: 'Pictures', visibility: 'public', files } })).body;
    await pushBinary(`snippets/${snippet.id}`, alice, 'keep');

    const shown = (await kiln.api('GET', `/snippets/${snippet.id}`)).body;
    expect(shown.file_name).toBe('hello.py');
    expect(shown.files).toEqual([
      { path: 'hello.py', raw_url: `${snippet.web_url}/raw/main/hello.py` },
      { path: 'notes.txt', raw_url: `${snippet.web_url}/raw/main/notes.txt` },
      { path: 'image.png', raw_url: `${snippet.web_url}/raw/main/image.png` },
    ]);
    await expectBytes(`/api/v4/snippets/${snippet.id}/files/main/image.png/raw`);
    await expectBytes(shown.files[2].raw_url.slice(kiln.config.baseUrl.length));
    const text = await kiln.request('GET', `/api/v4/snippets/${snippet.id}/raw`);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.body).toBe('print("hello")\n');

    // A change of another file through the API is a commit that keeps the image byte for byte.
    const put = await kiln.api('PUT', `/snippets/${snippet.id}`, { token: alice.token, body: { files: [{ action: 'update', file_path: 'hello.py', content: 'print("changed")\n' }] } });
    expect(put.status).toBe(200);
    const after = await clone(`snippets/${snippet.id}`, alice);
    expect(readFileSync(join(after, 'image.png')).equals(PNG)).toBe(true);
    expect(readFileSync(join(after, 'hello.py'), 'utf8')).toBe('print("changed")\n');
    expect((await ok(['log', '--format=%s'], after)).trim().split('\n')).toEqual(['Update snippet', 'add an image', 'Create snippet']);
    // A move without content keeps it binary under its new name.
    await kiln.api('PUT', `/snippets/${snippet.id}`, { token: alice.token, body: { files: [{ action: 'move', previous_path: 'image.png', file_path: 'img/logo.png' }] } });
    await expectBytes(`/api/v4/snippets/${snippet.id}/files/main/img%2Flogo.png/raw`);
    const moved = await clone(`snippets/${snippet.id}`, alice);
    expect(readFileSync(join(moved, 'img/logo.png')).equals(PNG)).toBe(true);
  }, 120_000);

  it('shows "Binary file" with a download on the page; the edit form keeps it out of the text areas and unchanged on save', async () => {
    const snippet = (await kiln.api('POST', '/snippets', { token: alice.token, body: { title: 'Page', visibility: 'public', files: [{ file_path: 'a.txt', content: 'first\n' }] } })).body;
    await pushBinary(`snippets/${snippet.id}`, alice, 'keep');
    const path = `/-/snippets/${snippet.id}`;
    const page = await kiln.request('GET', path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Binary file');
    expect(page.body).toContain(`href="${path}/raw/main/image.png" download="image.png"`);
    expect(page.body).not.toContain('\uFFFD');

    const web = new WebSession(kiln);
    await web.signIn(alice.username, alice.password);
    const form = await web.get(`${path}/edit`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<li>image.png</li>');
    expect(form.body).not.toContain('value="image.png"');
    expect(form.body.match(/name="content\[\]"/g)).toHaveLength(2);
    const token = csrfTokenOf(form.body);
    const saved = await kiln.app.inject({
      method: 'POST', url: path, headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams([['authenticity_token', token], ['title', 'Page'], ['visibility', 'public'], ['file_path[]', 'a.txt'], ['content[]', 'second\n'], ['file_path[]', ''], ['content[]', '']]).toString(),
    });
    expect(saved.statusCode).toBe(303);
    expect((await kiln.api('GET', `/snippets/${snippet.id}`)).body.files.map((file: any) => file.path)).toEqual(['a.txt', 'image.png']);
    const after = await clone(`snippets/${snippet.id}`, alice);
    expect(readFileSync(join(after, 'a.txt'), 'utf8')).toBe('second\n');
    expect(readFileSync(join(after, 'image.png')).equals(PNG)).toBe(true);
  }, 120_000);
});

describe('binary files of project snippets', () => {
  it('answers a binary first file raw to readers only', async () => {
    const snippet = (await kiln.api('POST', `/projects/${project.id}/snippets`, { token: alice.token, body: { title: 'Logo', visibility: 'private', files: [{ file_path: 'x.txt', content: 'x' }] } })).body;
    await pushBinary(`alice/app/snippets/${snippet.id}`, alice, 'remove');
    await expectBytes(`/api/v4/projects/${project.id}/snippets/${snippet.id}/raw`, guest.token);
    await expectBytes(`/api/v4/projects/${project.id}/snippets/${snippet.id}/files/main/image.png/raw`, guest.token);
    expect((await kiln.api('GET', `/projects/${project.id}/snippets/${snippet.id}`, { token: guest.token })).body.file_name).toBe('image.png');
    expect((await kiln.request('GET', `/api/v4/projects/${project.id}/snippets/${snippet.id}/raw`, { token: bob.token })).statusCode).toBe(404);
  }, 120_000);
});
