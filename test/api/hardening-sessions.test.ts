// Anonymous page views write nothing (issue 13, item 6): the sign-in form's CSRF token is an HMAC of
// a random cookie value, and a session row is made only at sign-in.
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession, csrfTokenOf, sessionCookieOf } from '../helpers/browser-session.js';
import { signedIn } from './oauth-driver.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

const sessionRows = async () => Number((await kiln.deps.db.selectFrom('web_sessions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('GET /users/sign_in', () => {
  describe('as an anonymous visitor', () => {
    it('creates no session row, on the first view or the next ones', async () => {
      const before = await sessionRows();
      const web = new WebSession(kiln);
      const first = await web.get('/users/sign_in');
      expect(first.statusCode).toBe(200);
      expect(sessionCookieOf(first.headers)).toMatch(/^_kiln_session=/);
      expect(csrfTokenOf(first.body)).toMatch(/.{40,}/);
      const again = await web.get('/users/sign_in');
      expect(csrfTokenOf(again.body)).toBe(csrfTokenOf(first.body));
      for (let i = 0; i < 5; i += 1) await kiln.request('GET', '/users/sign_in');
      expect(await kiln.request('GET', '/profile/applications')).toMatchObject({ statusCode: 302 });
      expect(await sessionRows()).toBe(before);
    });
  });
});

describe('POST /users/sign_in', () => {
  describe('as an anonymous visitor', () => {
    it('signs in with the token of the anonymous form and creates exactly one row', async () => {
      const before = await sessionRows();
      const web = new WebSession(kiln);
      const response = await web.signIn('alice', alice.password);
      expect(response.statusCode).toBe(303);
      expect(await sessionRows()).toBe(before + 1);
      expect((await web.get('/profile/applications')).statusCode).toBe(200);
    });

    it('refuses with 422 the token of another visitor\'s cookie, and a forged one', async () => {
      const other = await kiln.request('GET', '/users/sign_in');
      const web = new WebSession(kiln);
      await web.get('/users/sign_in');
      const foreign = await web.post('/users/sign_in', { login: 'alice', password: alice.password, authenticity_token: csrfTokenOf(other.body) });
      expect(foreign.statusCode).toBe(422);
      const forged = await web.post('/users/sign_in', { login: 'alice', password: alice.password, authenticity_token: 'x'.repeat(43) });
      expect(forged.statusCode).toBe(422);
    });

    it('refuses with 422 a token sent without its cookie', async () => {
      const page = await kiln.request('GET', '/users/sign_in');
      const response = await kiln.request('POST', '/users/sign_in', { form: { login: 'alice', password: alice.password, authenticity_token: csrfTokenOf(page.body) } });
      expect(response.statusCode).toBe(422);
    });

    it('writes no row for a wrong password', async () => {
      const before = await sessionRows();
      const web = new WebSession(kiln);
      expect((await web.post('/users/sign_in', { login: 'alice', password: 'wrong-wrong' }, { csrfFrom: '/users/sign_in' })).statusCode).toBe(401);
      expect(await sessionRows()).toBe(before);
    });
  });
});

describe('POST /users/sign_out', () => {
  describe('as a signed-in user', () => {
    it('deletes the row and leaves an anonymous session that writes nothing', async () => {
      const web = await signedIn(kiln, alice);
      const home = await web.get('/profile/applications');
      const rows = await sessionRows();
      expect((await web.post('/users/sign_out', { authenticity_token: csrfTokenOf(home.body) })).statusCode).toBe(303);
      expect(await sessionRows()).toBe(rows - 1);
      await web.get('/users/sign_in');
      expect(await sessionRows()).toBe(rows - 1);
    });
  });
});

describe('POST /users/sign_in/two_factor', () => {
  describe('when the second step took too long', () => {
    it('shows its message on the sign-in page it redirects to, without a row for it', async () => {
      const erin = await kiln.createUser('erin');
      const setupWeb = await signedIn(kiln, erin);
      const setup = await setupWeb.get('/profile/two_factor_auth');
      const secret = /<code id="otp-secret">([A-Z2-7]+)<\/code>/.exec(setup.body)![1];
      const pin = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: kiln.clock.now() });
      await setupWeb.post('/profile/two_factor_auth', { pin_code: pin, authenticity_token: csrfTokenOf(setup.body) });

      const web = new WebSession(kiln);
      const step = await web.post('/users/sign_in', { login: 'erin', password: erin.password }, { csrfFrom: '/users/sign_in' });
      expect(step.body).toContain('name="otp_attempt"');
      kiln.clock.advance(11 * 60_000);
      const rows = await sessionRows();
      const late = await web.post('/users/sign_in/two_factor', { otp_attempt: '000000', authenticity_token: csrfTokenOf(step.body) });
      expect(late.statusCode).toBe(303);
      expect(await sessionRows()).toBe(rows - 1);
      const cookies = ([] as string[]).concat(late.headers['set-cookie'] as string[]);
      const flash = cookies.find((line) => line.startsWith('_kiln_flash='))!.split(';')[0];
      const page = await kiln.app.inject({ method: 'GET', url: String(late.headers.location), headers: { cookie: `${web.cookie}; ${flash}` } });
      expect(page.body).toContain('Your sign-in took too long. Sign in again.');
      // A flash cookie is bound to its session: with another visitor's session it shows nothing.
      const stranger = await kiln.app.inject({ method: 'GET', url: '/users/sign_in', headers: { cookie: `${sessionCookieOf((await kiln.request('GET', '/users/sign_in')).headers)}; ${flash}` } });
      expect(stranger.body).not.toContain('took too long');
    });
  });
});
