import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { sha256Hex } from '../../src/platform/crypto.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
});
afterAll(() => kiln.close());

describe('POST /api/v4/users/:id/personal_access_tokens', () => {
  describe('as an administrator', () => {
    it('creates a token (201) shown once, which then authenticates as that user', async () => {
      const { status, body } = await kiln.api('POST', `/users/${alice.id}/personal_access_tokens`, { token: kiln.root.token, body: { name: 'ci', scopes: ['api', 'read_user'], expires_at: '2027-01-31' } });
      expect(status).toBe(201);
      expect(body).toMatchObject({ name: 'ci', scopes: ['api', 'read_user'], user_id: alice.id, revoked: false, active: true, expires_at: '2027-01-31' });
      expect(body.token).toMatch(/^glpat-/);
      expect((await kiln.api('GET', '/user', { token: body.token })).body.username).toBe('alice');
    });

    it('stores only the SHA-256 digest of the token', async () => {
      const { body } = await kiln.api('POST', `/users/${alice.id}/personal_access_tokens`, { token: kiln.root.token, body: { name: 'digest', scopes: ['read_api'] } });
      const row = await kiln.deps.db.selectFrom('personal_access_tokens').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
      expect(row.token_digest).toBe(sha256Hex(body.token));
      expect(JSON.stringify(row)).not.toContain(body.token);
    });

    it('accepts scopes as a comma-separated form value', async () => {
      const { status, body } = await kiln.api('POST', `/users/${alice.id}/personal_access_tokens`, { token: kiln.root.token, form: { name: 'form', scopes: 'read_api,read_user' } });
      expect(status).toBe(201);
      expect(body.scopes).toEqual(['read_api', 'read_user']);
    });

    it('refuses an unknown scope', async () => {
      const { status, body } = await kiln.api('POST', `/users/${alice.id}/personal_access_tokens`, { token: kiln.root.token, body: { name: 'bad', scopes: ['everything'] } });
      expect(status).toBe(400);
      expect(body.message.scopes).toEqual(['everything is not a valid scope']);
    });

    it('refuses an expiry date in the past', async () => {
      const { status, body } = await kiln.api('POST', `/users/${alice.id}/personal_access_tokens`, { token: kiln.root.token, body: { name: 'old', scopes: ['api'], expires_at: '2020-01-01' } });
      expect(status).toBe(400);
      expect(body.message.expires_at).toEqual(['must be in the future']);
    });

    it('answers 400 "scopes is missing" without scopes', async () => {
      expect((await kiln.api('POST', `/users/${alice.id}/personal_access_tokens`, { token: kiln.root.token, body: { name: 'none' } })).body).toEqual({ error: 'scopes is missing' });
    });

    it.each(['personal_access_tokens', 'impersonation_tokens'])('refuses a sudo or admin_mode %s for a non-administrator, and grants them to an administrator', async (kind) => {
      for (const scope of ['sudo', 'admin_mode']) {
        const { status, body } = await kiln.api('POST', `/users/${alice.id}/${kind}`, { token: kiln.root.token, body: { name: 'escalate', scopes: ['api', scope] } });
        expect(status).toBe(400);
        expect(body).toEqual({ message: { scopes: ['can only contain available scopes'] } });
      }
      const admin = await kiln.createUser(`admin-${kind.length}`, { admin: true });
      const { status, body } = await kiln.api('POST', `/users/${admin.id}/${kind}`, { token: kiln.root.token, body: { name: 'admin sudo', scopes: ['api', 'sudo'] } });
      expect(status).toBe(201);
      expect(body.scopes).toEqual(['api', 'sudo']);
    });

    it('answers 404 User Not Found for an unknown user', async () => {
      expect((await kiln.api('POST', '/users/999999/personal_access_tokens', { token: kiln.root.token, body: { name: 'x', scopes: ['api'] } })).body).toEqual({ message: '404 User Not Found' });
    });
  });

  describe('as a non-administrator', () => {
    it('answers 403', async () => {
      expect((await kiln.api('POST', `/users/${bob.id}/personal_access_tokens`, { token: alice.token, body: { name: 'steal', scopes: ['api'] } })).status).toBe(403);
    });
  });
});

describe('GET /api/v4/personal_access_tokens', () => {
  it('as a user lists only their own tokens', async () => {
    const { status, body } = await kiln.api('GET', '/personal_access_tokens', { token: bob.token });
    expect(status).toBe(200);
    expect(body.length).toBeGreaterThan(0);
    expect(body.every((token: { user_id: number }) => token.user_id === bob.id)).toBe(true);
    expect(body[0].token).toBeUndefined();
  });

  it('as an administrator filters by user_id', async () => {
    const { body } = await kiln.api('GET', `/personal_access_tokens?user_id=${alice.id}`, { token: kiln.root.token });
    expect(body.length).toBeGreaterThan(1);
    expect(body.every((token: { user_id: number }) => token.user_id === alice.id)).toBe(true);
  });
});

describe('GET /api/v4/personal_access_tokens/self', () => {
  it('describes the token used for the request', async () => {
    const { status, body } = await kiln.api('GET', '/personal_access_tokens/self', { token: bob.token });
    expect(status).toBe(200);
    expect(body).toMatchObject({ user_id: bob.id, scopes: ['api'], active: true, revoked: false });
    expect(body.last_used_at).toBe('2026-11-22T08:00:00.000Z');
  });
});

describe('DELETE /api/v4/personal_access_tokens/:id', () => {
  it('revokes the caller\'s own token (204); the token then answers 401', async () => {
    const { body: created } = await kiln.api('POST', `/users/${bob.id}/personal_access_tokens`, { token: kiln.root.token, body: { name: 'short-lived', scopes: ['api'] } });
    expect((await kiln.api('DELETE', `/personal_access_tokens/${created.id}`, { token: bob.token })).status).toBe(204);
    expect((await kiln.api('GET', '/user', { token: created.token })).status).toBe(401);
    const listed = await kiln.api('GET', `/personal_access_tokens?user_id=${bob.id}`, { token: kiln.root.token });
    expect(listed.body.find((token: { id: number }) => token.id === created.id)).toMatchObject({ revoked: true, active: false });
  });

  it('as another non-administrator answers 403 and leaves the token working', async () => {
    const { body: created } = await kiln.api('POST', `/users/${bob.id}/personal_access_tokens`, { token: kiln.root.token, body: { name: 'bobs', scopes: ['api'] } });
    expect((await kiln.api('DELETE', `/personal_access_tokens/${created.id}`, { token: alice.token })).status).toBe(403);
    expect((await kiln.api('GET', '/user', { token: created.token })).status).toBe(200);
  });

  it('answers 404 for an unknown token id', async () => {
    expect((await kiln.api('DELETE', '/personal_access_tokens/999999', { token: alice.token })).status).toBe(404);
  });
});
