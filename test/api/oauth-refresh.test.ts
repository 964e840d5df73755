import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { basic, expectNoStore, registerApp, tokenCount, tokenRequest, tokensFor, type TestApp } from './oauth-driver.js';

let kiln: TestKiln;
let alice: TestUser;
let app: TestApp;
let other: TestApp;
let spa: TestApp;

beforeAll(async () => {
  kiln = await testKiln({ protectedPathsPerMinute: 10_000 });
  alice = await kiln.createUser('alice');
  app = await registerApp(kiln);
  other = await registerApp(kiln, { name: 'Other' });
  spa = await registerApp(kiln, { confidential: false, name: 'SPA' });
});
afterAll(() => kiln.close());

const refresh = (client: TestApp, refreshToken: string, extra: Record<string, string> = {}) =>
  tokenRequest(kiln, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.clientId, client_secret: client.secret, ...extra });

const apiUser = (token: string) => kiln.api('GET', '/user', { headers: { authorization: `Bearer ${token}` } });

describe('POST /oauth/token grant_type=refresh_token', () => {
  it('rotates: new access and refresh token, the old pair stops working', async () => {
    const first = await tokensFor(kiln, alice, app, { scope: 'api read_user' });
    const { status, body, headers } = await refresh(app, first.refresh_token);
    expect(status).toBe(200);
    expectNoStore(headers);
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 7200, scope: 'api read_user' });
    expect(body.refresh_token).not.toBe(first.refresh_token);
    expect(body.access_token).not.toBe(first.access_token);
    expect((await apiUser(body.access_token)).status).toBe(200);
    const old = await apiUser(first.access_token);
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('invalid_token');
  });

  it('reuse of a rotated refresh token is invalid_grant and revokes the whole family', async () => {
    const first = await tokensFor(kiln, alice, app);
    const second = (await refresh(app, first.refresh_token)).body;
    const third = (await refresh(app, second.refresh_token)).body;
    expect((await apiUser(third.access_token)).status).toBe(200);
    const before = await tokenCount(kiln);
    const reuse = await refresh(app, first.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    expect(reuse.body.access_token).toBeUndefined();
    expect(await tokenCount(kiln)).toBe(before);
    expect((await apiUser(third.access_token)).status).toBe(401);
    expect((await refresh(app, third.refresh_token)).body.error).toBe('invalid_grant');
  });

  // On SQLite the uses of one turn share a commit (the refresh grant is a group-commit work).
  it.each([2, 6])('of %i simultaneous uses of one refresh token one rotates, and the rest, as reuse, revoke what it issued', async (uses) => {
    const first = await tokensFor(kiln, alice, app);
    const before = await tokenCount(kiln);
    const results = await Promise.all(Array.from({ length: uses }, () => refresh(app, first.refresh_token)));
    expect(results.map((result) => result.status).sort()).toEqual([200, ...Array(uses - 1).fill(400)]);
    expect(await tokenCount(kiln)).toBe(before + 1);
    const winner = results.find((result) => result.status === 200)!.body;
    expect((await apiUser(winner.access_token)).status).toBe(401);
    expect((await refresh(app, winner.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('can narrow the scope but never widen it (invalid_scope)', async () => {
    const first = await tokensFor(kiln, alice, app, { scope: 'api read_user' });
    const wider = await refresh(app, first.refresh_token, { scope: 'api read_user openid' });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
    const narrower = await refresh(app, first.refresh_token, { scope: 'read_user' });
    expect(narrower.status).toBe(200);
    expect(narrower.body.scope).toBe('read_user');
  });

  it('is bound to its client: another client gets invalid_grant, no credentials invalid_client', async () => {
    const first = await tokensFor(kiln, alice, app);
    const foreign = await refresh(other, first.refresh_token);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe('invalid_grant');
    const anonymous = await tokenRequest(kiln, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('invalid_client');
    expect((await refresh(app, first.refresh_token)).status).toBe(200);
  });

  it('wrong client secret by Basic is 401 invalid_client', async () => {
    const first = await tokensFor(kiln, alice, app);
    const result = await tokenRequest(kiln, { grant_type: 'refresh_token', refresh_token: first.refresh_token }, { authorization: basic(app.clientId, 'nope') });
    expect(result.status).toBe(401);
    expect(result.body.error).toBe('invalid_client');
  });

  it('a public client refreshes with its id alone', async () => {
    const { createHash, randomBytes } = await import('node:crypto');
    const verifier = randomBytes(32).toString('base64url');
    const first = await (async () => {
      const { codeFor } = await import('./oauth-driver.js');
      const code = await codeFor(kiln, alice, spa, { code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' });
      return (await tokenRequest(kiln, { grant_type: 'authorization_code', code, redirect_uri: spa.redirectUri, client_id: spa.clientId, code_verifier: verifier })).body;
    })();
    const result = await tokenRequest(kiln, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: spa.clientId });
    expect(result.status).toBe(200);
  });

  it('refuses unknown and missing refresh tokens', async () => {
    expect((await refresh(app, 'f'.repeat(64))).body.error).toBe('invalid_grant');
    const missing = await tokenRequest(kiln, { grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.secret });
    expect(missing.body).toEqual({ error: 'invalid_request', error_description: 'Missing required parameter: refresh_token.' });
  });

  it('refuses the refresh of a blocked user', async () => {
    const bob = await kiln.createUser('bob');
    const first = await tokensFor(kiln, bob, app);
    await kiln.deps.db.updateTable('users').set({ state: 'blocked' }).where('id', '=', bob.id).execute();
    const result = await refresh(app, first.refresh_token);
    expect(result.status).toBe(400);
    expect(result.body.error).toBe('invalid_grant');
  });
});
