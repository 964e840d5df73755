// Users' SSH keys through the API (GitLab's /user/keys, /users/:id/keys, /keys): validation as
// GitLab's Key model, the restriction settings, fingerprints, and the e-mail a new key sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { notifyKeyExpiry } from '../../src/keys/notify-key-expiry.js';
import { ed25519PublicKey, rsaPublicKey, sshString } from '../helpers/ssh.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;

const ed25519 = () => ed25519PublicKey('alice@laptop');
const rsa = (bits: number) => rsaPublicKey(bits);
const field = sshString;

/** A DSA public key line with a 1024-bit p (random numbers: only its shape matters here). */
function dsaKey(): string {
  const p = Buffer.concat([Buffer.from([0x00, 0x80]), randomBytes(127)]);
  const blob = Buffer.concat([field('ssh-dss'), field(p), field(randomBytes(20)), field(randomBytes(128)), field(randomBytes(128))]);
  return `ssh-dss ${blob.toString('base64')} dsa@test`;
}

/** A FIDO security key (sk-ssh-ed25519@openssh.com, PROTOCOL.u2f). */
function skKey(): string {
  const blob = Buffer.concat([field('sk-ssh-ed25519@openssh.com'), field(randomBytes(32)), field('ssh:')]);
  return `sk-ssh-ed25519@openssh.com ${blob.toString('base64')} yubikey`;
}

function sha256Of(line: string): string {
  return createHash('sha256').update(Buffer.from(line.split(' ')[1], 'base64')).digest('base64').replace(/=+$/, '');
}

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
});
afterAll(async () => {
  await kiln.close();
});

describe('POST /user/keys', () => {
  it('as a user adds an ed25519 key: 201 with GitLab\'s fields, the comment replaced by name and host', async () => {
    const key = ed25519();
    const response = await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: 'laptop', key } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      title: 'laptop',
      created_at: '2026-11-22T08:00:00.000Z',
      expires_at: null,
      last_used_at: null,
      key: `${key.split(' ').slice(0, 2).join(' ')} User alice (kiln.test)`,
      usage_type: 'auth_and_signing',
    });
  });

  it('sends the owner an e-mail that a key was added', async () => {
    const outbox = await kiln.deps.db.selectFrom('email_outbox').selectAll().where('to_address', '=', 'alice@example.com').execute();
    expect(outbox.map((mail) => mail.subject)).toContain('SSH key was added to your account');
  });

  it('takes expires_at and usage_type', async () => {
    const response = await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: 'ci', key: ed25519(), expires_at: '2027-01-31T00:00:00Z', usage_type: 'auth' } });
    expect(response.status).toBe(201);
    expect(response.body.expires_at).toBe('2027-01-31T00:00:00.000Z');
    expect(response.body.usage_type).toBe('auth');
  });

  it('refuses a key already added (by anyone) as GitLab does', async () => {
    const key = ed25519();
    expect((await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: 'one', key } })).status).toBe(201);
    const again = await kiln.api('POST', '/user/keys', { token: bob.token, body: { title: 'two', key } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: { fingerprint_sha256: ['has already been taken'] } });
  });

  it('refuses RSA keys under 2048 bits and DSA keys (the default restrictions), naming the allowed types', async () => {
    const small = await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: 'old', key: rsa(1024) } });
    expect(small.status).toBe(400);
    expect(small.body.message.key).toEqual(['must be at least 2048 bits']);
    const dsa = await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: 'dsa', key: dsaKey() } });
    expect(dsa.status).toBe(400);
    expect(dsa.body.message.key).toEqual(['type is forbidden. Must be RSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK']);
    expect((await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: 'rsa', key: rsa(2048) } })).status).toBe(201);
  });

  it('accepts FIDO security keys (sk-ssh-ed25519@openssh.com)', async () => {
    const response = await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: 'yubikey', key: skKey() } });
    expect(response.status).toBe(201);
  });

  it('follows the restriction settings an administrator changes', async () => {
    expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { ed25519_key_restriction: -1 } })).status).toBe(200);
    try {
      const refused = await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: 'ed', key: ed25519() } });
      expect(refused.body.message.key).toEqual(['type is forbidden. Must be RSA, ECDSA, ECDSA_SK, or ED25519_SK']);
      const bad = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { rsa_key_restriction: 1000 } });
      expect(bad.status).toBe(400);
    } finally {
      await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { ed25519_key_restriction: 0 } });
    }
  });

  it('refuses what is no public key, a missing title, and an expiry in the past', async () => {
    const garbage = await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: 'x', key: 'ssh-ed25519 AAAAnotakey' } });
    expect(garbage.status).toBe(400);
    expect(garbage.body.message.fingerprint_sha256).toEqual(['cannot be generated']);
    const other = await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: 'x', key: 'hello world' } });
    expect(other.body.message.key).toEqual(['is invalid']);
    const blank = await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: ' ', key: ed25519() } });
    expect(blank.body.message.title).toEqual(["can't be blank"]);
    const expired = await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: 'x', key: ed25519(), expires_at: '2020-01-01' } });
    expect(expired.body.message.key).toEqual(['has expired']);
    const usage = await kiln.api('POST', '/user/keys', { token: alice.token, body: { title: 'x', key: ed25519(), usage_type: 'everything' } });
    expect(usage.status).toBe(400);
    expect(usage.body.error).toBe('usage_type does not have a valid value');
  });
});

describe('GET and DELETE /user/keys/:key_id', () => {
  it('as the owner reads and removes the key; another user gets 404', async () => {
    const created = await kiln.apiAs(bob, 'POST', '/user/keys', { title: 'bob', key: ed25519() });
    expect((await kiln.api('GET', `/user/keys/${created.id}`, { token: alice.token })).status).toBe(404);
    expect((await kiln.api('DELETE', `/user/keys/${created.id}`, { token: alice.token })).status).toBe(404);
    expect((await kiln.api('GET', `/user/keys/${created.id}`, { token: bob.token })).body.title).toBe('bob');
    expect((await kiln.api('DELETE', `/user/keys/${created.id}`, { token: bob.token })).status).toBe(204);
    expect((await kiln.api('GET', `/user/keys/${created.id}`, { token: bob.token })).status).toBe(404);
  });
});

describe('GET /users/:id_or_username/keys', () => {
  it('anonymously lists a user\'s keys, by id or username', async () => {
    const byName = await kiln.api('GET', '/users/alice/keys');
    expect(byName.status).toBe(200);
    expect(byName.body.length).toBeGreaterThan(2);
    expect((await kiln.api('GET', `/users/${alice.id}/keys`)).body).toEqual(byName.body);
    expect((await kiln.api('GET', '/users/nobody/keys')).status).toBe(404);
  });
});

describe('POST and DELETE /users/:id/keys (administrators)', () => {
  it('as an administrator adds and removes a key of another user; a user may not', async () => {
    expect((await kiln.api('POST', `/users/${bob.id}/keys`, { token: alice.token, body: { title: 'x', key: ed25519() } })).status).toBe(403);
    const created = await kiln.api('POST', `/users/${bob.id}/keys`, { token: kiln.root.token, body: { title: 'given', key: ed25519() } });
    expect(created.status).toBe(201);
    expect(created.body.key).toContain('User bob (kiln.test)');
    expect((await kiln.api('DELETE', `/users/${bob.id}/keys/${created.body.id}`, { token: kiln.root.token })).status).toBe(204);
  });
});

describe('GET /keys/:id and /keys?fingerprint= (administrators)', () => {
  it('finds a key with its user by id, by SHA256 and by MD5 fingerprint', async () => {
    const line = ed25519();
    const created = await kiln.apiAs(alice, 'POST', '/user/keys', { title: 'find me', key: line });
    const byId = await kiln.api('GET', `/keys/${created.id}`, { token: kiln.root.token });
    expect(byId.body.user.username).toBe('alice');
    const bySha = await kiln.api('GET', '/keys', { token: kiln.root.token, query: { fingerprint: `SHA256:${sha256Of(line)}` } });
    expect(bySha.body.id).toBe(created.id);
    const md5 = createHash('md5').update(Buffer.from(line.split(' ')[1], 'base64')).digest('hex').match(/../g)!.join(':');
    expect((await kiln.api('GET', '/keys', { token: kiln.root.token, query: { fingerprint: md5 } })).body.id).toBe(created.id);
  });

  it("finds a deploy key as GitLab's DeployKeyWithUser: its text as given, its creator and the projects it is enabled on", async () => {
    const project = await kiln.createProject(alice, 'deployed');
    const line = ed25519();
    const created = await kiln.apiAs(alice, 'POST', `/projects/${project.id}/deploy_keys`, { title: 'deployer', key: line, can_push: true });
    const found = await kiln.api('GET', '/keys', { token: kiln.root.token, query: { fingerprint: `SHA256:${sha256Of(line)}` } });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: created.id, title: 'deployer', key: line, fingerprint: created.fingerprint, fingerprint_sha256: `SHA256:${sha256Of(line)}`, user: { username: 'alice' } });
    expect(found.body.deploy_keys_projects).toEqual([{ id: expect.any(Number), deploy_key_id: created.id, project_id: project.id, can_push: true, created_at: expect.any(String), updated_at: expect.any(String) }]);
    // A user's key has no such list, and its text is the publishable one.
    const own = ed25519();
    await kiln.apiAs(alice, 'POST', '/user/keys', { title: 'own', key: own });
    const user = (await kiln.api('GET', '/keys', { token: kiln.root.token, query: { fingerprint: `SHA256:${sha256Of(own)}` } })).body;
    expect(user.deploy_keys_projects).toBeUndefined();
    expect(user.key).not.toBe(own);
  });

  it('answers GitLab\'s 400 for a malformed fingerprint, 404 for an unknown one, 403 to non-administrators', async () => {
    expect((await kiln.api('GET', '/keys', { token: kiln.root.token, query: { fingerprint: 'nope' } })).body).toEqual({ message: 'Failed to return the key' });
    expect((await kiln.api('GET', '/keys', { token: kiln.root.token, query: { fingerprint: `SHA256:${'A'.repeat(43)}` } })).body).toEqual({ message: '404 Key Not Found' });
    expect((await kiln.api('GET', '/keys/1', { token: alice.token })).status).toBe(403);
  });
});

describe('the daily key expiry e-mails', () => {
  it('tells the owner a week before a key expires and once it has expired, each once', async () => {
    const carol = await kiln.createUser('carol');
    await kiln.apiAs(carol, 'POST', '/user/keys', { title: 'short-lived', key: ed25519(), expires_at: '2026-11-28T08:00:00Z' });
    await kiln.apiAs(carol, 'POST', '/user/keys', { title: 'long-lived', key: ed25519(), expires_at: '2027-11-30T08:00:00Z' });
    const subjects = async () => (await kiln.deps.db.selectFrom('email_outbox').select('subject').where('to_address', '=', 'carol@example.com').orderBy('id').execute()).map((row) => row.subject);
    const before = (await subjects()).length;
    await notifyKeyExpiry(kiln.deps);
    await notifyKeyExpiry(kiln.deps);
    expect((await subjects()).slice(before)).toEqual(['Your SSH key is expiring soon.']);
    kiln.clock.advance(7 * 86_400_000);
    await notifyKeyExpiry(kiln.deps);
    await notifyKeyExpiry(kiln.deps);
    expect((await subjects()).slice(before)).toEqual(['Your SSH key is expiring soon.', 'Your SSH key has expired']);
  });
});
