// Users' GPG keys: GitLab's /user/gpg_keys and /users/:id/gpg_keys with keys made by Debian's gpg.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let work: string;
let alice: TestUser;
let bob: TestUser;
let aliceKey: string;
let secondKey: string;

/** A new ed25519 signing key for `uid`, exported armored. */
function gpgKey(uid: string): string {
  const env = { ...process.env, GNUPGHOME: work };
  execFileSync('gpg', ['--batch', '--passphrase', '', '--quick-gen-key', uid, 'ed25519', 'sign', 'never'], { env, stdio: 'ignore' });
  return execFileSync('gpg', ['--armor', '--export', uid], { env, encoding: 'utf8' });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-gpg-'));
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  aliceKey = gpgKey('Alice <alice@example.com>');
  secondKey = gpgKey('Alice Work <alice@work.example>');
}, 60_000);
afterAll(async () => {
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

describe('/user/gpg_keys', () => {
  it('adds a key, reads its fingerprint and e-mails, lists, gets and removes it', async () => {
    const added = await kiln.api('POST', '/user/gpg_keys', { token: alice.token, body: { key: aliceKey } });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ id: expect.any(Number), key: aliceKey.trim(), created_at: new Date(kiln.clock.now()).toISOString() });
    const stored = await kiln.deps.db.selectFrom('gpg_keys').selectAll().where('id', '=', added.body.id).executeTakeFirstOrThrow();
    expect(stored.fingerprint).toMatch(/^[0-9A-F]{40}$/);
    expect(stored.primary_keyid).toBe(stored.fingerprint.slice(-16));
    expect(stored.emails).toBe('alice@example.com');
    expect((await kiln.apiAs(alice, 'GET', '/user/gpg_keys')).map((key: any) => key.id)).toEqual([added.body.id]);
    expect((await kiln.apiAs(alice, 'GET', `/user/gpg_keys/${added.body.id}`)).id).toBe(added.body.id);
    expect((await kiln.api('GET', `/user/gpg_keys/${added.body.id}`, { token: bob.token })).status).toBe(404);
    // Anyone reads a user's public keys.
    expect((await kiln.api('GET', `/users/${alice.id}/gpg_keys`)).body.map((key: any) => key.id)).toEqual([added.body.id]);
    expect((await kiln.api('GET', `/users/alice/gpg_keys/${added.body.id}`)).status).toBe(200);
    expect((await kiln.api('DELETE', `/user/gpg_keys/${added.body.id}`, { token: bob.token })).status).toBe(404);
    expect((await kiln.api('DELETE', `/user/gpg_keys/${added.body.id}`, { token: alice.token })).status).toBe(204);
    expect(await kiln.apiAs(alice, 'GET', '/user/gpg_keys')).toEqual([]);
  });

  it('refuses text that is no armored public key, a key gpg cannot read, and a key already added', async () => {
    const plain = await kiln.api('POST', '/user/gpg_keys', { token: alice.token, body: { key: 'ssh-ed25519 AAAA' } });
    expect(plain.status).toBe(400);
    expect(plain.body.message).toEqual({ key: ['is invalid'] });
    const garbled = await kiln.api('POST', '/user/gpg_keys', { token: alice.token, body: { key: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nnot base64 at all\n-----END PGP PUBLIC KEY BLOCK-----\n' } });
    expect(garbled.status).toBe(400);
    expect(garbled.body.message.fingerprint).toEqual(["can't be blank"]);
    await kiln.apiAs(alice, 'POST', '/user/gpg_keys', { key: aliceKey });
    const taken = await kiln.api('POST', '/user/gpg_keys', { token: bob.token, body: { key: aliceKey } });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toEqual({ fingerprint: ['has already been taken'] });
    expect((await kiln.api('POST', '/user/gpg_keys', { token: alice.token, body: {} })).body.error).toBe('key is missing');
  });
});

describe('/users/:id/gpg_keys (administrators)', () => {
  it('adds and removes a user\'s key; others are refused', async () => {
    expect((await kiln.api('POST', `/users/${bob.id}/gpg_keys`, { token: alice.token, body: { key: secondKey } })).status).toBe(403);
    const added = await kiln.api('POST', `/users/${bob.id}/gpg_keys`, { token: kiln.root.token, body: { key: secondKey } });
    expect(added.status).toBe(201);
    expect((await kiln.apiAs(bob, 'GET', '/user/gpg_keys')).map((key: any) => key.id)).toEqual([added.body.id]);
    expect((await kiln.api('DELETE', `/users/${bob.id}/gpg_keys/${added.body.id}`, { token: kiln.root.token })).status).toBe(204);
    expect((await kiln.api('DELETE', `/users/${bob.id}/gpg_keys/${added.body.id}`, { token: kiln.root.token })).status).toBe(404);
  });
});

describe('/profile/gpg_keys', () => {
  it('adds a key with the form (CSRF required), lists it, shows a refusal with the text kept, and removes it', async () => {
    const web = new WebSession(kiln);
    await web.signIn(bob.username, bob.password);
    const empty = await web.get('/profile/gpg_keys');
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('There are no GPG keys');
    expect(empty.body).toContain('href="/profile/gpg_keys"');

    const forged = await kiln.app.inject({ method: 'POST', url: '/profile/gpg_keys', headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ key: aliceKey }).toString() });
    expect(forged.statusCode).toBe(422);
    expect(await kiln.apiAs(bob, 'GET', '/user/gpg_keys')).toEqual([]);

    const added = await web.post('/profile/gpg_keys', { key: secondKey });
    expect(added.statusCode).toBe(303);
    const listed = await web.get('/profile/gpg_keys');
    expect(listed.body).toContain('The GPG key was added.');
    const [key] = await kiln.apiAs(bob, 'GET', '/user/gpg_keys');
    const row = await kiln.deps.db.selectFrom('gpg_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(listed.body).toContain(row.fingerprint);
    expect(listed.body).toContain('alice@work.example');

    const refused = await web.post('/profile/gpg_keys', { key: '-----BEGIN PGP PUBLIC KEY BLOCK-----\nnot a key\n-----END PGP PUBLIC KEY BLOCK-----' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/role="alert">[\s\S]*can&#39;t be blank|role="alert">[\s\S]*can't be blank/);
    expect(refused.body).toContain('not a key');

    const removed = await web.post(`/profile/gpg_keys/${key.id}/delete`, {}, { csrfFrom: '/profile/gpg_keys' });
    expect(removed.statusCode).toBe(303);
    expect((await web.get('/profile/gpg_keys')).body).toContain('The GPG key was removed.');
    expect(await kiln.apiAs(bob, 'GET', '/user/gpg_keys')).toEqual([]);
  });
});
