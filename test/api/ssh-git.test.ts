// Git over SSH with OpenSSH's client and the real git against Kiln's SSH server on loopback: the same
// access rules and messages as git over HTTP, with ed25519 and RSA keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { listenOnLoopback, twoShards } from '../helpers/git.js';
import { sshClient, sshCommand, sshKeygen, type SshKeyPair } from '../helpers/ssh.js';

let kiln: TestKiln;
let work: string;
let port: number;
let httpBase: string;
const client = sshClient(() => work, () => port);
let alice: TestUser;
let bob: TestUser;
let dave: TestUser;
let aliceKey: SshKeyPair;
let aliceRsa: SshKeyPair;
let bobKey: SshKeyPair;
let daveKey: SshKeyPair;
let strangerKey: SshKeyPair;
let group: any;
let project: any;

async function addKey(user: TestUser, key: SshKeyPair, title: string) {
  return kiln.apiAs(user, 'POST', '/user/keys', { title, key: key.publicKey });
}

let counter = 0;
async function commitIn(dir: string, message: string): Promise<void> {
  counter += 1;
  writeFileSync(join(dir, `file-${counter}.txt`), `content ${counter}\n`);
  const add = await client.git(aliceKey, ['add', '.'], dir);
  const commit = await client.git(aliceKey, ['commit', '-q', '-m', message], dir);
  if (add.code !== 0 || commit.code !== 0) throw new Error(`commit failed: ${add.stderr}${commit.stderr}`);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-ssh-'));
  kiln = await testKiln({ storages: twoShards(work) });
  httpBase = await listenOnLoopback(kiln.app);
  port = (await kiln.listenSsh({ port: 0 })).port;
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  dave = await kiln.createUser('dave');
  [aliceKey, aliceRsa, bobKey, daveKey, strangerKey] = await Promise.all([
    sshKeygen(work, 'alice', 'ed25519'),
    sshKeygen(work, 'alice-rsa', 'rsa', 2048),
    sshKeygen(work, 'bob', 'ed25519'),
    sshKeygen(work, 'dave', 'ecdsa'),
    sshKeygen(work, 'stranger', 'ed25519'),
  ]);
  await addKey(alice, aliceKey, 'laptop');
  await addKey(alice, aliceRsa, 'old laptop');
  await addKey(bob, bobKey, 'bob');
  await addKey(dave, daveKey, 'dave');
  group = await kiln.createGroup(alice, 'team');
  project = await kiln.createProject(alice, 'app', { namespace_id: group.id, visibility: 'private' });
  await kiln.addMember(alice, 'projects', project.id, bob, ACCESS.developer);
  await kiln.addMember(alice, 'projects', project.id, dave, ACCESS.guest);
}, 120_000);
afterAll(async () => {
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

describe('ssh git@host (no command)', () => {
  it('greets the key\'s user as gitlab-shell does', async () => {
    const result = await client.ssh(aliceKey);
    expect(result.stdout).toBe('Welcome to GitLab, @alice!\n');
    expect(result.code).toBe(0);
  });

  it('refuses a key Kiln does not know: Permission denied (publickey)', async () => {
    const result = await client.ssh(strangerKey);
    expect(result.code).toBe(255);
    expect(result.stderr).toContain('Permission denied (publickey)');
  });

  it('notes when the key was last used', async () => {
    const keys = await kiln.apiAs(alice, 'GET', '/user/keys');
    expect(keys.find((key: any) => key.title === 'laptop').last_used_at).toBe(new Date(kiln.clock.now()).toISOString());
  });
});

describe('git over ssh://git@127.0.0.1:PORT/<namespace>/<project>.git', () => {
  it('as the owner with an ed25519 key: clone the empty repository, push, fetch, and record push events', async () => {
    const dir = join(work, 'owner-clone');
    const clone = await client.git(aliceKey, ['clone', '-q', client.url('team/app.git'), dir]);
    expect(clone.code, clone.stderr).toBe(0);
    await commitIn(dir, 'first commit');
    const push = await client.git(aliceKey, ['push', '-q', 'origin', 'main'], dir);
    expect(push.code, push.stderr).toBe(0);
    const fetch = await client.git(aliceKey, ['fetch', '-q', 'origin'], dir);
    expect(fetch.code, fetch.stderr).toBe(0);
    const events = await kiln.deps.db.selectFrom('events').selectAll().where('project_id', '=', project.id).where('action', '=', 'pushed').execute();
    expect(events).toHaveLength(1);
    expect(Number(events[0].author_id)).toBe(alice.id);
  });

  it('clones with an RSA key, and with the scp-like path git@host:path (no leading slash)', async () => {
    const rsa = await client.git(aliceRsa, ['clone', '-q', client.url('team/app'), join(work, 'rsa-clone')]);
    expect(rsa.code, rsa.stderr).toBe(0);
    const scp = await client.git(aliceKey, ['clone', '-q', 'git@127.0.0.1:team/app.git', join(work, 'scp-clone')], work, { GIT_SSH_COMMAND: `${sshCommand(aliceKey)} -p ${port}` });
    expect(scp.code, scp.stderr).toBe(0);
  });

  it('speaks protocol v2 when git asks for it (GIT_PROTOCOL)', async () => {
    const result = await client.git(aliceKey, ['-c', 'protocol.version=2', 'ls-remote', client.url('team/app.git')], work, { GIT_TRACE_PACKET: '1' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('version 2');
    expect(result.stdout).toContain('refs/heads/main');
  });

  it('as a developer: a push to the protected default branch is refused with the same message as over HTTP', async () => {
    const dir = join(work, 'bob-clone');
    expect((await client.git(bobKey, ['clone', '-q', client.url('team/app.git'), dir])).code).toBe(0);
    await commitIn(dir, 'bob on main');
    const push = await client.git(bobKey, ['push', 'origin', 'main'], dir);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('You are not allowed to push code to protected branches on this project.');
    // A branch of their own goes through.
    const branch = await client.git(bobKey, ['push', '-q', 'origin', 'main:feature'], dir);
    expect(branch.code, branch.stderr).toBe(0);
  });

  it('as a Guest of a private project: refused with the download message', async () => {
    const result = await client.git(daveKey, ['clone', '-q', client.url('team/app.git'), join(work, 'dave-clone')]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('remote: ERROR: You are not allowed to download code from this project.');
  });

  it('as a non-member: the project does not exist for them', async () => {
    const stranger = await kiln.createUser('carol');
    const key = await sshKeygen(work, 'carol', 'ed25519');
    await addKey(stranger, key, 'carol');
    const result = await client.git(key, ['clone', '-q', client.url('team/app.git'), join(work, 'carol-clone')]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("The project you were looking for could not be found or you don't have permission to view it.");
  });

  it('as a blocked user: refused with "Your account has been blocked."', async () => {
    const eve = await kiln.createUser('eve');
    const key = await sshKeygen(work, 'eve', 'ed25519');
    await addKey(eve, key, 'eve');
    await kiln.apiAs(kiln.root, 'POST', `/users/${eve.id}/block`);
    const result = await client.git(key, ['ls-remote', client.url('team/app.git')]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Your account has been blocked.');
  });

  it('a push to a group wiki while the group is read-only (a storage move) is refused with the same message as over HTTP', async () => {
    const dir = join(work, 'wiki');
    expect((await client.git(aliceKey, ['clone', '-q', client.url('team.wiki.git'), dir])).code).toBe(0);
    await commitIn(dir, 'wiki page');
    await kiln.deps.db.updateTable('namespaces').set({ read_only: 1 }).where('id', '=', group.id).execute();
    try {
      const ssh = await client.git(aliceKey, ['push', 'origin', 'main'], dir);
      expect(ssh.code).not.toBe(0);
      expect(ssh.stderr).toContain('The repository is temporarily read-only. Please try again later.');
      const http = await client.git(aliceKey, ['push', `${httpBase.replace('http://', `http://alice:${alice.token}@`)}/team.wiki.git`, 'main'], dir);
      expect(http.code).not.toBe(0);
      expect(http.stderr).toContain('The repository is temporarily read-only. Please try again later.');
    } finally {
      await kiln.deps.db.updateTable('namespaces').set({ read_only: 0 }).where('id', '=', group.id).execute();
    }
  });
});

describe('GET /help/instance_configuration', () => {
  it('shows the fingerprints of the host keys the server presents (ssh-keyscan | ssh-keygen -l)', async () => {
    const scanned = await new Promise<string>((resolve) => execFile('sh', ['-c', `ssh-keyscan -p ${port} -t ed25519,rsa 127.0.0.1 2>/dev/null | ssh-keygen -lf -`], (_error, stdout) => resolve(stdout)));
    const fingerprints = [...scanned.matchAll(/SHA256:[A-Za-z0-9+/]+/g)].map((match) => match[0]);
    expect(fingerprints).toHaveLength(2);
    const page = await kiln.request('GET', '/help/instance_configuration');
    expect(page.statusCode).toBe(200);
    for (const fingerprint of fingerprints) expect(page.body).toContain(fingerprint);
    expect(page.body).toContain('ssh://git@kiln.test:2222/&lt;namespace&gt;/&lt;project&gt;.git');
  });
});

describe('ssh_url_to_repo', () => {
  it('names the SSH port when it is not 22, in the project and in listings', async () => {
    const expected = 'ssh://git@kiln.test:2222/team/app.git';
    expect((await kiln.apiAs(alice, 'GET', `/projects/${project.id}`)).ssh_url_to_repo).toBe(expected);
    const listed = await kiln.apiAs(alice, 'GET', '/projects?membership=true');
    expect(listed.find((entry: any) => entry.id === project.id).ssh_url_to_repo).toBe(expected);
  });
});

describe('other commands', () => {
  it('refuses an unknown command with gitlab-sshd\'s message and exit 128', async () => {
    const result = await client.ssh(aliceKey, ['ls', '-la']);
    expect(result.code).toBe(128);
    expect(result.stderr).toContain('remote: ERROR: Unknown command: ls -la');
  });

  it('refuses paths with .. and option-like arguments as projects that do not exist', async () => {
    for (const path of ["'../../etc/passwd'", "'team/../team/app.git'", "'--upload-pack=touch /tmp/x'"]) {
      const result = await client.ssh(aliceKey, ['git-upload-pack', path]);
      expect(result.code, path).toBe(1);
      expect(result.stderr, path).toContain("The project you were looking for could not be found or you don't have permission to view it.");
    }
    const extra = await client.ssh(aliceKey, ['git-upload-pack', 'team/app.git', '--strict']);
    expect(extra.stderr).toContain('ERROR: Disallowed command');
  });

  it('personal_access_token prints a new token that works on the API', async () => {
    const result = await client.ssh(aliceKey, ['personal_access_token', 'cli', 'read_api,read_user', '7']);
    expect(result.code, result.stderr).toBe(0);
    const token = /^Token: {3}(\S+)$/m.exec(result.stdout)![1];
    expect(result.stdout).toContain('Scopes:  read_api,read_user\n');
    expect(result.stdout).toContain('Expires: 2026-11-30\n');
    expect((await kiln.api('GET', '/user', { token })).body.username).toBe('alice');
    const bad = await client.ssh(aliceKey, ['personal_access_token', 'cli', 'nope']);
    expect(bad.stderr).toContain("Invalid scope: 'nope'. Valid scopes are: [");
    const usage = await client.ssh(aliceKey, ['personal_access_token']);
    expect(usage.stderr).toContain('Usage: personal_access_token <name> <scope1[,scope2,...]> [ttl_days]');
  });

  it('2fa_recovery_codes without two-factor authentication generates nothing', async () => {
    const no = await client.ssh(aliceKey, ['2fa_recovery_codes'], 'no\n');
    expect(no.stdout).toContain('New recovery codes have *not* been generated. Existing codes will remain valid.');
    const yes = await client.ssh(aliceKey, ['2fa_recovery_codes'], 'yes\n');
    expect(yes.stdout).toContain('Two-factor authentication is not enabled for this user');
  });
});

describe('an account kept out for its unconfirmed primary address', () => {
  it('may not use git over SSH while kept out (GitLab\'s message), and may again once the address is confirmed', async () => {
    const unconfirmed = () => kiln.deps.db.updateTable('emails').set({ confirmed_at: null }).where('user_id', '=', bob.id).execute();
    const confirmed = () => kiln.deps.db.updateTable('emails').set({ confirmed_at: kiln.clock.now() }).where('user_id', '=', bob.id).execute();
    const setting = async (value: string) => expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { email_confirmation_setting: value } })).status).toBe(200);
    await unconfirmed();
    await setting('hard');
    try {
      const clone = await client.git(bobKey, ['clone', '-q', client.url('team/app.git'), join(work, 'unconfirmed-clone')]);
      expect(clone.code).not.toBe(0);
      expect(clone.stderr).toContain(`Your primary email address is not confirmed. Please check your inbox for the confirmation instructions. In case the link is expired, you can request a new confirmation email at ${kiln.config.baseUrl}/users/confirmation/new`);
      const lfs = await client.ssh(bobKey, ['git-lfs-authenticate', 'team/app.git', 'download']);
      expect(lfs.stderr).toContain('Your primary email address is not confirmed.');
      // Off, an unconfirmed address keeps nobody out.
      await setting('off');
      expect((await client.git(bobKey, ['clone', '-q', client.url('team/app.git'), join(work, 'unconfirmed-allowed')])).code).toBe(0);
      await setting('hard');
      await confirmed();
      expect((await client.git(bobKey, ['clone', '-q', client.url('team/app.git'), join(work, 'confirmed-clone')])).code).toBe(0);
    } finally {
      await confirmed();
      await setting('off');
    }
  });
});
