// Forgotten passwords (issue 36): the same answer for known and unknown addresses, a mailed link
// whose token is kept only as a digest, that works once and expires, throttled per address and per
// account; a reset signs out every session of the user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let frank: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  frank = await kiln.createUser('frank');
});
afterAll(() => kiln.close());

async function mailsTo(address: string) {
  return kiln.deps.db.selectFrom('email_outbox').selectAll().where('to_address', '=', address).orderBy('id').execute();
}

function tokenOf(text: string): string {
  return /\/users\/password\/edit\?reset_password_token=([A-Za-z0-9_-]+)/.exec(text)![1];
}

/** The page a redirect leads to, with the anonymous visitor's flash cookie a browser would send. */
async function follow(web: WebSession, response: { headers: Record<string, unknown> }) {
  const cookies = ([] as string[]).concat((response.headers['set-cookie'] as string[] | undefined) ?? []);
  const flash = cookies.find((line) => line.startsWith('_kiln_flash='))?.split(';')[0];
  return kiln.app.inject({ method: 'GET', url: String(response.headers.location), headers: { cookie: flash ? `${web.cookie}; ${flash}` : web.cookie } });
}

async function requestReset(email: string) {
  const web = new WebSession(kiln);
  const response = await web.post('/users/password', { email }, { csrfFrom: '/users/password/new' });
  return { response, page: await follow(web, response) };
}

describe('/users/password', () => {
  it('answers a known and an unknown address alike, and mails only the known one a link stored as a digest', async () => {
    const known = await requestReset('FRANK@example.com');
    const unknown = await requestReset('nobody@example.com');
    expect(known.response.statusCode).toBe(303);
    expect(unknown.response.statusCode).toBe(known.response.statusCode);
    expect(unknown.response.headers.location).toBe(known.response.headers.location);
    expect(known.page.body).toContain('If your email address exists in our database, you will receive a password recovery link');
    expect(unknown.page.body).toContain('If your email address exists in our database, you will receive a password recovery link');
    expect(await mailsTo('nobody@example.com')).toHaveLength(0);
    const [mail] = await mailsTo('frank@example.com');
    expect(mail.subject).toBe('Reset password instructions');
    const token = tokenOf(mail.text_body);
    const row = await kiln.deps.db.selectFrom('users').select('reset_password_digest').where('id', '=', frank.id).executeTakeFirstOrThrow();
    expect(row.reset_password_digest).toBe(createHash('sha256').update(token).digest('hex'));
    expect(row.reset_password_digest).not.toContain(token);
  });

  it('mails an account at most once a minute', async () => {
    await kiln.deps.db.deleteFrom('email_outbox').execute();
    const gina = await kiln.createUser('gina');
    await requestReset('gina@example.com');
    const second = await requestReset('gina@example.com');
    expect(second.page.body).toContain('If your email address exists in our database');
    expect(await mailsTo('gina@example.com')).toHaveLength(1);
    kiln.clock.advance(61_000);
    await requestReset('gina@example.com');
    expect(await mailsTo('gina@example.com')).toHaveLength(2);
    expect(gina.username).toBe('gina');
  });

  it('sets a new password through the link once, signing out the other sessions; the link then fails', async () => {
    const henry = await kiln.createUser('henry');
    const elsewhere = new WebSession(kiln);
    await elsewhere.signIn('henry', henry.password);
    await requestReset('henry@example.com');
    const token = tokenOf((await mailsTo('henry@example.com'))[0].text_body);
    const web = new WebSession(kiln);
    const form = await web.get(`/users/password/edit?reset_password_token=${token}`);
    expect(form.statusCode).toBe(200);
    const mismatch = await web.post('/users/password/edit', { reset_password_token: token, password: 'henry-new-pass', password_confirmation: 'other' }, { csrfFrom: `/users/password/edit?reset_password_token=${token}` });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain('id="password_confirmation-error"');
    const changed = await web.post('/users/password/edit', { reset_password_token: token, password: 'henry-new-pass', password_confirmation: 'henry-new-pass' }, { csrfFrom: `/users/password/edit?reset_password_token=${token}` });
    expect(changed.statusCode).toBe(303);
    expect(changed.headers.location).toBe('/users/sign_in');
    expect((await elsewhere.get('/profile')).statusCode).toBe(302);
    await new WebSession(kiln).signIn('henry', 'henry-new-pass');
    await expect(new WebSession(kiln).signIn('henry', henry.password)).rejects.toThrow();
    const again = await web.post('/users/password/edit', { reset_password_token: token, password: 'henry-third-pass', password_confirmation: 'henry-third-pass' }, { csrfFrom: '/users/password/new' });
    expect(again.headers.location).toBe('/users/password/new');
    expect((await follow(web, again)).body).toContain('This password reset link is invalid or has expired.');
    expect((await new WebSession(kiln).get(`/users/password/edit?reset_password_token=${token}`)).headers.location).toBe('/users/password/new');
  });

  it('refuses a link older than an hour', async () => {
    const iris = await kiln.createUser('iris');
    await requestReset('iris@example.com');
    const token = tokenOf((await mailsTo('iris@example.com'))[0].text_body);
    kiln.clock.advance(60 * 60_000);
    const web = new WebSession(kiln);
    expect((await web.get(`/users/password/edit?reset_password_token=${token}`)).headers.location).toBe('/users/password/new');
    const late = await web.post('/users/password/edit', { reset_password_token: token, password: 'iris-new-pass', password_confirmation: 'iris-new-pass' }, { csrfFrom: '/users/password/new' });
    expect(late.headers.location).toBe('/users/password/new');
    await new WebSession(kiln).signIn('iris', iris.password);
  });

  it('links to the form from the sign-in page and refuses a form without the CSRF token', async () => {
    expect((await kiln.request('GET', '/users/sign_in')).body).toContain('href="/users/password/new"');
    const web = new WebSession(kiln);
    const forged = await web.post('/users/password', { authenticity_token: 'forged', email: 'frank@example.com' });
    expect(forged.statusCode).toBe(422);
  });
});

describe('throttling per address', () => {
  it('answers 429 after GitLab’s protected-paths limit of requests from one address', async () => {
    const limited = await testKiln({ protectedPathsPerMinute: 3 });
    try {
      const web = new WebSession(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await web.post('/users/password', { email: `x${i}@example.com` }, { csrfFrom: '/users/password/new' })).statusCode);
      expect(statuses).toEqual([303, 303, 303, 429]);
    } finally {
      await limited.close();
    }
  });
});
