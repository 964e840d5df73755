// Sign-up (issue 36, docs/accounts.md) against a real SMTP server: closed by default; open, a visitor's
// account waits for an administrator (POST /users/:id/approve|reject) and, when asked, for its address
// to be confirmed through a mailed, expiring, single-use link; the domain allow and deny lists; the
// same answer for a taken address; and an account usable at once when nothing is asked.
import { afterAll, beforeAll, describe as describeAll, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { SMTP_SERVER_AVAILABLE, SmtpTestServer, type ReceivedMail } from '../helpers/smtp-server.js';

// Without Debian's python3-aiosmtpd (a fresh machine, not CI) there is no real SMTP server to test against.
const describe = describeAll.skipIf(!SMTP_SERVER_AVAILABLE);

let kiln: TestKiln;
let smtp: SmtpTestServer;

beforeAll(async () => {
  if (!SMTP_SERVER_AVAILABLE) return;
  smtp = await SmtpTestServer.start();
  kiln = await testKiln({ smtpUrl: smtp.url, emailFrom: 'Kiln <kiln@kiln.test>' });
});
afterAll(async () => {
  await kiln?.close();
  await smtp?.stop();
});

async function settings(body: Record<string, unknown>) {
  const { status, body: answer } = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body });
  expect(status, JSON.stringify(answer)).toBe(200);
}

/** Every message delivered so far, once the SMTP server has recorded each one the outbox marks sent. */
async function delivered(): Promise<ReceivedMail[]> {
  await kiln.worker.drain();
  const sent = await kiln.deps.db.selectFrom('email_outbox').select('id').where('state', '=', 'sent').execute();
  return smtp.waitFor(sent.length);
}

async function mailsTo(address: string): Promise<ReceivedMail[]> {
  return (await delivered()).filter((mail) => mail.rcptTos.includes(address));
}

function confirmationLink(mail: ReceivedMail): string {
  return /http:\/\/kiln\.test(\/users\/confirmation\?confirmation_token=[0-9a-f]+)/.exec(mail.text ?? '')![1];
}

/** The page a redirect leads to, with the flash cookie a browser would send. */
async function follow(web: WebSession, response: { headers: Record<string, unknown> }) {
  const cookies = ([] as string[]).concat((response.headers['set-cookie'] as string[] | undefined) ?? []);
  const flash = cookies.find((line) => line.startsWith('_kiln_flash='))?.split(';')[0];
  return kiln.app.inject({ method: 'GET', url: String(response.headers.location), headers: { cookie: [web.cookie, flash].filter(Boolean).join('; ') } });
}

async function signUp(username: string, fields: Record<string, string> = {}) {
  const web = new WebSession(kiln);
  const response = await web.post('/users', { name: `${username} Person`, username, email: `${username}@example.com`, password: `${username}-password-1`, ...fields }, { csrfFrom: '/users/sign_up' });
  return { web, response };
}

async function stateOf(username: string): Promise<string | undefined> {
  return (await kiln.deps.db.selectFrom('users').select('state').where('username', '=', username).executeTakeFirst())?.state;
}

async function signInAnswer(login: string, password: string) {
  return new WebSession(kiln).post('/users/sign_in', { login, password }, { csrfFrom: '/users/sign_in' });
}

describe('sign-up while closed (the default)', () => {
  it('has no sign-up page, refuses the form and offers no link on the sign-in page', async () => {
    // As for any page that is not there, an anonymous visitor is sent to sign in.
    const form = await kiln.request('GET', '/users/sign_up');
    expect([form.statusCode, form.headers.location]).toEqual([302, '/users/sign_in?return_to=%2Fusers%2Fsign_up']);
    const web = new WebSession(kiln);
    expect((await web.post('/users', { username: 'early', name: 'Early', email: 'early@example.com', password: 'early-password' }, { csrfFrom: '/users/sign_in' })).statusCode).toBe(404);
    expect(await stateOf('early')).toBeUndefined();
    expect((await kiln.request('GET', '/users/sign_in')).body).not.toContain('/users/sign_up');
  });
});

describe('sign-up with administrator approval (on by default) and e-mail confirmation', () => {
  beforeAll(async () => {
    if (SMTP_SERVER_AVAILABLE) await settings({ signup_enabled: true, send_user_confirmation_email: true });
  });

  it('waits for approval: told so on the form and at sign-in, administrators mailed, tokens useless', async () => {
    expect((await kiln.request('GET', '/users/sign_in')).body).toContain('href="/users/sign_up"');
    const { web, response } = await signUp('visitor');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/users/sign_in');
    expect((await follow(web, response)).body).toContain('your account is awaiting approval from your administrator');
    expect(await stateOf('visitor')).toBe('blocked_pending_approval');
    const [notice] = await mailsTo('admin@example.com');
    expect(notice.text).toContain('visitor Person (@visitor, visitor@example.com) signed up and awaits your approval.');
    expect(await mailsTo('visitor@example.com')).toEqual([]);
    const refused = await signInAnswer('visitor', 'visitor-password-1');
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain('Your account is pending approval from your administrator');
    // A wrong password is told nothing more than for any unknown login.
    expect((await signInAnswer('visitor', 'wrong-password-1')).body).toContain('Invalid login or password.');
    const { body: listed } = await kiln.api('GET', '/users?username=visitor', { token: kiln.root.token });
    expect(listed[0].state).toBe('blocked_pending_approval');
  });

  it('POST /api/v4/users/:id/approve activates it once, mails the welcome and the confirmation link; the link confirms once', async () => {
    const id = Number((await kiln.deps.db.selectFrom('users').select('id').where('username', '=', 'visitor').executeTakeFirstOrThrow()).id);
    const someone = await kiln.createUser('notadmin');
    expect((await kiln.api('POST', `/users/${id}/approve`, { token: someone.token })).status).toBe(403);
    expect(await kiln.api('POST', `/users/${id}/approve`, { token: kiln.root.token })).toMatchObject({ status: 201, body: { message: 'Success' } });
    expect(await kiln.api('POST', `/users/${id}/approve`, { token: kiln.root.token })).toMatchObject({ status: 409, body: { message: 'The user you are trying to approve is not pending approval' } });
    expect(await kiln.api('POST', `/users/${someone.id}/approve`, { token: kiln.root.token })).toMatchObject({ status: 409 });
    const mails = await mailsTo('visitor@example.com');
    expect(mails.map((mail) => mail.headers.find(([name]) => name === 'Subject')?.[1]).sort()).toEqual(['Confirmation instructions', 'Welcome to Kiln!']);
    expect((await signInAnswer('visitor', 'visitor-password-1')).body).toContain('You have to confirm your email address before continuing.');
    const link = confirmationLink(mails.find((mail) => mail.text?.includes('confirmation_token'))!);
    const token = new URL(link, 'http://kiln.test').searchParams.get('confirmation_token')!;
    const stored = await kiln.deps.db.selectFrom('emails').select('confirmation_digest').where('email_lower', '=', 'visitor@example.com').executeTakeFirstOrThrow();
    expect(stored.confirmation_digest).toBe(createHash('sha256').update(token).digest('hex'));
    const web = new WebSession(kiln);
    const confirmed = await web.get(link);
    expect(confirmed.headers.location).toBe('/users/sign_in');
    expect((await follow(web, confirmed)).body).toContain('Your email address has been successfully confirmed.');
    await new WebSession(kiln).signIn('visitor', 'visitor-password-1');
    expect((await new WebSession(kiln).get(link)).headers.location).toBe('/users/confirmation/new');
  });

  it('POST /api/v4/users/:id/reject mails the visitor and deletes the account; 409 for a user not waiting', async () => {
    await signUp('unwanted');
    const id = Number((await kiln.deps.db.selectFrom('users').select('id').where('username', '=', 'unwanted').executeTakeFirstOrThrow()).id);
    expect(await kiln.api('POST', `/users/${id}/reject`, { token: kiln.root.token })).toMatchObject({ status: 200, body: { message: 'Success' } });
    await kiln.worker.drain();
    expect(await stateOf('unwanted')).toBeUndefined();
    const [rejection] = await mailsTo('unwanted@example.com');
    expect(rejection.text).toContain('has been rejected');
    expect(await kiln.api('POST', `/users/${kiln.root.id}/reject`, { token: kiln.root.token })).toMatchObject({ status: 409, body: { message: 'User does not have a pending request' } });
  });

  it('answers a taken address as a new sign-up and tells its owner instead of creating anything', async () => {
    const owner = await kiln.createUser('owner');
    const { web, response } = await signUp('impostor', { email: 'OWNER@example.com' });
    expect(response.headers.location).toBe('/users/sign_in');
    expect((await follow(web, response)).body).toContain('your account is awaiting approval from your administrator');
    expect(await stateOf('impostor')).toBeUndefined();
    const [notice] = await mailsTo('OWNER@example.com');
    expect(notice.text).toContain('Someone tried to sign up on this Kiln instance with your e-mail address');
    expect(owner.username).toBe('owner');
  });

  it('keeps what was typed and shows each error by its field, escaped', async () => {
    const { response } = await signUp('visitor', { name: '<script>alert(1)</script>', email: 'not-an-address', password: 'short' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(response.body).not.toContain('<script>alert(1)');
    expect(response.body).toContain('id="email-error"');
    expect(response.body).toContain('id="password-error"');
    const taken = await signUp('visitor', { email: 'visitor2@example.com' });
    expect(taken.response.body).toContain('Username has already been taken');
  });

  it('refuses a form without the CSRF token', async () => {
    const web = new WebSession(kiln);
    const forged = await web.post('/users', { authenticity_token: 'forged', username: 'forger', name: 'F', email: 'forger@example.com', password: 'forger-password' });
    expect(forged.statusCode).toBe(422);
    expect(await stateOf('forger')).toBeUndefined();
  });
});

describe('sign-up with confirmation only', () => {
  beforeAll(async () => {
    if (SMTP_SERVER_AVAILABLE) await settings({ signup_enabled: true, send_user_confirmation_email: true, require_admin_approval_after_user_signup: false });
  });

  it('mails the link at once; it runs out after three days; a new one is sent with the same answer as for an unknown address', async () => {
    const { web, response } = await signUp('confirmer');
    expect(await stateOf('confirmer')).toBe('active');
    expect((await follow(web, response)).body).toContain('A message with a confirmation link has been sent to your email address.');
    const [first] = await mailsTo('confirmer@example.com');
    kiln.clock.advance(3 * 24 * 60 * 60_000);
    expect((await new WebSession(kiln).get(confirmationLink(first))).headers.location).toBe('/users/confirmation/new');
    const asker = new WebSession(kiln);
    const known = await asker.post('/users/confirmation', { email: 'confirmer@example.com' }, { csrfFrom: '/users/confirmation/new' });
    const unknown = await asker.post('/users/confirmation', { email: 'nobody@example.com' }, { csrfFrom: '/users/confirmation/new' });
    expect(unknown.headers.location).toBe(known.headers.location);
    expect((await follow(asker, unknown)).body).toContain('If your email address exists in our database');
    const mails = await mailsTo('confirmer@example.com');
    expect(mails).toHaveLength(2);
    expect((await new WebSession(kiln).get(confirmationLink(mails[1]))).headers.location).toBe('/users/sign_in');
    await new WebSession(kiln).signIn('confirmer', 'confirmer-password-1');
  });
});

describe('sign-up restricted by domain', () => {
  it('takes only allowlisted domains (with * wildcards), then refuses denylisted ones', async () => {
    await settings({ signup_enabled: true, require_admin_approval_after_user_signup: true, domain_allowlist: ['*.example.org'] });
    const outside = await signUp('outsider');
    expect(outside.response.statusCode).toBe(400);
    expect(outside.response.body).toContain('Email domain is not authorized for sign-up.');
    expect((await signUp('insider', { email: 'insider@team.example.org' })).response.statusCode).toBe(303);
    await settings({ domain_allowlist: [], domain_denylist_enabled: true, domain_denylist: ['EXAMPLE.net'] });
    expect((await signUp('denied', { email: 'denied@example.net' })).response.body).toContain('Email is not from an allowed domain.');
    expect(await stateOf('denied')).toBeUndefined();
  });
});

describe('sign-up asking for nothing', () => {
  it('signs the new account in at once', async () => {
    await settings({ signup_enabled: true, require_admin_approval_after_user_signup: false, send_user_confirmation_email: false, domain_denylist_enabled: false });
    const { web, response } = await signUp('instant');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/');
    expect((await web.get('/profile')).statusCode).toBe(200);
  });
});
