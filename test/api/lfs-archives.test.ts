// LFS files in repository archives (GitLab's include_lfs_blobs, default true) — the API's
// /repository/archive and the page's /-/archive/ unpacked with tar and unzip — and the LFS pointer
// check on commits made through the commits and files APIs (the same refusal as a push's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { LFS_OBJECTS_MISSING } from '../../src/repositories/lfs/push-check.js';

let kiln: TestKiln;
let work: string;
let alice: TestUser;
let bob: TestUser;
let project: any;
const content = randomBytes(200 * 1024);
const oid = createHash('sha256').update(content).digest('hex');
const pointer = (id: string, size: number) => `version https://git-lfs.github.com/spec/v1\noid sha256:${id}\nsize ${size}\n`;
const MISSING = 'ab'.repeat(32);

function upload(user: TestUser, path: string, bytes: Buffer) {
  const id = createHash('sha256').update(bytes).digest('hex');
  const authorization = `Basic ${Buffer.from(`${user.username}:${user.token}`).toString('base64')}`;
  return kiln.app.inject({ method: 'PUT', url: `/${path}.git/gitlab-lfs/objects/${id}/${bytes.length}`, headers: { authorization, 'content-type': 'application/octet-stream' }, payload: bytes });
}

function commit(actions: unknown[], branch = 'main') {
  return kiln.api('POST', `/projects/${project.id}/repository/commits`, { token: alice.token, body: { branch, commit_message: 'lfs files', actions } });
}

/** Unpacks `archive` with `tool` and answers the directory git archive's prefix made. */
function unpack(archive: Buffer, name: string, tool: (file: string, into: string) => string[]): string {
  const into = mkdtempSync(join(work, 'unpacked-'));
  const file = join(into, name);
  writeFileSync(file, archive);
  const [command, ...args] = tool(file, into);
  execFileSync(command, args);
  const top = execFileSync('ls', [into]).toString().split('\n').filter((entry) => entry && entry !== name);
  expect(top).toHaveLength(1);
  return join(into, top[0]);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-lfs-archives-'));
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  project = await kiln.createProject(alice, 'app');
  await kiln.createProject(bob, 'other');
  expect((await upload(alice, 'alice/app', content)).statusCode).toBe(200);
}, 120_000);
afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the LFS check of API commits', () => {
  it('refuses a commit (commits API, files API) whose pointer names an object the project lacks, with the push\'s message', async () => {
    const refused = await commit([{ action: 'create', file_path: 'lost.bin', content: pointer(MISSING, 5) }]);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: LFS_OBJECTS_MISSING });
    // Another project's object is not this project's either.
    const theirs = randomBytes(64);
    expect((await upload(bob, 'bob/other', theirs)).statusCode).toBe(200);
    const file = await kiln.api('POST', `/projects/${project.id}/repository/files/theirs.bin`, {
      token: alice.token,
      body: { branch: 'main', commit_message: 'theirs', content: pointer(createHash('sha256').update(theirs).digest('hex'), theirs.length) },
    });
    expect(file.status).toBe(400);
    expect(file.body).toEqual({ message: LFS_OBJECTS_MISSING });
    const branches = await kiln.apiAs(alice, 'GET', `/projects/${project.id}/repository/branches`);
    expect(branches).toEqual([]);
  });

  it('accepts pointers to objects the project holds, and any content when LFS is off for the project', async () => {
    const made = await commit([
      { action: 'create', file_path: '.gitattributes', content: '*.bin filter=lfs diff=lfs merge=lfs -text\n' },
      { action: 'create', file_path: 'big.bin', content: pointer(oid, content.length) },
      { action: 'create', file_path: 'plain.txt', content: 'not in LFS\n' },
    ]);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await kiln.apiAs(alice, 'PUT', `/projects/${project.id}`, { lfs_enabled: false });
    expect((await commit([{ action: 'create', file_path: 'lost.bin', content: pointer(MISSING, 5) }])).status).toBe(201);
    await kiln.apiAs(alice, 'PUT', `/projects/${project.id}`, { lfs_enabled: true });
  });

  it('the web editor\'s new file form shows the same refusal and keeps what was typed', async () => {
    // Not lost.bin's pointer: that blob is in the repository already, and only new objects are checked.
    const OTHER_MISSING = 'cd'.repeat(32);
    const head = (await kiln.apiAs(alice, 'GET', `/projects/${project.id}/repository/branches/main`)).commit.id;
    const web = new WebSession(kiln);
    await web.signIn(alice.username, alice.password);
    const refused = await web.post('/alice/app/-/create/main', { file_name: 'lost-again.bin', content: pointer(OTHER_MISSING, 7), commit_message: 'a pointer', branch_name: 'main' }, { csrfFrom: '/alice/app/-/new/main' });
    expect(refused.headers.location).toBeUndefined();
    expect(refused.body).toContain('LFS objects are missing. Ensure LFS is properly set up or try a manual &quot;git lfs push --all&quot;.');
    expect(refused.body).toContain(`oid sha256:${OTHER_MISSING}`);
    expect((await kiln.apiAs(alice, 'GET', `/projects/${project.id}/repository/branches/main`)).commit.id).toBe(head);
  });
});

describe('archives with LFS content', () => {
  it('the API\'s tar.gz holds the object in place of its pointer, and the pointer with include_lfs_blobs=false', async () => {
    const archive = await kiln.request('GET', `/api/v4/projects/${project.id}/repository/archive.tar.gz?sha=main`, { token: alice.token });
    expect(archive.statusCode).toBe(200);
    const dir = unpack(archive.rawPayload, 'a.tar.gz', (file, into) => ['tar', '-xzf', file, '-C', into]);
    expect(readFileSync(join(dir, 'big.bin')).equals(content)).toBe(true);
    expect(readFileSync(join(dir, 'plain.txt'), 'utf8')).toBe('not in LFS\n');
    // A pointer to an object the project does not hold stays the pointer.
    expect(readFileSync(join(dir, 'lost.bin'), 'utf8')).toBe(pointer(MISSING, 5));

    const without = await kiln.request('GET', `/api/v4/projects/${project.id}/repository/archive.tar?include_lfs_blobs=false`, { token: alice.token });
    const plain = unpack(without.rawPayload, 'b.tar', (file, into) => ['tar', '-xf', file, '-C', into]);
    expect(readFileSync(join(plain, 'big.bin'), 'utf8')).toBe(pointer(oid, content.length));
  });

  it('the page\'s zip download holds it too; a project with LFS off archives the pointer', async () => {
    const web = new WebSession(kiln);
    await web.signIn(alice.username, alice.password);
    const zip = await web.get('/alice/app/-/archive/main/app-main.zip');
    expect(zip.statusCode).toBe(200);
    const dir = unpack(zip.rawPayload, 'c.zip', (file, into) => ['unzip', '-q', file, '-d', into]);
    expect(readFileSync(join(dir, 'big.bin')).equals(content)).toBe(true);

    await kiln.apiAs(alice, 'PUT', `/projects/${project.id}`, { lfs_enabled: false });
    const off = await web.get('/alice/app/-/archive/main/app-main.tar.gz');
    const offDir = unpack(off.rawPayload, 'd.tar.gz', (file, into) => ['tar', '-xzf', file, '-C', into]);
    expect(readFileSync(join(offDir, 'big.bin'), 'utf8')).toBe(pointer(oid, content.length));
    await kiln.apiAs(alice, 'PUT', `/projects/${project.id}`, { lfs_enabled: true });
  });
});
