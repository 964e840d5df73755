// The e-mail application settings (admin › Settings › Preferences › Email; issue 36) against a real
// SMTP server: GitLab's names, defaults and validations on PUT /application/settings and in the admin
// page's e-mail section; html_emails_enabled and email_author_in_body shaping the notification mail a
// mail client receives; email_restrictions and email_confirmation_setting acting on sign-up (`soft`'s
// grace period, banner and resend included).
import { afterAll, beforeAll, describe as describeAll, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { SMTP_SERVER_AVAILABLE, SmtpTestServer, type ReceivedMail } from '../helpers/smtp-server.js';

// Without Debian's python3-aiosmtpd (a fresh machine, not CI) there is no real SMTP server to test against.
const describe = describeAll.skipIf(!SMTP_SERVER_AVAILABLE);

let kiln: TestKiln;
let smtp: SmtpTestServer;
let admin: WebSession;
let owner: TestUser;
let watcher: TestUser;
let project: any;

beforeAll(async () => {
  if (!SMTP_SERVER_AVAILABLE) return;
  smtp = await SmtpTestServer.start();
  kiln = await testKiln({ smtpUrl: smtp.url, emailFrom: 'Kiln <kiln@kiln.test>' });
  admin = new WebSession(kiln);
  await admin.signIn('root', 'root-password-1');
  owner = await kiln.createUser('owner');
  watcher = await kiln.createUser('watcher');
  project = await kiln.createProject(owner, 'app');
  await kiln.addMember(owner, 'projects', project.id, watcher, 30);
  expect((await kiln.api('PUT', `/projects/${project.id}/notification_settings`, { token: watcher.token, body: { level: 'watch' } })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await kiln?.close();
  await smtp?.stop();
});

async function put(body: Record<string, unknown>) {
  return kiln.api('PUT', '/application/settings', { token: kiln.root.token, body });
}

/** Every message delivered since the last call, once the SMTP server has recorded each one sent. */
let seen = 0;
async function delivered(): Promise<ReceivedMail[]> {
  await kiln.worker.drain();
  const sent = await kiln.deps.db.selectFrom('email_outbox').select('id').where('state', '=', 'sent').execute();
  const all = await smtp.waitFor(sent.length);
  const fresh = all.slice(seen);
  seen = all.length;
  return fresh;
}

async function issueMailTo(user: TestUser, title: string): Promise<ReceivedMail> {
  const { status } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title, description: `The **${title}** description.` } });
  expect(status).toBe(201);
  const mail = (await delivered()).find((candidate) => candidate.rcptTos.includes(`${user.username}@example.com`));
  expect(mail).toBeDefined();
  return mail!;
}

describe('the e-mail settings on the API', () => {
  it('has GitLab\'s names and defaults', async () => {
    const { body } = await kiln.api('GET', '/application/settings', { token: kiln.root.token });
    expect(body).toMatchObject({
      html_emails_enabled: true, email_author_in_body: false, commit_email_hostname: 'users.noreply.kiln.test',
      email_confirmation_setting: 'off', user_deactivation_emails_enabled: true, email_restrictions_enabled: false, email_restrictions: '',
    });
  });

  it('refuses bad values with a 400 naming the setting, and stores nothing of the request', async () => {
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ email_confirmation_setting: 'sometimes' }, 'email_confirmation_setting does not have a valid value'],
      [{ html_emails_enabled: 'maybe' }, 'html_emails_enabled is invalid'],
    ];
    for (const [body, message] of refusals) {
      const answer = await put(body);
      expect(answer.status).toBe(400);
      expect(answer.body.error ?? answer.body.message).toBe(message);
    }
    const fields: Array<[Record<string, unknown>, string]> = [
      [{ commit_email_hostname: 'me@example.com', email_author_in_body: true }, 'commit_email_hostname'],
      [{ email_restrictions: '([a-z', email_author_in_body: true }, 'email_restrictions'],
      // RE2 has no look-arounds (a backtracking engine's catastrophic patterns cannot be written in it).
      [{ email_restrictions: '^(?!admin)', email_author_in_body: true }, 'email_restrictions'],
    ];
    for (const [body, name] of fields) {
      const answer = await put(body);
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body.message)).toEqual([name]);
      if (name === 'email_restrictions') expect(answer.body.message[name][0]).toMatch(/^not valid RE2 syntax: /);
    }
    expect((await kiln.api('GET', '/application/settings', { token: kiln.root.token })).body.email_author_in_body).toBe(false);
  });

  it('stores the inert ones and returns them; an empty host name returns to the default', async () => {
    const saved = await put({ commit_email_hostname: 'commits.kiln.test', user_deactivation_emails_enabled: false });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ commit_email_hostname: 'commits.kiln.test', user_deactivation_emails_enabled: false });
    expect((await put({ commit_email_hostname: '' })).body.commit_email_hostname).toBe('users.noreply.kiln.test');
  });
});

describe('the e-mail section of the admin page', () => {
  it('saves as the API does, and shows a refused value beside its field as typed', async () => {
    const page = await admin.get('/admin/application_settings/preferences');
    expect(page.body).toMatch(/id="html_emails_enabled" name="html_emails_enabled" value="1" checked/);
    expect(page.body).toContain('<option value="off" selected>Off</option>');
    const refused = await admin.post('/admin/application_settings/preferences', { section: 'email', html_emails_enabled: '1', email_confirmation_setting: 'off', email_restrictions: '(unclosed', commit_email_hostname: '' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/<p class="field-error" id="email_restrictions-error">Email restrictions for sign-ups not valid RE2 syntax/);
    expect(refused.body).toContain('>(unclosed</textarea>');
    const saved = await admin.post('/admin/application_settings/preferences', {
      section: 'email', html_emails_enabled: '1', email_author_in_body: '1', email_confirmation_setting: 'off', user_deactivation_emails_enabled: '1', email_restrictions: '\\+', commit_email_hostname: '',
    });
    expect(saved.statusCode).toBe(303);
    expect((await kiln.api('GET', '/application/settings', { token: kiln.root.token })).body).toMatchObject({
      html_emails_enabled: true, email_author_in_body: true, email_restrictions_enabled: false, email_restrictions: '\\+', user_deactivation_emails_enabled: true,
    });
  });
});

describe('notification mail as the settings shape it', () => {
  it('email_author_in_body names the author above the quoted description, in both parts', async () => {
    expect((await put({ email_author_in_body: true, html_emails_enabled: true })).status).toBe(200);
    const mail = await issueMailTo(watcher, 'Authored');
    expect(mail.contentType).toBe('multipart/alternative');
    expect(mail.text).toMatch(/User owner wrote:\r?\nThe \*\*Authored\*\* description\./);
    expect(mail.html).toContain('<p class="author">User owner wrote:</p>');
    expect((await put({ email_author_in_body: false })).status).toBe(200);
    expect((await issueMailTo(watcher, 'Unauthored')).text).not.toContain('wrote:');
  });

  it('html_emails_enabled off sends plain text only', async () => {
    expect((await put({ html_emails_enabled: false })).status).toBe(200);
    const mail = await issueMailTo(watcher, 'Plain');
    expect(mail.contentType).toBe('text/plain');
    expect(mail.html).toBeNull();
    expect(mail.text).toContain('The **Plain** description.');
    expect((await put({ html_emails_enabled: true })).status).toBe(200);
    expect((await issueMailTo(watcher, 'Rich again')).html).toContain('<strong>Rich again</strong>');
  });
});

describe('sign-up under the e-mail settings', () => {
  async function signUp(username: string, email: string) {
    const web = new WebSession(kiln);
    return web.post('/users', { name: `${username} Person`, username, email, password: `${username}-password-1` }, { csrfFrom: '/users/sign_up' });
  }

  it('refuses addresses email_restrictions matches while enabled, and lets them through when disabled', async () => {
    expect((await put({ signup_enabled: true, require_admin_approval_after_user_signup: false, email_restrictions_enabled: true, email_restrictions: '\\+|@spam\\.test$' })).status).toBe(200);
    const refused = await signUp('plus', 'someone+tag@example.com');
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Email is not allowed. Try again with a different email address, or contact your GitLab admin.');
    expect((await signUp('spammer', 'me@spam.test')).statusCode).toBe(400);
    expect((await signUp('regular', 'regular@example.com')).statusCode).toBe(303);
    expect((await put({ email_restrictions_enabled: false })).status).toBe(200);
    expect((await signUp('tagged', 'tagged+x@example.com')).statusCode).toBe(303);
  });

  it('email_confirmation_setting hard mails a confirmation link (as plain text with HTML e-mail off) and keeps the account waiting', async () => {
    await delivered();
    expect((await put({ email_confirmation_setting: 'hard', send_user_confirmation_email: false, html_emails_enabled: false })).status).toBe(200);
    const answer = await signUp('confirmer', 'confirmer@example.com');
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).not.toBe('/');
    const mail = (await delivered()).find((candidate) => candidate.rcptTos.includes('confirmer@example.com'));
    expect(mail?.text).toMatch(/\/users\/confirmation\?confirmation_token=[0-9a-f]+/);
    expect(mail?.contentType).toBe('text/plain');
    expect((await put({ html_emails_enabled: true })).status).toBe(200);
    expect((await new WebSession(kiln).get('/users/sign_in')).body).toContain('/users/confirmation/new');
  });
});

describe('email_confirmation_setting soft', () => {
  const day = 24 * 3600_000;
  const linkIn = (mail: ReceivedMail | undefined) => /\/users\/confirmation\?confirmation_token=[0-9a-f]+/.exec(mail?.text ?? '')?.[0];
  const passwordGrant = (username: string, password: string) => kiln.app.inject({
    method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });
  const mailTo = async (address: string) => (await delivered()).filter((candidate) => candidate.rcptTos.includes(address));

  it('is accepted by the API and the admin page', async () => {
    expect((await put({ email_confirmation_setting: 'soft' })).body.email_confirmation_setting).toBe('soft');
    const page = await admin.get('/admin/application_settings/preferences');
    expect(page.body).toContain('<option value="soft" selected>Soft</option>');
    const saved = await admin.post('/admin/application_settings/preferences', { section: 'email', html_emails_enabled: '1', email_confirmation_setting: 'hard', email_restrictions: '', commit_email_hostname: '' });
    expect(saved.statusCode).toBe(303);
    expect((await kiln.api('GET', '/application/settings', { token: kiln.root.token })).body.email_confirmation_setting).toBe('hard');
  });

  it('signs a new account in unconfirmed with a banner and a resend button, for three days, then asks for the link as hard does', async () => {
    await delivered();
    expect((await put({ signup_enabled: true, require_admin_approval_after_user_signup: false, send_user_confirmation_email: false, email_confirmation_setting: 'soft' })).status).toBe(200);
    const web = new WebSession(kiln);
    const signedUp = await web.post('/users', { name: 'Soft Person', username: 'softie', email: 'softie@example.com', password: 'softie-password-1' }, { csrfFrom: '/users/sign_up' });
    expect(signedUp.statusCode).toBe(303);
    expect(signedUp.headers.location).toBe('/');
    expect(linkIn((await mailTo('softie@example.com'))[0])).toBeDefined();

    const home = await web.get('/');
    expect(home.statusCode).toBe(200);
    expect(home.body).toMatch(/<div class="confirmation-banner" role="region" aria-label="Email confirmation">\s*<span>Confirm your email address <strong>softie@example.com<\/strong>/);
    const resent = await web.post('/users/confirmation', { email: 'softie@example.com' }, { csrfFrom: '/' });
    expect(resent.statusCode).toBe(303);
    expect(resent.headers.location).toBe('/');
    expect(linkIn((await mailTo('softie@example.com'))[0])).toBeDefined();
    // Confirmed users and `off` show no banner.
    expect((await admin.get('/')).body).not.toContain('confirmation-banner');

    // Signed out, the account signs in again within the grace period (the web form and the password grant).
    const again = new WebSession(kiln);
    kiln.clock.advance(2 * day);
    await again.signIn('softie', 'softie-password-1');
    expect((await again.get('/')).body).toContain('confirmation-banner');
    const grant = await passwordGrant('softie', 'softie-password-1');
    expect(grant.statusCode).toBe(200);

    // Three days after sign-up: the held session is signed out, and signing in says what hard says.
    kiln.clock.advance(day);
    const expired = await again.get('/dashboard/todos');
    expect(expired.statusCode).toBe(302);
    expect(expired.headers.location).toMatch(/^\/users\/sign_in/);
    const refused = await new WebSession(kiln).post('/users/sign_in', { login: 'softie', password: 'softie-password-1' }, { csrfFrom: '/users/sign_in' });
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain('You have to confirm your email address before continuing.');
    expect((await passwordGrant('softie', 'softie-password-1')).statusCode).toBe(400);

    // A new link (the earlier ones ran out with the three days) confirms the address: in again, no banner.
    kiln.clock.advance(61_000);
    expect((await new WebSession(kiln).post('/users/confirmation', { email: 'softie@example.com' }, { csrfFrom: '/users/confirmation/new' })).statusCode).toBe(303);
    const link = linkIn((await mailTo('softie@example.com'))[0]);
    expect((await new WebSession(kiln).get(link!)).headers.location).toBe('/users/sign_in');
    const confirmed = new WebSession(kiln);
    await confirmed.signIn('softie', 'softie-password-1');
    expect((await confirmed.get('/')).body).not.toContain('confirmation-banner');
  });

  it('off lets an account that signed up unconfirmed in, without a banner', async () => {
    expect((await put({ email_confirmation_setting: 'hard' })).status).toBe(200);
    const signedUp = await new WebSession(kiln).post('/users', { name: 'Late Person', username: 'late', email: 'late@example.com', password: 'late-password-1' }, { csrfFrom: '/users/sign_up' });
    expect(signedUp.headers.location).toBe('/users/sign_in');
    expect((await new WebSession(kiln).post('/users/sign_in', { login: 'late', password: 'late-password-1' }, { csrfFrom: '/users/sign_in' })).statusCode).toBe(401);
    expect((await put({ email_confirmation_setting: 'off' })).status).toBe(200);
    const web = new WebSession(kiln);
    await web.signIn('late', 'late-password-1');
    expect((await web.get('/')).body).not.toContain('confirmation-banner');
  });
});
