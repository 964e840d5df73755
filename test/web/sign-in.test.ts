import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { csrfTokenOf, sessionCookieOf, WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

describe('GET /users/sign_in', () => {
  it('renders the form with a CSRF token, an HttpOnly SameSite=Lax session cookie and no-framing headers', async () => {
    const response = await kiln.request('GET', '/users/sign_in');
    expect(response.statusCode).toBe(200);
    expect(csrfTokenOf(response.body)).toMatch(/.{20,}/);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^_kiln_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('POST /users/sign_in', () => {
  it('signs in, rotates the session and redirects to an internal return_to with 303', async () => {
    const web = new WebSession(kiln);
    await web.get('/users/sign_in');
    const before = web.cookie;
    const response = await web.post('/users/sign_in', { login: 'alice', password: alice.password, return_to: '/profile/x' }, { csrfFrom: '/users/sign_in' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/profile/x');
    expect(web.cookie).not.toBe(before);
    const home = await web.get('/');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('@alice');
  });

  it('accepts the e-mail address as login', async () => {
    const web = new WebSession(kiln);
    await web.signIn('alice@example.com', alice.password);
    expect((await web.get('/')).statusCode).toBe(200);
  });

  it.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)'])('never redirects outside Kiln (return_to=%s)', async (returnTo) => {
    const web = new WebSession(kiln);
    const response = await web.post('/users/sign_in', { login: 'alice', password: alice.password, return_to: returnTo }, { csrfFrom: '/users/sign_in' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/');
  });

  it('refuses a wrong password with one message for every failure', async () => {
    const web = new WebSession(kiln);
    const wrong = await web.post('/users/sign_in', { login: 'alice', password: 'nope-nope' }, { csrfFrom: '/users/sign_in' });
    const unknown = await web.post('/users/sign_in', { login: 'nobody', password: 'nope-nope' }, { csrfFrom: '/users/sign_in' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toContain('Invalid login or password.');
    expect(unknown.body).toContain('Invalid login or password.');
    expect(sessionCookieOf(wrong.headers)).toBeUndefined();
  });

  it('refuses a form without the session CSRF token with 422', async () => {
    const web = new WebSession(kiln);
    await web.get('/users/sign_in');
    const response = await web.post('/users/sign_in', { login: 'alice', password: alice.password, authenticity_token: 'forged' });
    expect(response.statusCode).toBe(422);
  });

  it('escapes what the user typed when it shows the form again', async () => {
    const web = new WebSession(kiln);
    const response = await web.post('/users/sign_in', { login: '"><script>alert(1)</script>', password: 'x' }, { csrfFrom: '/users/sign_in' });
    expect(response.body).not.toContain('<script>alert(1)</script>');
    expect(response.body).toContain('&quot;&gt;&lt;script&gt;');
  });
});

describe('pages that need a user', () => {
  it('send anonymous visitors to sign-in with return_to', async () => {
    const response = await kiln.request('GET', '/?x=1');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/users/sign_in?return_to=%2F%3Fx%3D1');
  });
});

describe('POST /users/sign_out', () => {
  it('ends the session', async () => {
    const web = new WebSession(kiln);
    await web.signIn('alice', alice.password);
    const home = await web.get('/');
    const out = await web.post('/users/sign_out', { authenticity_token: csrfTokenOf(home.body) });
    expect(out.statusCode).toBe(303);
    expect((await web.get('/')).statusCode).toBe(302);
  });
});
