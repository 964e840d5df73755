// Git LFS with Debian's git-lfs against a started Kiln on loopback: push and pull over HTTP (HTTP Basic
// with a personal access token) and over SSH (`git-lfs-authenticate`), objects stored once by oid and
// served per project, the protocol's refusals, and the locks API as git-lfs uses it (another user's
// lock stops a push of that file); the project's LFS size in its statistics, its limit, orphans removed,
// and LFS files in the blob page, /-/raw/ and the files API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { sshClient, sshKeygen, type SshKeyPair } from '../helpers/ssh.js';
import { pruneOrphanLfsObjects } from '../../src/repositories/lfs/prune-orphans.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let work: string;
let httpPort: number;
let sshPort: number;
let base: string;
// git and git-lfs processes are slow on a loaded machine.
const SLOW = 120_000;
const client = sshClient(() => work, () => sshPort);
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let aliceKey: SshKeyPair;
let project: any;
const first = randomBytes(300 * 1024);
const firstOid = createHash('sha256').update(first).digest('hex');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** git as `user` over HTTP: its token comes from a credential helper, as git-lfs asks git for it. */
function gitAs(user: TestUser, args: string[], cwd = work, env: Record<string, string> = {}) {
  const helper = `!f() { echo username=${user.username}; echo password=${user.token}; }; f`;
  return client.git(aliceKey, ['-c', `credential.helper=${helper}`, ...args], cwd, env);
}

async function ok(result: Promise<{ code: number; stdout: string; stderr: string }>): Promise<string> {
  const done = await result;
  if (done.code !== 0) throw new Error(`failed (${done.code}):\n${done.stderr}`);
  return done.stdout;
}

function basic(user: TestUser): string {
  return `Basic ${Buffer.from(`${user.username}:${user.token}`).toString('base64')}`;
}

function batch(path: string, body: unknown, user?: TestUser) {
  return kiln.request('POST', `/${path}.git/info/lfs/objects/batch`, {
    body,
    headers: { 'content-type': 'application/vnd.git-lfs+json', accept: 'application/vnd.git-lfs+json', ...(user ? { authorization: basic(user) } : {}) },
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-lfs-'));
  httpPort = await freePort();
  base = `http://127.0.0.1:${httpPort}`;
  kiln = await testKiln({ baseUrl: base });
  await kiln.app.listen({ host: '127.0.0.1', port: httpPort });
  sshPort = (await kiln.listenSsh({ port: 0 })).port;
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  carol = await kiln.createUser('carol');
  aliceKey = await sshKeygen(work, 'alice', 'ed25519');
  await kiln.apiAs(alice, 'POST', '/user/keys', { title: 'laptop', key: aliceKey.publicKey });
  const group = await kiln.createGroup(alice, 'team');
  project = await kiln.createProject(alice, 'app', { namespace_id: group.id, visibility: 'private' });
  await kiln.addMember(alice, 'projects', project.id, bob, ACCESS.developer);
  await kiln.addMember(alice, 'projects', project.id, carol, ACCESS.reporter);
}, 120_000);
afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('git-lfs over HTTP', () => {
  it('pushes an object: stored once under its oid and linked to the project', async () => {
    const dir = join(work, 'alice-http');
    await ok(gitAs(alice, ['clone', '-q', `${base}/team/app.git`, dir]));
    await ok(gitAs(alice, ['lfs', 'install', '--local'], dir));
    await ok(gitAs(alice, ['lfs', 'track', '--lockable', '*.bin'], dir));
    writeFileSync(join(dir, 'big.bin'), first);
    await ok(gitAs(alice, ['add', '.'], dir));
    await ok(gitAs(alice, ['commit', '-q', '-m', 'an LFS object'], dir));
    await ok(gitAs(alice, ['push', '-q', '-u', 'origin', 'main'], dir));

    const rows = await kiln.deps.db.selectFrom('lfs_objects').innerJoin('lfs_objects_projects', 'lfs_objects_projects.lfs_object_id', 'lfs_objects.id').select(['oid', 'size', 'project_id']).execute();
    expect(rows.map((row) => [row.oid, Number(row.size), Number(row.project_id)])).toEqual([[firstOid, first.length, project.id]]);
    const file = join(kiln.config.lfsPath, firstOid.slice(0, 2), firstOid.slice(2, 4), firstOid.slice(4));
    expect(readFileSync(file).equals(first)).toBe(true);
  }, SLOW);

  it('a Reporter pulls it (git lfs install --local, git lfs pull) and may not upload', async () => {
    const dir = join(work, 'carol-http');
    await ok(gitAs(carol, ['clone', '-q', `${base}/team/app.git`, dir], work, { GIT_LFS_SKIP_SMUDGE: '1' }));
    expect(readFileSync(join(dir, 'big.bin'), 'utf8')).toContain(`oid sha256:${firstOid}`);
    await ok(gitAs(carol, ['lfs', 'install', '--local'], dir));
    await ok(gitAs(carol, ['lfs', 'pull'], dir));
    expect(readFileSync(join(dir, 'big.bin')).equals(first)).toBe(true);

    const upload = await batch('team/app', { operation: 'upload', objects: [{ oid: firstOid, size: first.length }] }, carol);
    expect(upload.statusCode).toBe(403);
    expect(upload.json().message).toBe('Access forbidden. Check your access level.');
  }, SLOW);
});

describe('git-lfs over SSH (git-lfs-authenticate)', () => {
  it('prints the LFS endpoint and a Basic header for the key\'s user, and refuses a bad operation', async () => {
    const answer = await client.ssh(aliceKey, ['git-lfs-authenticate', 'team/app.git', 'download']);
    expect(answer.code, answer.stderr).toBe(0);
    const parsed = JSON.parse(answer.stdout);
    expect(parsed.href).toBe(`${base}/team/app.git/info/lfs`);
    expect(parsed.expires_in).toBe(1800);
    expect(Buffer.from(parsed.header.Authorization.replace('Basic ', ''), 'base64').toString()).toMatch(/^alice:\d+\.[\w-]{43}$/);
    const bad = await client.ssh(aliceKey, ['git-lfs-authenticate', 'team/app.git', 'delete']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('Disallowed command');
  }, SLOW);

  it('clones, pulls and pushes objects over ssh://', async () => {
    const dir = join(work, 'alice-ssh');
    await ok(client.git(aliceKey, ['clone', '-q', client.url('team/app.git'), dir], work, { GIT_LFS_SKIP_SMUDGE: '1' }));
    await ok(client.git(aliceKey, ['lfs', 'install', '--local'], dir));
    await ok(client.git(aliceKey, ['lfs', 'pull'], dir));
    expect(readFileSync(join(dir, 'big.bin')).equals(first)).toBe(true);
    const second = randomBytes(64 * 1024);
    writeFileSync(join(dir, 'second.bin'), second);
    await ok(client.git(aliceKey, ['add', '.'], dir));
    await ok(client.git(aliceKey, ['commit', '-q', '-m', 'a second object'], dir));
    await ok(client.git(aliceKey, ['push', '-q', 'origin', 'main'], dir));
    const oid = createHash('sha256').update(second).digest('hex');
    expect(existsSync(join(kiln.config.lfsPath, oid.slice(0, 2), oid.slice(2, 4), oid.slice(4)))).toBe(true);
  }, SLOW);
});

describe('the batch API and basic transfer', () => {
  it('challenges an anonymous caller of a private project, and answers an empty batch 404', async () => {
    const anonymous = await batch('team/app', { operation: 'download', objects: [{ oid: firstOid, size: first.length }] });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['lfs-authenticate']).toBe('Basic realm="Kiln"');
    const empty = await batch('team/app', { operation: 'download', objects: [] }, alice);
    expect(empty.statusCode).toBe(404);
    expect(empty.json().message).toBe('Not found.');
  }, SLOW);

  it('refuses LFS on a project whose lfs_enabled setting is off (PUT /projects/:id)', async () => {
    await kiln.apiAs(alice, 'PUT', `/projects/${project.id}`, { lfs_enabled: false });
    const off = await batch('team/app', { operation: 'download', objects: [{ oid: firstOid, size: first.length }] }, alice);
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe('Access forbidden. Check your access level.');
    await kiln.apiAs(alice, 'PUT', `/projects/${project.id}`, { lfs_enabled: true });
    expect((await batch('team/app', { operation: 'download', objects: [{ oid: firstOid, size: first.length }] }, alice)).statusCode).toBe(200);
  }, SLOW);

  it('serves an object only to projects it was uploaded to; an upload of the same bytes links it without a second copy', async () => {
    await kiln.createProject(bob, 'own');
    const path = 'bob/own';
    const download = await batch(path, { operation: 'download', objects: [{ oid: firstOid, size: first.length }] }, bob);
    expect(download.json().objects[0].error.code).toBe(404);
    const upload = await batch(path, { operation: 'upload', objects: [{ oid: firstOid, size: first.length }] }, bob);
    const action = upload.json().objects[0].actions.upload;
    expect(action.href).toBe(`${base}/${path}.git/gitlab-lfs/objects/${firstOid}/${first.length}`);

    const put = (payload: Buffer) => kiln.app.inject({ method: 'PUT', url: new URL(action.href).pathname, headers: action.header, payload });
    const wrong = await put(randomBytes(first.length));
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().message).toBe('SHA256 or size mismatch');
    expect((await put(first)).statusCode).toBe(200);

    const again = await batch(path, { operation: 'download', objects: [{ oid: firstOid, size: first.length }] }, bob);
    const href = again.json().objects[0].actions.download;
    const got = await kiln.request('GET', new URL(href.href).pathname, { headers: href.header });
    expect(got.rawPayload.equals(first)).toBe(true);
    const objects = await kiln.deps.db.selectFrom('lfs_objects').select('id').where('oid', '=', firstOid).execute();
    expect(objects).toHaveLength(1);
  }, SLOW);
});

describe('locks', () => {
  it('another user\'s lock stops git-lfs pushing that file; only its owner (or a Maintainer with force) unlocks it', async () => {
    const aliceDir = join(work, 'alice-http');
    const locked = await ok(gitAs(alice, ['lfs', 'lock', 'big.bin'], aliceDir));
    expect(locked).toContain('Locked big.bin');

    const dir = join(work, 'bob-http');
    const bobGit = (args: string[], env: Record<string, string> = {}) => gitAs(bob, args, dir, env);
    await ok(gitAs(bob, ['clone', '-q', `${base}/team/app.git`, dir], work, { GIT_LFS_SKIP_SMUDGE: '1' }));
    await ok(bobGit(['lfs', 'install', '--local']));
    // Without it git-lfs only warns ("The above files would have halted this push"), with GitLab too.
    await ok(bobGit(['config', 'lfs.locksverify', 'true']));
    await ok(bobGit(['lfs', 'pull']));
    const listed = await ok(bobGit(['lfs', 'locks']));
    expect(listed).toMatch(/big\.bin\s+User alice/);
    writeFileSync(join(dir, 'big.bin'), randomBytes(1024));
    await ok(bobGit(['commit', '-q', '-a', '-m', 'change a locked file']));
    // A branch of his own: main is protected from Developers' pushes anyway.
    const refused = await bobGit(['push', 'origin', 'main:feature']);
    expect(refused.code).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toMatch(/Unable to push locked files[\s\S]*big\.bin - User alice/);

    const notHis = await bobGit(['lfs', 'unlock', 'big.bin']);
    expect(notHis.code).not.toBe(0);
    const forced = await bobGit(['lfs', 'unlock', '--force', 'big.bin']);
    expect(forced.code).not.toBe(0);
    expect(forced.stderr).toContain('You must have maintainer access to force delete a lock');

    await ok(gitAs(alice, ['lfs', 'unlock', 'big.bin'], aliceDir));
    await ok(bobGit(['push', '-q', 'origin', 'main:feature']));
  }, SLOW);
});

describe('statistics, the per-project limit and orphans', () => {
  it('counts the project\'s LFS content in statistics=true, for Reporters and up', async () => {
    const linked = await kiln.deps.db.selectFrom('lfs_objects').innerJoin('lfs_objects_projects', 'lfs_objects_projects.lfs_object_id', 'lfs_objects.id').select('size').where('project_id', '=', project.id).execute();
    const total = linked.reduce((sum, row) => sum + Number(row.size), 0);
    expect(total).toBeGreaterThan(first.length);
    const shown = await kiln.apiAs(carol, 'GET', `/projects/${project.id}?statistics=true`);
    expect(shown.statistics).toMatchObject({ lfs_objects_size: total, wiki_size: 0 });
    expect(shown.statistics.commit_count).toBeGreaterThanOrEqual(2);
    expect(shown.statistics.storage_size).toBe(shown.statistics.repository_size + total);
    expect(shown.statistics.repository_size).toBeGreaterThan(0);
    expect((await kiln.apiAs(carol, 'GET', `/projects/${project.id}`)).statistics).toBeUndefined();
  }, SLOW);

  it('refuses an upload past KILN_LFS_MAX_PROJECT_BYTES with GitLab\'s 406, in the batch and on PUT', async () => {
    const limit = kiln.deps.config.lfsMaxProjectBytes;
    (kiln.deps.config as { lfsMaxProjectBytes: number }).lfsMaxProjectBytes = 1024 * 1024;
    try {
      const big = randomBytes(1024 * 1024);
      const oid = createHash('sha256').update(big).digest('hex');
      const refused = await batch('team/app', { operation: 'upload', objects: [{ oid, size: big.length }] }, alice);
      expect(refused.statusCode).toBe(406);
      expect(refused.json().message).toMatch(/^Your push has been rejected, because this repository has exceeded its size limit of 1 MB by \d+(\.\d)? KB\. Please contact your GitLab administrator for more information\.$/);
      const put = await kiln.app.inject({ method: 'PUT', url: `/team/app.git/gitlab-lfs/objects/${oid}/${big.length}`, headers: { authorization: basic(alice), 'content-type': 'application/octet-stream' }, payload: big });
      expect(put.statusCode).toBe(406);
      // What the project holds already is not counted twice.
      expect((await batch('team/app', { operation: 'upload', objects: [{ oid: firstOid, size: first.length }] }, alice)).statusCode).toBe(200);
    } finally {
      (kiln.deps.config as { lfsMaxProjectBytes: number }).lfsMaxProjectBytes = limit;
    }
  }, SLOW);

  it('removes an object no project links once its project is deleted, and keeps shared ones', async () => {
    const only = randomBytes(2048);
    const oid = createHash('sha256').update(only).digest('hex');
    const doomed = await kiln.createProject(bob, 'doomed');
    const put = await kiln.app.inject({ method: 'PUT', url: `/bob/doomed.git/gitlab-lfs/objects/${oid}/${only.length}`, headers: { authorization: basic(bob), 'content-type': 'application/octet-stream' }, payload: only });
    expect(put.statusCode, put.body).toBe(200);
    const own = await kiln.deps.db.selectFrom('projects').select('id').where('path', '=', 'own').executeTakeFirstOrThrow();
    await kiln.apiAs(bob, 'DELETE', `/projects/${doomed.id}`);
    await kiln.apiAs(bob, 'DELETE', `/projects/${own.id}`);
    const file = join(kiln.config.lfsPath, oid.slice(0, 2), oid.slice(2, 4), oid.slice(4));
    // An object written within the hour is left for the next run (an upload may be linking it).
    expect(await pruneOrphanLfsObjects(kiln.deps)).toBe(0);
    const old = new Date(kiln.clock.now() - 2 * 60 * 60 * 1000);
    utimesSync(file, old, old);
    expect(await pruneOrphanLfsObjects(kiln.deps)).toBe(1);
    expect(existsSync(file)).toBe(false);
    expect(await kiln.deps.db.selectFrom('lfs_objects').select('id').where('oid', '=', oid).execute()).toEqual([]);
    // The first object was linked to bob/own too, and is still team/app's.
    expect(existsSync(join(kiln.config.lfsPath, firstOid.slice(0, 2), firstOid.slice(2, 4), firstOid.slice(4)))).toBe(true);
  }, SLOW);
});

describe('files stored with Git LFS in the pages and the files API', () => {
  const pointer = (oid: string, size: number) => `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${size}\n`;

  it('the blob page says "Stored with Git LFS" and links the object; /-/raw/ and raw?lfs=true serve it', async () => {
    const web = new WebSession(kiln);
    await web.signIn(alice.username, alice.password);
    const blob = await web.get('/team/app/-/blob/main/big.bin');
    expect(blob.statusCode).toBe(200);
    expect(blob.body).toContain('Stored with Git LFS');
    expect(blob.body).toContain('300.0 KiB');
    expect(blob.body).toContain('href="/team/app/-/raw/main/big.bin?inline=false"');
    expect(blob.body).not.toContain('href="/team/app/-/edit/main/big.bin"');
    const raw = await web.get('/team/app/-/raw/main/big.bin');
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toBe('application/octet-stream');
    expect(raw.rawPayload.equals(first)).toBe(true);

    const api = (query: string) => kiln.request('GET', `/api/v4/projects/${project.id}/repository/files/big.bin/raw?ref=main${query}`, { token: alice.token });
    expect((await api('&lfs=true')).rawPayload.equals(first)).toBe(true);
    expect((await api('')).body).toBe(pointer(firstOid, first.length));
  }, SLOW);

  it('shows the text of a small LFS object, and a pointer to an object the project lacks as the pointer it is', async () => {
    const text = 'stored with LFS\nsecond line\n';
    const oid = createHash('sha256').update(text).digest('hex');
    const put = await kiln.app.inject({ method: 'PUT', url: `/team/app.git/gitlab-lfs/objects/${oid}/${text.length}`, headers: { authorization: basic(alice), 'content-type': 'application/octet-stream' }, payload: Buffer.from(text) });
    expect(put.statusCode).toBe(200);
    const missing = 'cd'.repeat(32);
    // A pointer to an object the project lacks is refused while LFS is on (lfs-archives.test.ts).
    await kiln.apiAs(alice, 'PUT', `/projects/${project.id}`, { lfs_enabled: false });
    await kiln.apiAs(alice, 'POST', `/projects/${project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'pointers',
      actions: [
        { action: 'create', file_path: 'notes.txt', content: pointer(oid, text.length) },
        { action: 'create', file_path: 'lost.bin', content: pointer(missing, 5) },
      ],
    });
    await kiln.apiAs(alice, 'PUT', `/projects/${project.id}`, { lfs_enabled: true });
    const web = new WebSession(kiln);
    await web.signIn(alice.username, alice.password);
    const shown = await web.get('/team/app/-/blob/main/notes.txt');
    expect(shown.body).toContain('Stored with Git LFS');
    expect(shown.body).toContain('second line');
    expect(shown.body).toContain('2 lines');
    const lost = await web.get('/team/app/-/blob/main/lost.bin');
    expect(lost.body).not.toContain('Stored with Git LFS');
    expect((await web.get('/team/app/-/raw/main/lost.bin')).body).toBe(pointer(missing, 5));
  }, SLOW);
});

describe('the push check of LFS pointers', () => {
  it('refuses a push whose pointers name objects the project does not hold, with GitLab\'s message, and accepts it once they are uploaded', async () => {
    const dir = join(work, 'pointer-push');
    await ok(gitAs(alice, ['clone', '-q', `${base}/team/app.git`, dir], work, { GIT_LFS_SKIP_SMUDGE: '1' }));
    const content = randomBytes(4096);
    const oid = createHash('sha256').update(content).digest('hex');
    // The pointer git-lfs would write, committed without uploading its object (and no pre-push hook).
    writeFileSync(join(dir, 'unsent.bin'), `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${content.length}\n`);
    await ok(gitAs(alice, ['add', 'unsent.bin'], dir));
    await ok(gitAs(alice, ['commit', '-q', '-m', 'a pointer without its object'], dir));
    const refused = await gitAs(alice, ['push', '--no-verify', 'origin', 'HEAD:lfs-check'], dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('remote: LFS objects are missing. Ensure LFS is properly set up or try a manual "git lfs push --all".');
    expect(refused.stderr).toContain('[remote rejected] HEAD -> lfs-check (pre-receive hook declined)');

    const put = await kiln.app.inject({ method: 'PUT', url: `/team/app.git/gitlab-lfs/objects/${oid}/${content.length}`, headers: { authorization: basic(alice), 'content-type': 'application/octet-stream' }, payload: content });
    expect(put.statusCode).toBe(200);
    await ok(gitAs(alice, ['push', '-q', '--no-verify', 'origin', 'HEAD:lfs-check'], dir));
  }, SLOW);
});
