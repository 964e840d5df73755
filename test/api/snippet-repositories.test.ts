// Snippets kept in git repositories (issue 38): every create and every change of the files is a
// commit on `main`; the real git clones `/snippets/<id>.git` and `/<project>/snippets/<id>.git` over
// HTTP by the snippet's read rule (private: 404 to signed-in outsiders, a credentials challenge to
// anonymous callers); a snippet written before repositories gets one on its first clone; whoever may
// change the snippet pushes to `main` over HTTP and SSH within GitLab's rules, and the snippet's files
// follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';
import { sshClient, sshKeygen } from '../helpers/ssh.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { pruneOrphanRepositories } from '../../src/repositories/prune-orphans.js';

let kiln: TestKiln;
let work: string;
let base: string;
let alice: TestUser;
let bob: TestUser;
let guest: TestUser;
let project: any;
const { run: git, ok } = gitCommands(() => work);
const two = [{ file_path: 'hello.py', content: 'print("hello")\n' }, { file_path: 'docs/readme.md', content: '# Read me\n' }];
let clones = 0;

const url = (path: string, user?: TestUser) => (user ? base.replace('http://', `http://${user.username}:${user.token}@`) : base) + `/${path}.git`;

/** Clone into a new directory: the directory, or the failed git's outcome. */
async function clone(path: string, user?: TestUser) {
  const dir = join(work, `clone-${(clones += 1)}`);
  const result = await git(['clone', '-q', url(path, user), dir]);
  return { dir, ...result };
}

/** What the smart HTTP refs advertisement answers (its status tells 401 from 404). */
async function advertise(path: string, user?: TestUser) {
  const headers: Record<string, string> = user ? { authorization: `Basic ${Buffer.from(`${user.username}:${user.token}`).toString('base64')}` } : {};
  const response = await fetch(`${base}/${path}.git/info/refs?service=git-upload-pack`, { headers });
  return { status: response.status, body: await response.text() };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-snippet-repos-'));
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

describe('personal snippet repositories', () => {
  it('clones a public snippet of two files anonymously; each change of the files is a commit by its editor', async () => {
    const created = await kiln.api('POST', '/snippets', { token: alice.token, body: { title: 'Two', visibility: 'public', files: two } });
    expect(created.body.http_url_to_repo).toBe(`${kiln.deps.config.baseUrl}/snippets/${created.body.id}.git`);
    const first = await clone(`snippets/${created.body.id}`);
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(join(first.dir, 'hello.py'), 'utf8')).toBe('print("hello")\n');
    expect(readFileSync(join(first.dir, 'docs/readme.md'), 'utf8')).toBe('# Read me\n');
    const me = (await kiln.api('GET', '/user', { token: alice.token })).body;
    expect((await ok(['log', '--format=%an <%ae>|%s'], first.dir)).trim()).toBe(`${me.name} <${me.email}>|Create snippet`);

    const put = await kiln.api('PUT', `/snippets/${created.body.id}`, {
      token: alice.token, body: { files: [{ action: 'update', file_path: 'hello.py', content: 'print("bye")\n' }, { action: 'delete', file_path: 'docs/readme.md' }, { action: 'create', file_path: 'new.txt', content: 'new\n' }] },
    });
    expect(put.status).toBe(200);
    // A change of the title alone is no commit.
    expect((await kiln.api('PUT', `/snippets/${created.body.id}`, { token: alice.token, body: { title: 'Renamed' } })).status).toBe(200);
    const pulled = await git(['pull', '-q', '--ff-only'], first.dir);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect((await ok(['ls-files'], first.dir)).trim().split('\n')).toEqual(['hello.py', 'new.txt']);
    expect(readFileSync(join(first.dir, 'hello.py'), 'utf8')).toBe('print("bye")\n');
    expect((await ok(['log', '--format=%s'], first.dir)).trim().split('\n')).toEqual(['Update snippet', 'Create snippet']);
  });

  it('keeps a private snippet to its author: 404 to another user, a credentials challenge to anonymous callers', async () => {
    const hidden = (await kiln.api('POST', '/snippets', { token: alice.token, body: { title: 'Mine', visibility: 'private', files: two } })).body;
    const path = `snippets/${hidden.id}`;
    const mine = await clone(path, alice);
    expect(mine.code, mine.stderr).toBe(0);
    expect((await advertise(path, bob)).status).toBe(404);
    expect((await advertise(path)).status).toBe(401);
    const theirs = await clone(path, bob);
    expect(theirs.code).not.toBe(0);
    expect(theirs.stderr).toContain('could not be found');
    expect((await advertise('snippets/999999', alice)).status).toBe(404);
  });

  it('takes a push to main from whoever may change the snippet; its files as the API lists them follow', async () => {
    const snippet = (await kiln.api('POST', '/snippets', { token: alice.token, body: { title: 'Push', visibility: 'public', files: two } })).body;
    const local = await clone(`snippets/${snippet.id}`, alice);
    writeFileSync(join(local.dir, 'hello.py'), 'print("pushed")\n');
    writeFileSync(join(local.dir, 'added.txt'), 'added\n');
    await ok(['rm', '-q', 'docs/readme.md'], local.dir);
    await ok(['add', '-A'], local.dir);
    await ok(['commit', '-q', '-m', 'local change'], local.dir);
    const pushed = await git(['push', '-q', 'origin', 'main'], local.dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    const shown = (await kiln.api('GET', `/snippets/${snippet.id}`, { token: alice.token })).body;
    expect(shown.file_name).toBe('hello.py');
    expect(shown.files.map((file: any) => file.path)).toEqual(['hello.py', 'added.txt']);
    expect(shown.title).toBe('Push');
    expect((await kiln.request('GET', `/api/v4/snippets/${snippet.id}/raw`, { token: alice.token })).body).toBe('print("pushed")\n');
    // A later clone (which brings the repository up to date with the files) keeps the pushed commit.
    const again = await clone(`snippets/${snippet.id}`, alice);
    expect((await ok(['log', '--format=%s'], again.dir)).trim().split('\n')).toEqual(['local change', 'Create snippet']);
    // An API change after the push is a commit on top of it.
    await kiln.api('PUT', `/snippets/${snippet.id}`, { token: alice.token, body: { files: [{ action: 'update', file_path: 'added.txt', content: 'by the API\n' }] } });
    expect((await git(['pull', '-q', '--ff-only'], local.dir)).code).toBe(0);
    expect(readFileSync(join(local.dir, 'added.txt'), 'utf8')).toBe('by the API\n');

    // A reader who may not change it is refused with GitLab's words, and nothing changes.
    const theirs = await clone(`snippets/${snippet.id}`, bob);
    writeFileSync(join(theirs.dir, 'hello.py'), 'bob was here\n');
    await ok(['commit', '-q', '-am', 'bob'], theirs.dir);
    const refused = await git(['push', '-q', 'origin', 'main'], theirs.dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('You are not allowed to update this snippet.');
    expect((await kiln.request('GET', `/api/v4/snippets/${snippet.id}/raw`, { token: alice.token })).body).toBe('print("pushed")\n');
  }, 120_000);

  it('refuses other branches, tags, deleting main, more than 10 files, no file, and more than snippet_size_limit', async () => {
    const snippet = (await kiln.api('POST', '/snippets', { token: alice.token, body: { title: 'Rules', visibility: 'private', files: two } })).body;
    const local = await clone(`snippets/${snippet.id}`, alice);
    const refusal = async (args: string[]) => {
      const result = await git(args, local.dir);
      expect(result.code, result.stderr).not.toBe(0);
      return result.stderr;
    };
    expect(await refusal(['push', '-q', 'origin', 'main:feature'])).toContain('You can not create or delete branches.');
    await ok(['tag', 'v1'], local.dir);
    expect(await refusal(['push', '-q', 'origin', 'v1'])).toContain('You can not create or delete branches.');
    expect(await refusal(['push', '-q', 'origin', ':main'])).toContain('You can not create or delete branches.');

    for (let index = 0; index < 9; index += 1) writeFileSync(join(local.dir, `file-${index}.txt`), `${index}\n`);
    await ok(['add', '-A'], local.dir);
    await ok(['commit', '-q', '-m', 'eleven files'], local.dir);
    expect(await refusal(['push', '-q', 'origin', 'main'])).toContain('The repository can contain at most 10 file(s).');
    await ok(['reset', '-q', '--hard', 'origin/main'], local.dir);

    await ok(['rm', '-q', '-r', '.'], local.dir);
    await ok(['commit', '-q', '-m', 'nothing'], local.dir);
    expect(await refusal(['push', '-q', 'origin', 'main'])).toContain('The repository must contain at least 1 file.');
    await ok(['reset', '-q', '--hard', 'origin/main'], local.dir);

    const admin = kiln.root;
    expect((await kiln.api('PUT', '/application/settings', { token: admin.token, body: { snippet_size_limit: 40 } })).status).toBe(200);
    try {
      writeFileSync(join(local.dir, 'hello.py'), 'x'.repeat(41));
      await ok(['commit', '-q', '-am', 'too large'], local.dir);
      expect(await refusal(['push', '-q', 'origin', 'main'])).toContain('Your push to this repository would cause it to exceed the size limit of 40 Bytes so it has been rejected.');
    } finally {
      await kiln.api('PUT', '/application/settings', { token: admin.token, body: { snippet_size_limit: 52428800 } });
    }

    const files = (await kiln.api('GET', `/snippets/${snippet.id}`, { token: alice.token })).body.files.map((file: any) => file.path);
    expect(files).toEqual(['hello.py', 'docs/readme.md']);
    const remote = await git(['ls-remote', 'origin'], local.dir);
    expect(remote.stdout.trim().split('\n').map((line) => line.split('\t')[1])).toEqual(['HEAD', 'refs/heads/main']);
  }, 120_000);

  it('gives a snippet written before repositories one on its first clone, of its files as they are', async () => {
    const now = kiln.deps.clock.now();
    const row = await kiln.deps.db.insertInto('snippets').values({
      project_id: null, author_id: alice.id, title: 'Old', description: null, visibility: 'public', user_agent: null, ip_address: null, created_at: now, updated_at: now,
    }).returningAll().executeTakeFirstOrThrow();
    await kiln.deps.db.insertInto('snippet_files').values([{ snippet_id: row.id, position: 0, path: 'old.txt', content: 'from before\n' }]).execute();
    const cloned = await clone(`snippets/${row.id}`);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(readFileSync(join(cloned.dir, 'old.txt'), 'utf8')).toBe('from before\n');
    // A second clone finds it as it was: no further commit.
    const again = await clone(`snippets/${row.id}`);
    expect((await ok(['rev-list', '--count', 'HEAD'], again.dir)).trim()).toBe('1');
  });

  it('a deleted snippet\'s repository goes with the daily orphan pruning', async () => {
    const snippet = (await kiln.api('POST', '/snippets', { token: alice.token, body: { title: 'Gone', files: two } })).body;
    const row = await kiln.deps.db.selectFrom('repositories').selectAll().where('container_type', '=', 'snippet').where('container_id', '=', snippet.id).executeTakeFirstOrThrow();
    expect(row.disk_path).toMatch(/^@snippets\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.git$/);
    const path = join(work, 'storage', row.disk_path);
    expect(existsSync(path)).toBe(true);
    expect((await kiln.api('DELETE', `/snippets/${snippet.id}`, { token: alice.token })).status).toBe(204);
    expect(await pruneOrphanRepositories(kiln.deps)).toBe(1);
    expect(existsSync(path)).toBe(false);
  });
});

describe('project snippet repositories', () => {
  it('clone at <project>/snippets/<id>.git for members; 404 to outsiders and at any other address', async () => {
    const snippet = (await kiln.api('POST', `/projects/${project.id}/snippets`, { token: alice.token, body: { title: 'Team', visibility: 'private', files: two } })).body;
    const path = `${project.path_with_namespace}/snippets/${snippet.id}`;
    expect(snippet.http_url_to_repo).toBe(`${kiln.deps.config.baseUrl}/${path}.git`);
    const member = await clone(path, guest);
    expect(member.code, member.stderr).toBe(0);
    expect((await ok(['ls-files'], member.dir)).trim().split('\n')).toEqual(['docs/readme.md', 'hello.py']);
    expect((await advertise(path, bob)).status).toBe(404);
    expect((await advertise(path)).status).toBe(401);
    // Not as a personal snippet, nor under another project.
    expect((await advertise(`snippets/${snippet.id}`, alice)).status).toBe(404);
    const other = await kiln.createProject(alice, 'other', { visibility: 'private' });
    expect((await advertise(`${other.path_with_namespace}/snippets/${snippet.id}`, alice)).status).toBe(404);
    // The project's own repository is still served at its address.
    expect((await advertise(project.path_with_namespace, alice)).status).toBe(200);
  });

  it('follows snippets_access_level: disabled, nobody clones', async () => {
    const snippet = (await kiln.api('POST', `/projects/${project.id}/snippets`, { token: alice.token, body: { title: 'Closed', visibility: 'private', files: two } })).body;
    const path = `${project.path_with_namespace}/snippets/${snippet.id}`;
    expect((await advertise(path, guest)).status).toBe(200);
    expect((await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { snippets_access_level: 'disabled' } })).status).toBe(200);
    expect((await advertise(path, guest)).status).toBe(404);
    expect((await advertise(path, alice)).status).toBe(404);
    expect((await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { snippets_access_level: 'enabled' } })).status).toBe(200);
  });
});

describe('snippet repositories over SSH', () => {
  it('clone at ssh_url_to_repo for whoever reads the snippet; others are told it is not found; its author pushes', async () => {
    const sshPort = (await kiln.listenSsh({ port: 0 })).port;
    const ssh = sshClient(() => work, () => sshPort);
    const [guestKey, bobKey] = await Promise.all([sshKeygen(work, 'guest', 'ed25519'), sshKeygen(work, 'bob', 'ed25519')]);
    await kiln.apiAs(guest, 'POST', '/user/keys', { title: 'guest', key: guestKey.publicKey });
    await kiln.apiAs(bob, 'POST', '/user/keys', { title: 'bob', key: bobKey.publicKey });
    const snippet = (await kiln.api('POST', `/projects/${project.id}/snippets`, { token: alice.token, body: { title: 'Over SSH', visibility: 'private', files: two } })).body;
    const path = `${project.path_with_namespace}/snippets/${snippet.id}.git`;
    expect(snippet.ssh_url_to_repo).toBe(`${kiln.deps.config.sshUrlPrefix}${path}`);
    const dir = join(work, 'ssh-snippet');
    const cloned = await ssh.git(guestKey, ['clone', '-q', ssh.url(path), dir]);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect((await ok(['ls-files'], dir)).trim().split('\n')).toEqual(['docs/readme.md', 'hello.py']);
    writeFileSync(join(dir, 'hello.py'), 'print("changed")\n');
    expect((await ssh.git(guestKey, ['commit', '-q', '-am', 'change'], dir)).code).toBe(0);
    // A Guest reads the project's snippet but may not change it.
    const pushed = await ssh.git(guestKey, ['push', '-q', 'origin', 'main'], dir);
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr).toContain('You are not allowed to update this snippet.');
    // Its author pushes, within the same rules as over HTTP.
    const aliceKey = await sshKeygen(work, 'alice', 'ed25519');
    await kiln.apiAs(alice, 'POST', '/user/keys', { title: 'alice', key: aliceKey.publicKey });
    const branch = await ssh.git(aliceKey, ['push', '-q', 'origin', 'main:other'], dir);
    expect(branch.stderr).toContain('You can not create or delete branches.');
    const accepted = await ssh.git(aliceKey, ['push', '-q', 'origin', 'main'], dir);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect((await kiln.request('GET', `/api/v4/projects/${project.id}/snippets/${snippet.id}/raw`, { token: alice.token })).body).toBe('print("changed")\n');
    const outsider = await ssh.git(bobKey, ['clone', '-q', ssh.url(path), join(work, 'ssh-bob')]);
    expect(outsider.code).not.toBe(0);
    expect(outsider.stderr).toContain('could not be found');
    const personal = (await kiln.api('POST', '/snippets', { token: bob.token, body: { title: 'Mine', visibility: 'public', files: two } })).body;
    expect(personal.ssh_url_to_repo).toBe(`${kiln.deps.config.sshUrlPrefix}snippets/${personal.id}.git`);
    const mine = await ssh.git(guestKey, ['clone', '-q', ssh.url(`snippets/${personal.id}.git`), join(work, 'ssh-public')]);
    expect(mine.code, mine.stderr).toBe(0);
  }, 120_000);
});
