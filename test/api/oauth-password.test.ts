import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { basic, expectNoStore, registerApp, tokenCount, tokenRequest, type TestApp } from './oauth-driver.js';

let kiln: TestKiln;
let alice: TestUser;
let app: TestApp;

beforeAll(async () => {
  kiln = await testKiln({ protectedPathsPerMinute: 10_000 });
  alice = await kiln.createUser('alice');
  app = await registerApp(kiln, { scopes: 'api read_user' });
});
afterAll(() => kiln.close());

const password = (form: Record<string, string>, headers: Record<string, string> = {}) => tokenRequest(kiln, { grant_type: 'password', ...form }, headers);

describe('POST /oauth/token grant_type=password', () => {
  it('without a client: 200, default scope api, no refresh_token', async () => {
    const { status, body, headers } = await password({ username: 'alice', password: alice.password });
    expect(status).toBe(200);
    expectNoStore(headers);
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 7200, scope: 'api', created_at: expect.any(Number) });
    const user = await kiln.api('GET', '/user', { query: { access_token: body.access_token } });
    expect(user.body.username).toBe('alice');
  });

  it('accepts the e-mail as login and x/oauth2\'s empty Basic credentials', async () => {
    const { status } = await password({ username: 'alice@example.com', password: alice.password }, { authorization: 'Basic Og==' });
    expect(status).toBe(200);
  });

  it('with HTTP Basic client credentials: the token belongs to the application', async () => {
    const { status, body } = await password({ username: 'alice', password: alice.password, scope: 'read_user' }, { authorization: basic(app.clientId, app.secret) });
    expect(status).toBe(200);
    expect(body.scope).toBe('read_user');
    const info = await kiln.request('GET', '/oauth/token/info', { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(JSON.parse(info.body).application).toEqual({ uid: app.clientId });
  });

  it('refuses wrong client credentials with 401 invalid_client', async () => {
    const { status, body } = await password({ username: 'alice', password: alice.password }, { authorization: basic(app.clientId, 'wrong') });
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_client');
  });

  it('refuses a scope the application does not have with invalid_scope', async () => {
    const { status, body } = await password({ username: 'alice', password: alice.password, scope: 'sudo' }, { authorization: basic(app.clientId, app.secret) });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_scope');
  });

  it('answers the same invalid_grant for a wrong password, an unknown user, a two-factor user and a blocked user', async () => {
    const carol = await kiln.createUser('carol');
    await kiln.deps.db.updateTable('users').set({ otp_required: 1 }).where('id', '=', carol.id).execute();
    const dave = await kiln.createUser('dave');
    await kiln.deps.db.updateTable('users').set({ state: 'blocked' }).where('id', '=', dave.id).execute();
    const before = await tokenCount(kiln);
    const cases = [
      { username: 'alice', password: 'wrong-password' },
      { username: 'nobody', password: 'whatever-password' },
      { username: 'carol', password: carol.password },
      { username: 'dave', password: dave.password },
    ];
    const bodies = [];
    for (const form of cases) {
      const result = await password(form);
      expect(result.status).toBe(400);
      bodies.push(result.body);
    }
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(bodies[0]).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('authorization grant is invalid') });
    expect(await tokenCount(kiln)).toBe(before);
  });

  it('counts failed attempts and locks the account after 10', async () => {
    const erin = await kiln.createUser('erin');
    for (let i = 0; i < 10; i += 1) expect((await password({ username: 'erin', password: 'wrong-password' })).status).toBe(400);
    const locked = await password({ username: 'erin', password: erin.password });
    expect(locked.status).toBe(400);
    expect(locked.body.error).toBe('invalid_grant');
    kiln.clock.advance(10 * 60_000 + 1);
    expect((await password({ username: 'erin', password: erin.password })).status).toBe(200);
  });

  it('answers invalid_request for a missing username or password', async () => {
    const result = await password({ username: 'alice' });
    expect(result.body).toEqual({ error: 'invalid_request', error_description: 'Missing required parameter: password.' });
  });
});

describe('POST /oauth/token grant_type=password rate limit', () => {
  it('allows 10 attempts per minute per IP, then 429 with Retry-After', async () => {
    const limited = await testKiln({ protectedPathsPerMinute: 10 });
    try {
      const bob = await limited.createUser('bob');
      for (let i = 0; i < 10; i += 1) {
        const response = await limited.request('POST', '/oauth/token', { form: { grant_type: 'password', username: 'nobody', password: 'wrong-password' } });
        expect(response.statusCode).toBe(400);
      }
      const response = await limited.request('POST', '/oauth/token', { form: { grant_type: 'password', username: 'bob', password: bob.password } });
      expect(response.statusCode).toBe(429);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(response.body).access_token).toBeUndefined();
      limited.clock.advance(60_000);
      const later = await limited.request('POST', '/oauth/token', { form: { grant_type: 'password', username: 'bob', password: bob.password } });
      expect(later.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  }, 60_000);
});
