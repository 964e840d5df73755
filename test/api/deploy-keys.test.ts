// Deploy keys: GitLab's API (instance list and public keys for administrators, a project's keys for
// its maintainers, enabling a key on another project) and their use with OpenSSH's client — a
// read-only key clones and cannot push, a `can_push` key pushes to unprotected branches only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { twoShards } from '../helpers/git.js';
import { sshClient, sshKeygen, type SshKeyPair } from '../helpers/ssh.js';

let kiln: TestKiln;
let work: string;
let port: number;
const client = sshClient(() => work, () => port);
let alice: TestUser;
let bob: TestUser;
let aliceKey: SshKeyPair;
let readKey: SshKeyPair;
let pushKey: SshKeyPair;
let project: any;
let other: any;

/** Clone the project with the key into `dir` and commit one new file there. */
async function cloneAndCommit(key: SshKeyPair, dir: string, file: string): Promise<void> {
  const clone = await client.git(key, ['clone', '-q', client.url('alice/app.git'), dir]);
  expect(clone.code, clone.stderr).toBe(0);
  writeFileSync(join(dir, file), `${file}\n`);
  await client.git(key, ['add', '.'], dir);
  await client.git(key, ['commit', '-q', '-m', file], dir);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-deploy-keys-'));
  kiln = await testKiln({ storages: twoShards(work) });
  port = (await kiln.listenSsh({ port: 0 })).port;
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  [aliceKey, readKey, pushKey] = await Promise.all([sshKeygen(work, 'alice', 'ed25519'), sshKeygen(work, 'reader', 'ed25519'), sshKeygen(work, 'pusher', 'rsa', 2048)]);
  await kiln.apiAs(alice, 'POST', '/user/keys', { title: 'laptop', key: aliceKey.publicKey });
  project = await kiln.createProject(alice, 'app', { visibility: 'private' });
  other = await kiln.createProject(alice, 'other', { visibility: 'private' });
  await kiln.addMember(alice, 'projects', project.id, bob, ACCESS.developer);
  // The first commit, pushed by the owner over SSH.
  const dir = join(work, 'seed');
  await cloneAndCommit(aliceKey, dir, 'README.md');
  const push = await client.git(aliceKey, ['push', '-q', 'origin', 'main'], dir);
  expect(push.code, push.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

describe('/projects/:id/deploy_keys', () => {
  it('adds a read-only key and a key with push access, listed with their fingerprints and can_push', async () => {
    const added = await kiln.api('POST', `/projects/${project.id}/deploy_keys`, { token: alice.token, body: { title: 'ci', key: readKey.publicKey } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ title: 'ci', key: readKey.publicKey, can_push: false, expires_at: null });
    expect(added.body.fingerprint).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    expect(added.body.fingerprint_sha256).toMatch(/^SHA256:/);
    const pusher = await kiln.apiAs(alice, 'POST', `/projects/${project.id}/deploy_keys`, { title: 'release', key: pushKey.publicKey, can_push: true });
    expect(pusher.can_push).toBe(true);
    const listed = await kiln.apiAs(alice, 'GET', `/projects/${project.id}/deploy_keys`);
    expect(listed.map((key: any) => [key.title, key.can_push])).toEqual([['ci', false], ['release', true]]);
    const one = await kiln.apiAs(alice, 'GET', `/projects/${project.id}/deploy_keys/${added.body.id}`);
    expect(one.id).toBe(added.body.id);
  });

  it('answers the key a project already has again, and refuses a user\'s SSH key as taken', async () => {
    const again = await kiln.api('POST', `/projects/${project.id}/deploy_keys`, { token: alice.token, body: { title: 'ci again', key: readKey.publicKey } });
    expect(again.status).toBe(201);
    expect(again.body.title).toBe('ci');
    const taken = await kiln.api('POST', `/projects/${project.id}/deploy_keys`, { token: alice.token, body: { title: 'mine', key: aliceKey.publicKey } });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toEqual({ fingerprint_sha256: ['has already been taken'] });
    const bad = await kiln.api('POST', `/projects/${project.id}/deploy_keys`, { token: alice.token, body: { title: 'x', key: 'not a key' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message.key).toEqual(['is invalid']);
    const missing = await kiln.api('POST', `/projects/${project.id}/deploy_keys`, { token: alice.token, body: { key: readKey.publicKey } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('title is missing');
  });

  it('is for maintainers: a developer is refused, a stranger does not see the project', async () => {
    expect((await kiln.api('GET', `/projects/${project.id}/deploy_keys`, { token: bob.token })).status).toBe(403);
    const carol = await kiln.createUser('carol');
    expect((await kiln.api('GET', `/projects/${project.id}/deploy_keys`, { token: carol.token })).status).toBe(404);
  });

  it('PUT changes can_push and the title, and wants one of them', async () => {
    const keys = await kiln.apiAs(alice, 'GET', `/projects/${project.id}/deploy_keys`);
    const ci = keys.find((key: any) => key.title === 'ci');
    const none = await kiln.api('PUT', `/projects/${project.id}/deploy_keys/${ci.id}`, { token: alice.token, body: {} });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('title, can_push are missing, at least one parameter must be provided');
    const renamed = await kiln.apiAs(alice, 'PUT', `/projects/${project.id}/deploy_keys/${ci.id}`, { title: 'ci reader', can_push: true });
    expect(renamed).toMatchObject({ title: 'ci reader', can_push: true });
    const back = await kiln.apiAs(alice, 'PUT', `/projects/${project.id}/deploy_keys/${ci.id}`, { can_push: false });
    expect(back).toMatchObject({ title: 'ci reader', can_push: false });
    expect((await kiln.api('PUT', `/projects/${project.id}/deploy_keys/999999`, { token: alice.token, body: { can_push: true } })).status).toBe(404);
  });

  it('enables a key of one project on another the user maintains, read-only; a stranger cannot enable it', async () => {
    const keys = await kiln.apiAs(alice, 'GET', `/projects/${project.id}/deploy_keys`);
    const release = keys.find((key: any) => key.title === 'release');
    const enabled = await kiln.api('POST', `/projects/${other.id}/deploy_keys/${release.id}/enable`, { token: alice.token });
    expect(enabled.status).toBe(201);
    expect(enabled.body.id).toBe(release.id);
    const listed = await kiln.apiAs(alice, 'GET', `/projects/${other.id}/deploy_keys`);
    expect(listed.map((key: any) => [key.id, key.can_push])).toEqual([[release.id, false]]);
    const carol = await kiln.apiAs(kiln.root, 'GET', '/users?username=carol');
    const carolToken = (await kiln.apiAs(kiln.root, 'POST', `/users/${carol[0].id}/personal_access_tokens`, { name: 't', scopes: ['api'] })).token;
    const own = await kiln.api('POST', '/projects', { token: carolToken, body: { name: 'mine', path: 'mine' } });
    const refused = await kiln.api('POST', `/projects/${own.body.id}/deploy_keys/${release.id}/enable`, { token: carolToken });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('404 Deploy Key Not Found');
  });

  it('DELETE removes the key from one project; a key enabled nowhere else and not public is deleted', async () => {
    const keys = await kiln.apiAs(alice, 'GET', `/projects/${other.id}/deploy_keys`);
    expect((await kiln.api('DELETE', `/projects/${other.id}/deploy_keys/${keys[0].id}`, { token: alice.token })).status).toBe(204);
    expect(await kiln.apiAs(alice, 'GET', `/projects/${other.id}/deploy_keys`)).toEqual([]);
    // Still enabled on the first project.
    expect((await kiln.apiAs(alice, 'GET', `/projects/${project.id}/deploy_keys/${keys[0].id}`)).id).toBe(keys[0].id);
    const lonely = await kiln.apiAs(alice, 'POST', `/projects/${other.id}/deploy_keys`, { title: 'lonely', key: (await sshKeygen(work, 'lonely', 'ed25519')).publicKey });
    expect((await kiln.api('DELETE', `/projects/${other.id}/deploy_keys/${lonely.id}`, { token: alice.token })).status).toBe(204);
    expect(await kiln.deps.db.selectFrom('keys').select('id').where('id', '=', lonely.id).executeTakeFirst()).toBeUndefined();
    expect((await kiln.api('DELETE', `/projects/${other.id}/deploy_keys/${lonely.id}`, { token: alice.token })).status).toBe(404);
  });
});

describe('/deploy_keys (administrators)', () => {
  it('creates a public key that any maintainer may enable, and lists every deploy key', async () => {
    const publicKey = (await sshKeygen(work, 'public', 'ed25519')).publicKey;
    expect((await kiln.api('POST', '/deploy_keys', { token: alice.token, body: { title: 'p', key: publicKey } })).status).toBe(403);
    const created = await kiln.api('POST', '/deploy_keys', { token: kiln.root.token, body: { title: 'shared', key: publicKey } });
    expect(created.status).toBe(201);
    const all = await kiln.apiAs(kiln.root, 'GET', '/deploy_keys');
    expect(all.map((key: any) => key.title)).toEqual(['ci reader', 'release', 'shared']);
    expect((await kiln.apiAs(kiln.root, 'GET', '/deploy_keys?public=true')).map((key: any) => key.title)).toEqual(['shared']);
    expect((await kiln.api('GET', '/deploy_keys', { token: alice.token })).status).toBe(403);
    const enabled = await kiln.api('POST', `/projects/${other.id}/deploy_keys/${created.body.id}/enable`, { token: alice.token });
    expect(enabled.status).toBe(201);
    // Removing a public key from its last project keeps it.
    await kiln.api('DELETE', `/projects/${other.id}/deploy_keys/${created.body.id}`, { token: alice.token });
    expect((await kiln.apiAs(kiln.root, 'GET', '/deploy_keys?public=true')).length).toBe(1);
  });
});

describe('deploy keys over SSH', () => {
  it('ssh git@host greets a deploy key as Anonymous', async () => {
    const result = await client.ssh(readKey);
    expect(result.stdout).toBe('Welcome to GitLab, Anonymous!\n');
  });

  it('a read-only key clones and cannot push', async () => {
    const dir = join(work, 'reader-clone');
    await cloneAndCommit(readKey, dir, 'x.txt');
    const push = await client.git(readKey, ['push', 'origin', 'HEAD:feature'], dir);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('This deploy key does not have write access to this project.');
  });

  it('a key with push access pushes a branch, and is refused on the protected default branch', async () => {
    const dir = join(work, 'pusher-clone');
    await cloneAndCommit(pushKey, dir, 'y.txt');
    const branch = await client.git(pushKey, ['push', '-q', 'origin', 'HEAD:release'], dir);
    expect(branch.code, branch.stderr).toBe(0);
    const main = await client.git(pushKey, ['push', 'origin', 'HEAD:main'], dir);
    expect(main.code).not.toBe(0);
    expect(main.stderr).toContain('You are not allowed to push code to protected branches on this project.');
  });

  it('a key not enabled on a project finds no project there', async () => {
    const result = await client.git(pushKey, ['ls-remote', client.url('alice/other.git')]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("The project you were looking for could not be found or you don't have permission to view it.");
  });
});
