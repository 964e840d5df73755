import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { approve, basic, codeFor, exchangeCode, expectNoStore, pkcePair, registerApp, signedIn, tokenCount, tokenRequest, type TestApp } from './oauth-driver.js';

let kiln: TestKiln;
let alice: TestUser;
let app: TestApp;
let other: TestApp;

beforeAll(async () => {
  kiln = await testKiln({ protectedPathsPerMinute: 10_000 });
  alice = await kiln.createUser('alice');
  app = await registerApp(kiln);
  other = await registerApp(kiln, { name: 'Other client' });
});
afterAll(() => kiln.close());

describe('POST /oauth/token grant_type=authorization_code', () => {
  it('as a confidential client with body credentials: 200 with the five fields plus scope, no-store headers', async () => {
    const code = await codeFor(kiln, alice, app, { scope: 'api read_user' });
    const { status, body, headers } = await exchangeCode(kiln, app, code);
    expect(status).toBe(200);
    expectNoStore(headers);
    expect(headers['content-type']).toBe('application/json');
    expect(body).toEqual({
      access_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      token_type: 'bearer',
      expires_in: 7200,
      refresh_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      scope: 'api read_user',
      created_at: Math.floor(kiln.clock.now() / 1000),
    });
    const user = await kiln.api('GET', '/user', { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(user.status).toBe(200);
    expect(user.body.username).toBe('alice');
  });

  it('stores tokens and codes only as digests', async () => {
    const code = await codeFor(kiln, alice, app);
    const { body } = await exchangeCode(kiln, app, code);
    const rows = await kiln.deps.db.selectFrom('oauth_access_tokens').selectAll().execute();
    const grants = await kiln.deps.db.selectFrom('oauth_access_grants').selectAll().execute();
    const stored = JSON.stringify([rows, grants]);
    expect(stored).not.toContain(body.access_token);
    expect(stored).not.toContain(body.refresh_token);
    expect(stored).not.toContain(code);
    const apps = JSON.stringify(await kiln.deps.db.selectFrom('oauth_applications').selectAll().execute());
    expect(apps).not.toContain(app.secret);
  });

  it('accepts HTTP Basic with form-URL-encoded parts', async () => {
    const code = await codeFor(kiln, alice, app);
    const { status } = await tokenRequest(kiln, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri }, { authorization: basic(app.clientId, app.secret) });
    expect(status).toBe(200);
  });

  it('refuses two client authentication methods in one request with invalid_request and issues nothing', async () => {
    const code = await codeFor(kiln, alice, app);
    const before = await tokenCount(kiln);
    const { status, body, headers } = await tokenRequest(
      kiln,
      { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_secret: app.secret },
      { authorization: basic(app.clientId, app.secret) },
    );
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_request');
    expectNoStore(headers);
    expect(await tokenCount(kiln)).toBe(before);
  });

  it('answers 401 invalid_client with WWW-Authenticate: Basic for a wrong secret sent by Basic', async () => {
    const code = await codeFor(kiln, alice, app);
    const { status, body, headers } = await tokenRequest(kiln, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri }, { authorization: basic(app.clientId, 'wrong') });
    expect(status).toBe(401);
    expect(body).toEqual({ error: 'invalid_client', error_description: expect.stringContaining('Client authentication failed') });
    expect(headers['www-authenticate']).toMatch(/^Basic /);
    expectNoStore(headers);
  });

  it('answers 401 invalid_client without a secret for a confidential client, and for an unknown client', async () => {
    const code = await codeFor(kiln, alice, app);
    const noSecret = await tokenRequest(kiln, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_id: app.clientId });
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    expect(noSecret.headers['www-authenticate']).toBeUndefined();
    const unknown = await tokenRequest(kiln, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_id: 'nope', client_secret: 'x' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('invalid_client');
  });

  it('refuses a code redeemed by another client with invalid_grant', async () => {
    const code = await codeFor(kiln, alice, app);
    const { status, body } = await tokenRequest(kiln, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_id: other.clientId, client_secret: other.secret });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');
    // The rightful client can still use it: a foreign attempt does not consume the code.
    expect((await exchangeCode(kiln, app, code)).status).toBe(200);
  });

  it('refuses a different redirect_uri with invalid_grant and a missing one with invalid_request', async () => {
    const code = await codeFor(kiln, alice, app);
    const different = await exchangeCode(kiln, app, code, { redirect_uri: 'https://client.example/other' });
    expect(different.status).toBe(400);
    expect(different.body.error).toBe('invalid_grant');
    const missing = await tokenRequest(kiln, { grant_type: 'authorization_code', code, client_id: app.clientId, client_secret: app.secret });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'invalid_request', error_description: 'Missing required parameter: redirect_uri.' });
  });

  it('refuses an expired code (10 minutes) with invalid_grant', async () => {
    const code = await codeFor(kiln, alice, app);
    kiln.clock.advance(10 * 60_000 + 1);
    const { status, body } = await exchangeCode(kiln, app, code);
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');
  });

  it('refuses a reused code with invalid_grant and revokes the tokens the first use issued', async () => {
    const code = await codeFor(kiln, alice, app);
    const first = await exchangeCode(kiln, app, code);
    expect(first.status).toBe(200);
    const second = await exchangeCode(kiln, app, code);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect(second.body.access_token).toBeUndefined();
    const api = await kiln.api('GET', '/user', { headers: { authorization: `Bearer ${first.body.access_token}` } });
    expect(api.status).toBe(401);
    expect(api.body.error).toBe('invalid_token');
    const refresh = await tokenRequest(kiln, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: app.clientId, client_secret: app.secret });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('two simultaneous exchanges of one code yield exactly one success', async () => {
    const code = await codeFor(kiln, alice, app);
    const results = await Promise.all([exchangeCode(kiln, app, code), exchangeCode(kiln, app, code)]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 400]);
    expect(results.find((result) => result.status === 400)?.body.error).toBe('invalid_grant');
  });

  it('answers invalid_request for a missing grant_type and unsupported_grant_type for implicit and unknown ones', async () => {
    const missing = await tokenRequest(kiln, { code: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'invalid_request', error_description: 'Missing required parameter: grant_type.' });
    for (const grantType of ['implicit', 'client_credentials', 'constructor']) {
      const result = await tokenRequest(kiln, { grant_type: grantType });
      expect(result.status).toBe(400);
      expect(result.body.error).toBe('unsupported_grant_type');
      expectNoStore(result.headers);
    }
  });

  it('accepts a JSON body too', async () => {
    const code = await codeFor(kiln, alice, app);
    const response = await kiln.request('POST', '/oauth/token', { body: { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_id: app.clientId, client_secret: app.secret } });
    expect(response.statusCode).toBe(200);
  });

  it('never reads client credentials from the query string', async () => {
    const code = await codeFor(kiln, alice, app);
    const response = await kiln.request('POST', `/oauth/token?client_id=${app.clientId}&client_secret=${app.secret}`, { form: { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri } });
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body).error).toBe('invalid_client');
  });
});

describe('POST /oauth/token grant_type=authorization_code with PKCE', () => {
  it('as a public client: succeeds with the id alone and the right verifier', async () => {
    const spa = await registerApp(kiln, { confidential: false, name: 'SPA' });
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(kiln, alice, spa, { code_challenge: challenge, code_challenge_method: 'S256' });
    const result = await tokenRequest(kiln, { grant_type: 'authorization_code', code, redirect_uri: spa.redirectUri, client_id: spa.clientId, code_verifier: verifier });
    expect(result.status).toBe(200);
    expect(result.body.refresh_token).toBeDefined();
  });

  it('refuses a missing, wrong or malformed verifier with invalid_grant and issues nothing', async () => {
    const { verifier, challenge } = pkcePair();
    for (const bad of [undefined, pkcePair().verifier, 'short', `${verifier}!`]) {
      const code = await codeFor(kiln, alice, app, { code_challenge: challenge, code_challenge_method: 'S256' });
      const before = await tokenCount(kiln);
      const result = await exchangeCode(kiln, app, code, bad === undefined ? {} : { code_verifier: bad });
      expect(result.status).toBe(400);
      expect(result.body.error).toBe('invalid_grant');
      expect(await tokenCount(kiln)).toBe(before);
    }
  });

  it('refuses a verifier sent for a code that had no challenge (downgrade) with invalid_grant', async () => {
    const code = await codeFor(kiln, alice, app);
    const result = await exchangeCode(kiln, app, code, { code_verifier: pkcePair().verifier });
    expect(result.status).toBe(400);
    expect(result.body.error).toBe('invalid_grant');
  });
});

describe('POST /oauth/token with OpenID Connect', () => {
  it('adds an RS256 id_token with nonce for the openid scope', async () => {
    const web = await signedIn(kiln, alice);
    const location = await approve(web, app, { scope: 'openid email', nonce: 'n-0S6' });
    const result = await exchangeCode(kiln, app, location.searchParams.get('code')!);
    expect(result.status).toBe(200);
    const [header, payload] = result.body.id_token.split('.').slice(0, 2).map((part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header.alg).toBe('RS256');
    expect(payload).toMatchObject({ iss: 'http://kiln.test', sub: String(alice.id), aud: app.clientId, nonce: 'n-0S6', preferred_username: 'alice', email: 'alice@example.com' });
  });
});
