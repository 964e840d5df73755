// A project's wiki over git smart HTTP with the real git client (issue 38): `<project>.wiki.git` is
// cloned and pushed like the project's repository, a pushed page is a page of the API, and who may
// fetch and push follows the wiki's abilities and wiki_access_level.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';
import { sshClient, sshKeygen, type SshKeyPair } from '../helpers/ssh.js';

let kiln: TestKiln;
let base: string;
let work: string;
const { run: gitRun, ok } = gitCommands(() => work);
let alice: TestUser;
let reporter: TestUser;
let guest: TestUser;
let project: any;
let sshPort: number;
const ssh = sshClient(() => work, () => sshPort);
let aliceKey: SshKeyPair;
let guestKey: SshKeyPair;

function url(user: TestUser, path: string): string {
  return `${base.replace('http://', `http://${encodeURIComponent(user.username)}:${encodeURIComponent(user.token)}@`)}/${path}`;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-wiki-git-'));
  kiln = await testKiln({ storages: [{ name: 'default', path: join(work, 'shards', 'default'), weight: 100 }] });
  base = await listenOnLoopback(kiln.app);
  alice = await kiln.createUser('alice');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  project = await kiln.createProject(alice, 'handbook');
  await kiln.addMember(alice, 'projects', project.id, reporter, ACCESS.reporter);
  await kiln.addMember(alice, 'projects', project.id, guest, ACCESS.guest);
  await kiln.api('POST', `/projects/${project.id}/wikis`, { token: alice.token, body: { title: 'home', content: 'Welcome' } });
  sshPort = (await kiln.listenSsh({ port: 0 })).port;
  [aliceKey, guestKey] = await Promise.all([sshKeygen(work, 'alice', 'ed25519'), sshKeygen(work, 'guest', 'ed25519')]);
  await kiln.apiAs(alice, 'POST', '/user/keys', { title: 'alice', key: aliceKey.publicKey });
  await kiln.apiAs(guest, 'POST', '/user/keys', { title: 'guest', key: guestKey.publicKey });
}, 120_000);

afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('git clone and push of <project>.wiki.git', () => {
  it('as the owner clones the wiki, pushes a page, and the API shows it', async () => {
    const dir = join(work, 'owner');
    const cloned = await gitRun(['clone', url(alice, 'alice/handbook.wiki.git'), dir]);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(readFileSync(join(dir, 'home.md'), 'utf8')).toBe('Welcome');
    writeFileSync(join(dir, 'Pushed-Page.md'), '# Pushed\n');
    await ok(['add', '.'], dir);
    await ok(['commit', '-q', '-m', 'A page pushed with git'], dir);
    const pushed = await gitRun(['push', 'origin', 'main'], dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    const page = await kiln.api('GET', `/projects/${project.id}/wikis/Pushed-Page`, { token: guest.token });
    expect(page.body).toMatchObject({ slug: 'Pushed-Page', title: 'Pushed Page', content: '# Pushed\n', format: 'markdown' });
  });

  it('as a guest clones, but may not push', async () => {
    const dir = join(work, 'guest-http');
    expect((await gitRun(['clone', url(guest, 'alice/handbook.wiki.git'), dir])).code).toBe(0);
    writeFileSync(join(dir, 'guest.md'), 'nope');
    await ok(['add', '.'], dir);
    await ok(['commit', '-q', '-m', 'guest'], dir);
    const pushed = await gitRun(['push', 'origin', 'main'], dir);
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr).toContain("You are not allowed to write to this project's wiki.");
  });

  it('keeps the project repository apart: the reporter fetches both, and the wiki is not the code', async () => {
    const response = await kiln.request('GET', '/alice/handbook.wiki.git/info/refs?service=git-upload-pack', { headers: { authorization: `Basic ${Buffer.from(`reporter:${reporter.token}`).toString('base64')}` } });
    expect(response.statusCode).toBe(200);
    const code = await kiln.request('GET', '/alice/handbook.git/info/refs?service=git-upload-pack', { headers: { authorization: `Basic ${Buffer.from(`reporter:${reporter.token}`).toString('base64')}` } });
    expect(code.statusCode).toBe(200);
    expect(code.body).not.toBe(response.body);
  });

  it('with the wiki disabled refuses the clone', async () => {
    await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { wiki_access_level: 'disabled' } });
    const response = await kiln.request('GET', '/alice/handbook.wiki.git/info/refs?service=git-upload-pack', { headers: { authorization: `Basic ${Buffer.from(`alice:${alice.token}`).toString('base64')}` } });
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('You are not allowed to download files from this wiki.');
    await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { wiki_access_level: 'enabled' } });
  });

  it('anonymously on a private project challenges for credentials', async () => {
    const response = await kiln.request('GET', '/alice/handbook.wiki.git/info/refs?service=git-upload-pack');
    expect(response.statusCode).toBe(401);
  });

  it('over SSH: the owner clones and pushes <project>.wiki.git, a guest may not push', async () => {
    const dir = join(work, 'ssh-owner');
    const cloned = await ssh.git(aliceKey, ['clone', '-q', ssh.url('alice/handbook.wiki.git'), dir]);
    expect(cloned.code, cloned.stderr).toBe(0);
    writeFileSync(join(dir, 'Over-SSH.md'), 'By ssh');
    expect((await ssh.git(aliceKey, ['add', '.'], dir)).code).toBe(0);
    expect((await ssh.git(aliceKey, ['commit', '-q', '-m', 'ssh page'], dir)).code).toBe(0);
    const pushed = await ssh.git(aliceKey, ['push', '-q', 'origin', 'main'], dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect((await kiln.api('GET', `/projects/${project.id}/wikis/Over-SSH`, { token: alice.token })).body.content).toBe('By ssh');
    const guestDir = join(work, 'ssh-guest');
    expect((await ssh.git(guestKey, ['clone', '-q', ssh.url('alice/handbook.wiki.git'), guestDir])).code).toBe(0);
    writeFileSync(join(guestDir, 'nope.md'), 'nope');
    await ssh.git(guestKey, ['add', '.'], guestDir);
    await ssh.git(guestKey, ['commit', '-q', '-m', 'nope'], guestDir);
    const refused = await ssh.git(guestKey, ['push', '-q', 'origin', 'main'], guestDir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("You are not allowed to write to this project's wiki.");
  });
});
