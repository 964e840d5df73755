import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession, csrfTokenOf } from '../helpers/browser-session.js';
import { registerApp, signedIn, tokenRequest, tokensFor } from './oauth-driver.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

function codeAt(secret: string, timestamp: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp });
}

async function enrol(web: WebSession): Promise<{ secret: string; recovery: string[] }> {
  const setup = await web.get('/profile/two_factor_auth');
  const secret = /<code id="otp-secret">([A-Z2-7]+)<\/code>/.exec(setup.body)![1];
  const done = await web.post('/profile/two_factor_auth', { pin_code: codeAt(secret, kiln.clock.now()), authenticity_token: csrfTokenOf(setup.body) });
  const recovery = /<pre id="recovery-codes">([^<]+)<\/pre>/.exec(done.body)![1].split('\n');
  return { secret, recovery };
}

async function passwordStep(login: string, password: string) {
  const web = new WebSession(kiln);
  const response = await web.post('/users/sign_in', { login, password, return_to: '/profile/applications' }, { csrfFrom: '/users/sign_in' });
  return { web, response };
}

describe('/profile/two_factor_auth', () => {
  it('GET shows the key as text and as a data: QR code, with no-framing headers', async () => {
    const web = await signedIn(kiln, alice);
    const response = await web.get('/profile/two_factor_auth');
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/<code id="otp-secret">[A-Z2-7]{32}<\/code>/);
    expect(response.body).toMatch(/<img src="data:image\/png;base64,/);
    expect(response.headers['x-frame-options']).toBe('DENY');
    const user = await kiln.deps.db.selectFrom('users').selectAll().where('id', '=', alice.id).executeTakeFirstOrThrow();
    expect(user.otp_secret_sealed).not.toContain(/<code id="otp-secret">([A-Z2-7]+)/.exec(response.body)![1]);
    expect(user.otp_required).toBe(0);
  });

  it('POST with a wrong code refuses; with the right code enables two-factor and shows 10 recovery codes once', async () => {
    const bob = await kiln.createUser('bob');
    const web = await signedIn(kiln, bob);
    const setup = await web.get('/profile/two_factor_auth');
    const wrong = await web.post('/profile/two_factor_auth', { pin_code: '000000', authenticity_token: csrfTokenOf(setup.body) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('Invalid pin code');
    const secret = /<code id="otp-secret">([A-Z2-7]+)<\/code>/.exec(setup.body)![1];
    const done = await web.post('/profile/two_factor_auth', { pin_code: codeAt(secret, kiln.clock.now()), authenticity_token: csrfTokenOf(setup.body) });
    expect(done.statusCode).toBe(200);
    const codes = /<pre id="recovery-codes">([^<]+)<\/pre>/.exec(done.body)![1].split('\n');
    expect(codes).toHaveLength(10);
    const user = await kiln.deps.db.selectFrom('users').selectAll().where('id', '=', bob.id).executeTakeFirstOrThrow();
    expect(user.otp_required).toBe(1);
    expect(user.otp_backup_codes).not.toContain(codes[0]);
  });
});

describe('POST /users/sign_in for a two-factor user', () => {
  it('asks for the code and does not sign in until it is right; a TOTP code completes it with 303', async () => {
    const carol = await kiln.createUser('carol');
    const { secret } = await enrol(await signedIn(kiln, carol));
    const { web, response } = await passwordStep('carol', carol.password);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('name="otp_attempt"');
    expect((await web.get('/profile/applications')).statusCode).toBe(302);
    const wrong = await web.post('/users/sign_in/two_factor', { otp_attempt: '123456', return_to: '/profile/applications' }, { csrfFrom: '/users/sign_in' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('Invalid two-factor code.');
    const right = await web.post('/users/sign_in/two_factor', { otp_attempt: codeAt(secret, kiln.clock.now()), return_to: '/profile/applications', authenticity_token: csrfTokenOf(wrong.body) });
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('/profile/applications');
    expect((await web.get('/profile/applications')).statusCode).toBe(200);
  });

  it('accepts a TOTP code only once (no replay within its window)', async () => {
    const ivan = await kiln.createUser('ivan');
    const { secret } = await enrol(await signedIn(kiln, ivan));
    const code = codeAt(secret, kiln.clock.now());
    const first = await passwordStep('ivan', ivan.password);
    expect((await first.web.post('/users/sign_in/two_factor', { otp_attempt: code, authenticity_token: csrfTokenOf(first.response.body) })).statusCode).toBe(303);
    const second = await passwordStep('ivan', ivan.password);
    expect((await second.web.post('/users/sign_in/two_factor', { otp_attempt: code, authenticity_token: csrfTokenOf(second.response.body) })).statusCode).toBe(401);
    kiln.clock.advance(30_000);
    const third = await passwordStep('ivan', ivan.password);
    expect((await third.web.post('/users/sign_in/two_factor', { otp_attempt: codeAt(secret, kiln.clock.now()), authenticity_token: csrfTokenOf(third.response.body) })).statusCode).toBe(303);
  });

  it('accepts a recovery code once', async () => {
    const dave = await kiln.createUser('dave');
    const { recovery } = await enrol(await signedIn(kiln, dave));
    const first = await passwordStep('dave', dave.password);
    const used = await first.web.post('/users/sign_in/two_factor', { otp_attempt: recovery[0], authenticity_token: csrfTokenOf(first.response.body) });
    expect(used.statusCode).toBe(303);
    const second = await passwordStep('dave', dave.password);
    const reused = await second.web.post('/users/sign_in/two_factor', { otp_attempt: recovery[0], authenticity_token: csrfTokenOf(second.response.body) });
    expect(reused.statusCode).toBe(401);
  });

  it('the second step without a pending password step goes back to sign-in', async () => {
    const web = new WebSession(kiln);
    const response = await web.post('/users/sign_in/two_factor', { otp_attempt: '123456' }, { csrfFrom: '/users/sign_in' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(/^\/users\/sign_in/);
  });

  it('disabling needs the current password', async () => {
    const erin = await kiln.createUser('erin');
    const web = await signedIn(kiln, erin);
    await enrol(web);
    const page = await web.get('/profile/two_factor_auth');
    expect(page.body).toContain('Disable two-factor authentication');
    const wrong = await web.post('/profile/two_factor_auth/disable', { current_password: 'nope', authenticity_token: csrfTokenOf(page.body) });
    expect(wrong.statusCode).toBe(400);
    const right = await web.post('/profile/two_factor_auth/disable', { current_password: erin.password, authenticity_token: csrfTokenOf(page.body) });
    expect(right.statusCode).toBe(303);
    const user = await kiln.deps.db.selectFrom('users').selectAll().where('id', '=', erin.id).executeTakeFirstOrThrow();
    expect(user.otp_required).toBe(0);
    expect(user.otp_secret_sealed).toBeNull();
  });
});

describe('POST /users/sign_in lock-out and rate limit', () => {
  it('locks the account after 10 failed passwords for 10 minutes, with the same message', async () => {
    const frank = await kiln.createUser('frank');
    for (let i = 0; i < 10; i += 1) expect((await passwordStep('frank', 'wrong-password')).response.statusCode).toBe(401);
    const locked = await passwordStep('frank', frank.password);
    expect(locked.response.statusCode).toBe(401);
    expect(locked.response.body).toContain('Invalid login or password.');
    kiln.clock.advance(10 * 60_000 + 1);
    expect((await passwordStep('frank', frank.password)).response.statusCode).toBe(303);
  });

  it('answers 429 with Retry-After after 10 sign-in POSTs per minute from one address', async () => {
    const limited = await testKiln({ protectedPathsPerMinute: 10 });
    try {
      const user = await limited.createUser('gina');
      const post = async () => new WebSession(limited).post('/users/sign_in', { login: 'nobody', password: 'x' }, { csrfFrom: '/users/sign_in' });
      for (let i = 0; i < 10; i += 1) expect((await post()).statusCode).toBe(401);
      const blocked = await new WebSession(limited).post('/users/sign_in', { login: 'gina', password: user.password }, { csrfFrom: '/users/sign_in' });
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.headers['set-cookie'] ?? '').not.toContain('_kiln_session=');
    } finally {
      await limited.close();
    }
  }, 60_000);
});

describe('/profile/applications', () => {
  it('registers an application and shows its ID and the secret once; the secret works', async () => {
    const web = await signedIn(kiln, alice);
    const form = await web.get('/profile/applications');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('name="redirect_uri"');
    expect(form.body).toMatch(/name="confidential" value="1" checked/);
    const response = await kiln.app.inject({
      method: 'POST', url: '/profile/applications',
      headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `authenticity_token=${encodeURIComponent(csrfTokenOf(form.body))}&name=My+App&redirect_uri=https%3A%2F%2Fa.example%2Fcb%0D%0Ahttps%3A%2F%2Fb.example%2Fcb&confidential=1&scopes%5B%5D=api&scopes%5B%5D=read_user`,
    });
    expect(response.statusCode).toBe(200);
    const uid = /<code id="application_id">([0-9a-f]{64})<\/code>/.exec(response.body)![1];
    const secret = /<code id="secret">([0-9a-f]{64})<\/code>/.exec(response.body)![1];
    const row = await kiln.deps.db.selectFrom('oauth_applications').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'My App', redirect_uri: 'https://a.example/cb\nhttps://b.example/cb', scopes: 'api read_user', confidential: 1, owner_id: alice.id });
    const token = await tokenRequest(kiln, { grant_type: 'password', username: 'alice', password: alice.password, client_id: uid, client_secret: secret });
    expect(token.status).toBe(200);
    const show = await web.get(`/profile/applications/${row.id}`);
    expect(show.body).toContain(uid);
    expect(show.body).not.toContain(secret);
  });

  it('refuses a javascript: redirect URI and no scopes with the form again', async () => {
    const web = await signedIn(kiln, alice);
    const response = await web.post('/profile/applications', { name: 'Bad', redirect_uri: 'javascript:alert(1)' }, { csrfFrom: '/profile/applications' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('is forbidden by the server.');
    expect(response.body).toContain('scopes can&#39;t be blank');
  });

  describe('the admin scope sudo', () => {
    const scopeError = 'scopes doesn&#39;t match configured on the server.';
    const applicationsNamed = (name: string) => kiln.deps.db.selectFrom('oauth_applications').select(['id', 'scopes']).where('name', '=', name).execute();
    // Several `scopes[]` values, as the form's checkboxes send them.
    const submit = async (web: WebSession, url: string, fields: Record<string, string>, scopes: string[]) => {
      const token = csrfTokenOf((await web.get('/profile/applications')).body);
      const form = new URLSearchParams({ authenticity_token: token, ...fields });
      for (const scope of scopes) form.append('scopes[]', scope);
      return kiln.app.inject({ method: 'POST', url, headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
    };

    it('as a non-administrator is not offered, and the server refuses it (and admin_mode) with the form again', async () => {
      const web = await signedIn(kiln, alice);
      const form = await web.get('/profile/applications');
      expect(form.body).toContain('value="api"');
      expect(form.body).not.toContain('value="sudo"');
      for (const scope of ['sudo', 'admin_mode']) {
        const response = await submit(web, '/profile/applications', { name: `Escalate ${scope}`, redirect_uri: 'https://s.example/cb' }, ['api', scope]);
        expect(response.statusCode).toBe(400);
        expect(response.body).toContain(scopeError);
        expect(await applicationsNamed(`Escalate ${scope}`)).toEqual([]);
      }
    });

    it('as a non-administrator cannot be added by editing an application', async () => {
      const web = await signedIn(kiln, alice);
      const created = await submit(web, '/profile/applications', { name: 'Plain', redirect_uri: 'https://p.example/cb' }, ['api']);
      expect(created.statusCode).toBe(200);
      const [row] = await applicationsNamed('Plain');
      const edited = await submit(web, `/profile/applications/${row.id}`, { name: 'Plain', redirect_uri: 'https://p.example/cb' }, ['api', 'sudo']);
      expect(edited.statusCode).toBe(400);
      expect(edited.body).toContain(scopeError);
      expect(await applicationsNamed('Plain')).toEqual([{ id: row.id, scopes: 'api' }]);
    });

    it('as an administrator is offered and accepted', async () => {
      const web = await signedIn(kiln, kiln.root);
      expect((await web.get('/profile/applications')).body).toContain('value="sudo"');
      const response = await submit(web, '/profile/applications', { name: 'Admin tool', redirect_uri: 'https://a.example/cb' }, ['api', 'sudo']);
      expect(response.statusCode).toBe(200);
      expect(await applicationsNamed('Admin tool')).toEqual([{ id: expect.anything(), scopes: 'api sudo' }]);
    });
  });

  it('renews the secret, edits and deletes; another user gets 404', async () => {
    const web = await signedIn(kiln, alice);
    const created = await web.post('/profile/applications', { name: 'Editable', redirect_uri: 'https://e.example/cb', confidential: '1', 'scopes[]': 'api' }, { csrfFrom: '/profile/applications' });
    const uid = /<code id="application_id">([0-9a-f]{64})<\/code>/.exec(created.body)![1];
    const row = await kiln.deps.db.selectFrom('oauth_applications').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();
    const renewed = await web.post(`/profile/applications/${row.id}/renew`, {}, { csrfFrom: '/profile/applications' });
    expect(renewed.body).toMatch(/<code id="secret">[0-9a-f]{64}<\/code>/);
    const edited = await web.post(`/profile/applications/${row.id}`, { name: 'Edited', redirect_uri: 'https://e.example/cb2', 'scopes[]': 'read_user' }, { csrfFrom: '/profile/applications' });
    expect(edited.statusCode).toBe(303);
    const after = await kiln.deps.db.selectFrom('oauth_applications').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ name: 'Edited', redirect_uri: 'https://e.example/cb2', scopes: 'read_user', confidential: 0 });
    const mallory = await kiln.createUser('mallory');
    const intruder = await signedIn(kiln, mallory);
    expect((await intruder.get(`/profile/applications/${row.id}`)).statusCode).toBe(404);
    expect((await intruder.post(`/profile/applications/${row.id}/delete`, {}, { csrfFrom: '/profile/applications' })).statusCode).toBe(404);
    expect((await web.post(`/profile/applications/${row.id}/delete`, {}, { csrfFrom: '/profile/applications' })).statusCode).toBe(303);
    expect(await kiln.deps.db.selectFrom('oauth_applications').select('id').where('id', '=', row.id).executeTakeFirst()).toBeUndefined();
  });

  it('lists authorized applications and revoking one kills its tokens', async () => {
    const harry = await kiln.createUser('harry');
    const client = await registerApp(kiln, { name: 'Authorized Client' });
    const tokens = await tokensFor(kiln, harry, client);
    const web = await signedIn(kiln, harry);
    const list = await web.get('/profile/applications');
    expect(list.body).toContain('Authorized applications (1)');
    expect(list.body).toContain('Authorized Client');
    const revoke = await web.post(`/profile/applications/authorized/${client.id}/revoke`, { authenticity_token: csrfTokenOf(list.body) });
    expect(revoke.statusCode).toBe(303);
    expect((await kiln.api('GET', '/user', { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
    expect((await tokenRequest(kiln, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.clientId, client_secret: client.secret })).body.error).toBe('invalid_grant');
    expect((await web.get('/profile/applications')).body).toContain('Authorized applications (0)');
  });
});

describe('/profile/personal_access_tokens', () => {
  it('creates a token shown once that works on the API, lists it, and revokes it', async () => {
    const web = await signedIn(kiln, alice);
    const created = await web.post('/profile/personal_access_tokens', { name: 'cli', 'scopes[]': 'read_user', expires_at: '2027-01-01' }, { csrfFrom: '/profile/personal_access_tokens' });
    expect(created.statusCode).toBe(200);
    const token = /<code id="created-personal-access-token">([^<]+)<\/code>/.exec(created.body)![1];
    expect((await kiln.api('GET', '/user', { token })).body.username).toBe('alice');
    const list = await web.get('/profile/personal_access_tokens');
    expect(list.body).toContain('<td>cli</td>');
    expect(list.body).not.toContain(token);
    const row = await kiln.deps.db.selectFrom('personal_access_tokens').select('id').where('name', '=', 'cli').executeTakeFirstOrThrow();
    const revoked = await web.post(`/profile/personal_access_tokens/${row.id}/revoke`, { authenticity_token: csrfTokenOf(list.body) });
    expect(revoked.statusCode).toBe(303);
    expect((await kiln.api('GET', '/user', { token })).status).toBe(401);
  });

  it('refuses a token without scopes', async () => {
    const web = await signedIn(kiln, alice);
    const response = await web.post('/profile/personal_access_tokens', { name: 'none' }, { csrfFrom: '/profile/personal_access_tokens' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('scopes can&#39;t be blank');
  });
});
