import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { sha256Hex } from '../../src/platform/crypto.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { basic, expectNoStore, registerApp, tokenRequest, tokensFor, type TestApp } from './oauth-driver.js';

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

const info = async (options: { bearer?: string; query?: string } = {}) => {
  const response = await kiln.request('GET', `/oauth/token/info${options.query ? `?access_token=${options.query}` : ''}`, {
    headers: options.bearer ? { authorization: `Bearer ${options.bearer}` } : {},
  });
  return { status: response.statusCode, body: JSON.parse(response.body), headers: response.headers };
};

const userinfoOf = async (accessToken: string) =>
  JSON.parse((await kiln.request('GET', '/oauth/userinfo', { headers: { authorization: `Bearer ${accessToken}` } })).body);
const idTokenPayload = (idToken: string) => JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString());
/** A membership that ended before the test clock's today. */
const expireMembership = (groupId: number, user: TestUser) =>
  kiln.deps.db.updateTable('members').set({ expires_at: '2026-11-01' }).where('source_type', '=', 'Namespace').where('source_id', '=', groupId).where('user_id', '=', user.id).execute();

describe('GET /oauth/token/info', () => {
  it('returns the specification fields and the deprecated aliases, by header or by access_token', async () => {
    const tokens = await tokensFor(kiln, alice, app, { scope: 'api read_user' });
    kiln.clock.advance(100_000);
    for (const result of [await info({ bearer: tokens.access_token }), await info({ query: tokens.access_token })]) {
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        resource_owner_id: alice.id,
        scope: ['api', 'read_user'],
        expires_in: 7100,
        application: { uid: app.clientId },
        created_at: tokens.created_at,
        scopes: ['api', 'read_user'],
        expires_in_seconds: 7100,
      });
      expect(result.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('answers nulls for a token without expiry or application', async () => {
    const token = randomBytes(32).toString('hex');
    await kiln.deps.db
      .insertInto('oauth_access_tokens')
      .values({
        application_id: null, user_id: alice.id, token_digest: sha256Hex(token), refresh_digest: null, previous_refresh_digest: null,
        scopes: 'read_user', expires_in: null, family_id: randomBytes(16).toString('hex'), grant_id: null, rotated_at: null, revoked_at: null, created_at: 1_700_000_000_999,
      })
      .execute();
    const result = await info({ bearer: token });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      resource_owner_id: alice.id, scope: ['read_user'], expires_in: null, application: { uid: null }, created_at: 1_700_000_000,
      scopes: ['read_user'], expires_in_seconds: null,
    });
  });

  for (const [name, prepare] of [
    ['a missing token', async () => undefined],
    ['an unknown token', async () => 'f'.repeat(64)],
    ['an expired token', async () => { const t = await tokensFor(kiln, alice, app); kiln.clock.advance(7200_000); return t.access_token; }],
    ['a revoked token', async () => { const t = await tokensFor(kiln, alice, app); await kiln.request('POST', '/oauth/revoke', { form: { token: t.access_token, client_id: app.clientId, client_secret: app.secret } }); return t.access_token; }],
  ] as const) {
    it(`answers 401 invalid_token with WWW-Authenticate for ${name}`, async () => {
      const token = await prepare();
      const result = await info({ bearer: token });
      expect(result.status).toBe(401);
      expect(result.body).toEqual({ error: 'invalid_token', error_description: 'The access token is invalid', state: 'unauthorized' });
      expect(result.headers['www-authenticate']).toMatch(/^Bearer realm="Kiln", error="invalid_token"/);
    });
  }
});

describe('POST /oauth/revoke', () => {
  it('revokes an access token together with its refresh token and answers 200 {}', async () => {
    const tokens = await tokensFor(kiln, alice, app);
    const response = await kiln.request('POST', '/oauth/revoke', { form: { token: tokens.access_token }, headers: { authorization: basic(app.clientId, app.secret) } });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({});
    expectNoStore(response.headers);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect((await info({ bearer: tokens.access_token })).status).toBe(401);
    const refresh = await tokenRequest(kiln, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.clientId, client_secret: app.secret });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('revokes by refresh token, with either hint', async () => {
    const tokens = await tokensFor(kiln, alice, app);
    const response = await kiln.request('POST', '/oauth/revoke', { form: { token: tokens.refresh_token, token_type_hint: 'access_token', client_id: app.clientId, client_secret: app.secret } });
    expect(response.statusCode).toBe(200);
    expect((await info({ bearer: tokens.access_token })).status).toBe(401);
  });

  it('answers 200 {} for an unknown token (no existence oracle)', async () => {
    const response = await kiln.request('POST', '/oauth/revoke', { form: { token: '12345' } });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({});
  });

  it('refuses to revoke a confidential application\'s token for another client or anonymously, with 403', async () => {
    const tokens = await tokensFor(kiln, alice, app);
    for (const form of [{ token: tokens.access_token, client_id: other.clientId, client_secret: other.secret }, { token: tokens.access_token }] as Array<Record<string, string>>) {
      const response = await kiln.request('POST', '/oauth/revoke', { form });
      expect(response.statusCode).toBe(403);
      expect(JSON.parse(response.body)).toEqual({ error: 'unauthorized_client', error_description: 'You are not authorized to revoke this token' });
    }
    expect((await info({ bearer: tokens.access_token })).status).toBe(200);
  });

  it('answers 401 invalid_client for wrong client credentials and unsupported_token_type for an unknown hint', async () => {
    const wrong = await kiln.request('POST', '/oauth/revoke', { form: { token: 'x', client_id: app.clientId, client_secret: 'nope' } });
    expect(wrong.statusCode).toBe(401);
    const hint = await kiln.request('POST', '/oauth/revoke', { form: { token: 'x', token_type_hint: 'id_token' } });
    expect(hint.statusCode).toBe(400);
    expect(JSON.parse(hint.body).error).toBe('unsupported_token_type');
  });

  it('answers the CORS preflight', async () => {
    const response = await kiln.app.inject({ method: 'OPTIONS', url: '/oauth/revoke', headers: { origin: 'https://spa.example', 'access-control-request-method': 'POST' } });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toContain('POST');
  });
});

describe('POST /oauth/introspect', () => {
  it('as the owning client: active with scope, client_id, exp and iat', async () => {
    const tokens = await tokensFor(kiln, alice, app, { scope: 'read_user' });
    const response = await kiln.request('POST', '/oauth/introspect', { form: { token: tokens.access_token }, headers: { authorization: basic(app.clientId, app.secret) } });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ active: true, scope: 'read_user', client_id: app.clientId, token_type: 'Bearer', username: 'alice', iat: tokens.created_at, exp: tokens.created_at + 7200 });
  });

  it('as another client, or for a revoked token: {"active":false}', async () => {
    const tokens = await tokensFor(kiln, alice, app);
    const foreign = await kiln.request('POST', '/oauth/introspect', { form: { token: tokens.access_token }, headers: { authorization: basic(other.clientId, other.secret) } });
    expect(JSON.parse(foreign.body)).toEqual({ active: false });
    await kiln.request('POST', '/oauth/revoke', { form: { token: tokens.access_token, client_id: app.clientId, client_secret: app.secret } });
    const revoked = await kiln.request('POST', '/oauth/introspect', { form: { token: tokens.access_token }, headers: { authorization: basic(app.clientId, app.secret) } });
    expect(JSON.parse(revoked.body)).toEqual({ active: false });
  });

  it('without any caller authentication: 400 invalid_request', async () => {
    const response = await kiln.request('POST', '/oauth/introspect', { form: { token: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).error).toBe('invalid_request');
  });
});

describe('discovery', () => {
  it('GET /.well-known/oauth-authorization-server publishes the endpoints and S256 only', async () => {
    const body = JSON.parse((await kiln.request('GET', '/.well-known/oauth-authorization-server')).body);
    expect(body).toMatchObject({
      issuer: 'http://kiln.test',
      authorization_endpoint: 'http://kiln.test/oauth/authorize',
      token_endpoint: 'http://kiln.test/oauth/token',
      revocation_endpoint: 'http://kiln.test/oauth/revoke',
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code', 'token'],
    });
    expect(body.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_basic', 'client_secret_post']));
  });

  it('GET /.well-known/openid-configuration and /oauth/discovery/keys: the id_token verifies with the published key', async () => {
    const config = JSON.parse((await kiln.request('GET', '/.well-known/openid-configuration')).body);
    expect(config).toMatchObject({ jwks_uri: 'http://kiln.test/oauth/discovery/keys', userinfo_endpoint: 'http://kiln.test/oauth/userinfo', id_token_signing_alg_values_supported: ['RS256'] });
    expect(config.claims_supported).toEqual(expect.arrayContaining(['groups', 'groups_direct', 'https://gitlab.org/claims/groups/owner', 'https://gitlab.org/claims/groups/maintainer', 'https://gitlab.org/claims/groups/developer']));
    const { keys } = JSON.parse((await kiln.request('GET', '/oauth/discovery/keys')).body);
    expect(keys[0]).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256', kid: expect.any(String) });
    expect(keys[0].d).toBeUndefined();
    const tokens = await tokensFor(kiln, alice, app, { scope: 'openid' });
    const [header, payload, signature] = tokens.id_token!.split('.');
    const key = createPublicKey({ key: keys[0], format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'))).toBe(true);
    expect(JSON.parse(Buffer.from(header, 'base64url').toString()).kid).toBe(keys[0].kid);
  });
});

describe('GET /oauth/userinfo', () => {
  it('with an openid token: the claims, the e-mail only with the email scope', async () => {
    const withEmail = await tokensFor(kiln, alice, app, { scope: 'openid email' });
    const response = await kiln.request('GET', '/oauth/userinfo', { headers: { authorization: `Bearer ${withEmail.access_token}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(response.body)).toMatchObject({ sub: String(alice.id), preferred_username: 'alice', nickname: 'alice', email: 'alice@example.com', groups: [] });
    const withoutEmail = await tokensFor(kiln, alice, app, { scope: 'openid' });
    expect(JSON.parse((await kiln.request('GET', '/oauth/userinfo', { headers: { authorization: `Bearer ${withoutEmail.access_token}` } })).body).email).toBeNull();
  });

  it('the groups claim: the groups the user is a member of and every group below them, expired memberships left out', async () => {
    const carol = await kiln.createUser('carol');
    const top = await kiln.createGroup(alice, 'claims-top');
    const sub = await kiln.createGroup(alice, 'deep', { parent_id: top.id });
    await kiln.createGroup(alice, 'deeper', { parent_id: sub.id });
    const old = await kiln.createGroup(alice, 'claims-old');
    await kiln.createGroup(alice, 'claims-unrelated');
    await kiln.addMember(alice, 'groups', top.id, carol, ACCESS.guest);
    await kiln.addMember(alice, 'groups', old.id, carol, ACCESS.developer);
    await expireMembership(old.id, carol);
    const tokens = await tokensFor(kiln, carol, app, { scope: 'openid' });
    const response = await kiln.request('GET', '/oauth/userinfo', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(JSON.parse(response.body).groups).toEqual(['claims-top', 'claims-top/deep', 'claims-top/deep/deeper']);
  });

  it("the ID token's groups_direct claim: the groups the user is a direct member of, not in userinfo", async () => {
    const dave = await kiln.createUser('dave');
    const top = await kiln.createGroup(alice, 'direct-top');
    await kiln.createGroup(alice, 'below', { parent_id: top.id });
    const other = await kiln.createGroup(alice, 'direct-other');
    const inner = await kiln.createGroup(alice, 'inner', { parent_id: other.id });
    const lent = await kiln.createGroup(alice, 'direct-lent');
    const old = await kiln.createGroup(alice, 'direct-old');
    await kiln.addMember(alice, 'groups', top.id, dave, ACCESS.guest);
    await kiln.addMember(alice, 'groups', inner.id, dave, ACCESS.owner);
    await kiln.addMember(alice, 'groups', old.id, dave, ACCESS.developer);
    await kiln.apiAs(alice, 'POST', `/groups/${lent.id}/share`, { group_id: top.id, group_access: ACCESS.developer });
    await expireMembership(old.id, dave);
    const tokens = await tokensFor(kiln, dave, app, { scope: 'openid' });
    const payload = idTokenPayload(tokens.id_token!);
    // Neither direct-top/below (inherited) nor direct-lent (shared with direct-top) nor the expired membership.
    expect(payload.groups_direct).toEqual(['direct-other/inner', 'direct-top']);
    expect(payload.groups).toBeUndefined();
    const userinfo = await userinfoOf(tokens.access_token);
    expect(userinfo.groups).toEqual(['direct-other/inner', 'direct-top', 'direct-top/below']);
    expect(userinfo.groups_direct).toBeUndefined();
  });

  it("the role claims: the groups the user is a direct member of at exactly Owner, Maintainer, Developer; not in the ID token", async () => {
    const erin = await kiln.createUser('erin');
    const memberships = { 'role-a': ACCESS.owner, 'role-a2': ACCESS.owner, 'role-b': ACCESS.maintainer, 'role-c': ACCESS.developer, 'role-d': ACCESS.reporter, 'role-old': ACCESS.maintainer };
    const ids: Record<string, number> = {};
    for (const [path, level] of Object.entries(memberships)) {
      ids[path] = (await kiln.createGroup(alice, path)).id;
      await kiln.addMember(alice, 'groups', ids[path]!, erin, level);
    }
    await kiln.createGroup(alice, 'sub', { parent_id: ids['role-a'] });
    const lent = await kiln.createGroup(alice, 'role-lent');
    await kiln.apiAs(alice, 'POST', `/groups/${lent.id}/share`, { group_id: ids['role-a'], group_access: ACCESS.maintainer });
    await expireMembership(ids['role-old']!, erin);
    const tokens = await tokensFor(kiln, erin, app, { scope: 'openid' });
    const userinfo = await userinfoOf(tokens.access_token);
    // Not role-a/sub (Owner only by inheritance), role-d (Reporter), role-old (expired) nor role-lent (shared with role-a).
    expect(userinfo['https://gitlab.org/claims/groups/owner']).toEqual(['role-a', 'role-a2']);
    expect(userinfo['https://gitlab.org/claims/groups/maintainer']).toEqual(['role-b']);
    expect(userinfo['https://gitlab.org/claims/groups/developer']).toEqual(['role-c']);
    const payload = idTokenPayload(tokens.id_token!);
    expect(Object.keys(payload).filter((name) => name.startsWith('https://gitlab.org/claims/'))).toEqual([]);
  });

  it('the role claims: a role without groups is left out, as GitLab leaves out an empty one', async () => {
    const frank = await kiln.createUser('frank');
    const c = await kiln.createGroup(alice, 'role-only-c');
    await kiln.addMember(alice, 'groups', c.id, frank, ACCESS.developer);
    const tokens = await tokensFor(kiln, frank, app, { scope: 'openid' });
    const userinfo = await userinfoOf(tokens.access_token);
    expect(userinfo['https://gitlab.org/claims/groups/developer']).toEqual(['role-only-c']);
    expect(userinfo).not.toHaveProperty(['https://gitlab.org/claims/groups/owner']);
    expect(userinfo).not.toHaveProperty(['https://gitlab.org/claims/groups/maintainer']);
  });

  it('without the openid scope: 403 insufficient_scope; with a bad token: 401', async () => {
    const tokens = await tokensFor(kiln, alice, app, { scope: 'api' });
    const forbidden = await kiln.request('GET', '/oauth/userinfo', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(forbidden.statusCode).toBe(403);
    expect(JSON.parse(forbidden.body).error).toBe('insufficient_scope');
    const bad = await kiln.request('GET', '/oauth/userinfo', { headers: { authorization: 'Bearer nope' } });
    expect(bad.statusCode).toBe(401);
  });
});

describe('CORS', () => {
  it('is on for the token endpoint and off for the authorization endpoint', async () => {
    const token = await kiln.request('POST', '/oauth/token', { form: { grant_type: 'nope' } });
    expect(token.headers['access-control-allow-origin']).toBe('*');
    const preflight = await kiln.app.inject({ method: 'OPTIONS', url: '/oauth/authorize', headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const authorize = await kiln.request('GET', '/oauth/authorize');
    expect(authorize.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('REST API with OAuth tokens', () => {
  it('accepts Authorization: Bearer and access_token=', async () => {
    const tokens = await tokensFor(kiln, alice, app, { scope: 'read_user' });
    expect((await kiln.api('GET', '/user', { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(200);
    expect((await kiln.api('GET', '/user', { query: { access_token: tokens.access_token } })).status).toBe(200);
  });

  it('an expired token: 401 invalid_token with the expiry description and WWW-Authenticate', async () => {
    const tokens = await tokensFor(kiln, alice, app);
    kiln.clock.advance(7200_000);
    const result = await kiln.api('GET', '/user', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' });
    expect(result.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('a revoked token: 401 invalid_token with the revocation description', async () => {
    const tokens = await tokensFor(kiln, alice, app);
    await kiln.request('POST', '/oauth/revoke', { form: { token: tokens.access_token, client_id: app.clientId, client_secret: app.secret } });
    const result = await kiln.api('GET', '/user', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(result.status).toBe(401);
    expect(result.body.error_description).toBe('Token was revoked. You have to re-authorize from the user.');
  });

  it('a token without an allowed scope: 403 insufficient_scope with the header', async () => {
    const tokens = await tokensFor(kiln, alice, app, { scope: 'openid' });
    const result = await kiln.api('GET', '/user', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(result.status).toBe(403);
    expect(result.body.error).toBe('insufficient_scope');
    expect(result.headers['www-authenticate']).toContain('error="insufficient_scope"');
  });

  it('a read_user token cannot write', async () => {
    const tokens = await tokensFor(kiln, alice, app, { scope: 'read_user' });
    const result = await kiln.api('POST', '/projects', { headers: { authorization: `Bearer ${tokens.access_token}` }, body: { name: 'x' } });
    expect(result.status).toBe(403);
    expect(result.body.error).toBe('insufficient_scope');
  });

  it('a blocked user\'s token is refused', async () => {
    const bob = await kiln.createUser('bob');
    const tokens = await tokensFor(kiln, bob, app);
    await kiln.deps.db.updateTable('users').set({ state: 'blocked' }).where('id', '=', bob.id).execute();
    const result = await kiln.api('GET', '/user', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(result.status).toBe(403);
    expect(result.body).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
    expect((await info({ bearer: tokens.access_token })).status).toBe(401);
  });

  it('a public client revokes its own token with its id alone', async () => {
    const { pkcePair, codeFor } = await import('./oauth-driver.js');
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(kiln, alice, spa, { code_challenge: challenge, code_challenge_method: 'S256' });
    const tokens = (await tokenRequest(kiln, { grant_type: 'authorization_code', code, redirect_uri: spa.redirectUri, client_id: spa.clientId, code_verifier: verifier })).body;
    const response = await kiln.request('POST', '/oauth/revoke', { form: { token: tokens.access_token, client_id: spa.clientId } });
    expect(response.statusCode).toBe(200);
    expect((await info({ bearer: tokens.access_token })).status).toBe(401);
  });
});
