// Tokens of an account whose primary address is unconfirmed (issue 36): under email_confirmation_setting
// `soft` they work for the three days of grace, then the API refuses them with GitLab's 403 (its
// UserAccessDeniedReason message) and git over HTTP with its 401 challenge, as under `hard` at once;
// confirming the address lets them in again. The look-ups are cached (SQLite's row cache), so each
// token is used before the clock moves or the address is confirmed: a stale answer would show.
import { afterAll, beforeAll, describe as describeAll, expect, it } from 'vitest';
import { BASE_URL, testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { SMTP_SERVER_AVAILABLE, SmtpTestServer } from '../helpers/smtp-server.js';

// The confirmation link is read from a real SMTP server (Debian's python3-aiosmtpd).
const describe = describeAll.skipIf(!SMTP_SERVER_AVAILABLE);

const DAY = 24 * 3600_000;
const REFUSAL = '403 Forbidden - Your primary email address is not confirmed. Please check your inbox for the confirmation instructions. '
  + `In case the link is expired, you can request a new confirmation email at ${BASE_URL}/users/confirmation/new`;

let kiln: TestKiln;
let smtp: SmtpTestServer;

beforeAll(async () => {
  if (!SMTP_SERVER_AVAILABLE) return;
  smtp = await SmtpTestServer.start();
  kiln = await testKiln({ smtpUrl: smtp.url, emailFrom: 'Kiln <kiln@kiln.test>' });
  await settings({ signup_enabled: true, require_admin_approval_after_user_signup: false, send_user_confirmation_email: false });
}, 60_000);
afterAll(async () => {
  await kiln?.close();
  await smtp?.stop();
});

async function settings(body: Record<string, unknown>): Promise<void> {
  expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body })).status).toBe(200);
}

/** The newest confirmation link mailed to `address`. */
async function confirmationLink(address: string): Promise<string> {
  await kiln.worker.drain();
  const sent = await kiln.deps.db.selectFrom('email_outbox').select('id').where('state', '=', 'sent').execute();
  const mails = (await smtp.waitFor(sent.length)).filter((mail) => mail.rcptTos.includes(address));
  const link = /\/users\/confirmation\?confirmation_token=[0-9a-f]+/.exec(mails.at(-1)?.text ?? '')?.[0];
  expect(link).toBeDefined();
  return link!;
}

/** Signs `username` up on the form; its id and a personal access token an administrator made for it. */
async function signUp(username: string): Promise<{ id: number; token: string }> {
  const answer = await new WebSession(kiln).post('/users', { name: `Person ${username}`, username, email: `${username}@example.com`, password: `${username}-password-1` }, { csrfFrom: '/users/sign_up' });
  expect(answer.statusCode).toBe(303);
  const [user] = (await kiln.api('GET', `/users?username=${username}`, { token: kiln.root.token })).body;
  const created = await kiln.api('POST', `/users/${user.id}/personal_access_tokens`, { token: kiln.root.token, body: { name: 'cli', scopes: ['api', 'read_repository'] } });
  expect(created.status).toBe(201);
  return { id: user.id, token: created.body.token };
}

async function confirm(address: string): Promise<void> {
  expect((await new WebSession(kiln).get(await confirmationLink(address))).headers.location).toBe('/users/sign_in');
}

const asUser = (token: string) => kiln.api('GET', '/user', { token });
const basic = (username: string, token: string) => ({ authorization: `Basic ${Buffer.from(`${username}:${token}`).toString('base64')}` });
const gitRefs = (username: string, path: string, token: string) => kiln.request('GET', `/${path}.git/info/refs?service=git-upload-pack`, { headers: basic(username, token) });

describe('a personal access token of an unconfirmed account', () => {
  it('under soft works for three days, is refused by the API and git after them, and works again once confirmed', async () => {
    await settings({ email_confirmation_setting: 'soft' });
    const softie = await signUp('softie');
    kiln.clock.advance(2 * DAY);
    expect((await asUser(softie.token)).body.username).toBe('softie');
    const project = await kiln.api('POST', '/projects', { token: softie.token, body: { name: 'notes' } });
    expect(project.status).toBe(201);
    expect((await kiln.api('GET', `/projects/${project.body.id}`, { token: softie.token })).status).toBe(200);
    expect((await gitRefs('softie', 'softie/notes', softie.token)).statusCode).toBe(200);
    // An OAuth access token (it lives two hours) taken an hour before the grace period ends.
    kiln.clock.advance(23 * 3600_000);
    const grant = await kiln.app.inject({
      method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'password', username: 'softie', password: 'softie-password-1' }).toString(),
    });
    expect(grant.statusCode).toBe(200);
    const bearer = { authorization: `Bearer ${grant.json().access_token}` };
    expect((await kiln.api('GET', '/user', { headers: bearer })).status).toBe(200);
    expect((await asUser(softie.token)).status).toBe(200);

    // Three days after the sign-up: every way in refuses, though the look-ups above were cached.
    kiln.clock.advance(3600_000);
    expect(await asUser(softie.token)).toMatchObject({ status: 403, body: { message: REFUSAL } });
    expect(await kiln.api('GET', `/projects/${project.body.id}`, { token: softie.token })).toMatchObject({ status: 403, body: { message: REFUSAL } });
    expect(await kiln.api('GET', '/user', { headers: bearer })).toMatchObject({ status: 403, body: { message: REFUSAL } });
    const git = await gitRefs('softie', 'softie/notes', softie.token);
    expect(git.statusCode).toBe(401);
    expect(git.headers['www-authenticate']).toBe('Basic realm="Kiln"');

    // A new link (the first ran out with the three days) confirms the address: the same tokens work.
    kiln.clock.advance(61_000);
    expect((await new WebSession(kiln).post('/users/confirmation', { email: 'softie@example.com' }, { csrfFrom: '/users/confirmation/new' })).statusCode).toBe(303);
    await confirm('softie@example.com');
    expect((await asUser(softie.token)).status).toBe(200);
    expect((await kiln.api('GET', `/projects/${project.body.id}`, { token: softie.token })).status).toBe(200);
    expect((await kiln.api('GET', '/user', { headers: bearer })).status).toBe(200);
    expect((await gitRefs('softie', 'softie/notes', softie.token)).statusCode).toBe(200);
  });

  it('under hard is refused at once, works under off, and works once confirmed', async () => {
    await settings({ email_confirmation_setting: 'hard' });
    const hardy = await signUp('hardy');
    expect(await asUser(hardy.token)).toMatchObject({ status: 403, body: { message: REFUSAL } });
    // The setting is read on every look-up, not kept with the cached token.
    await settings({ email_confirmation_setting: 'off' });
    expect((await asUser(hardy.token)).status).toBe(200);
    await settings({ email_confirmation_setting: 'hard' });
    expect((await asUser(hardy.token)).status).toBe(403);
    await confirm('hardy@example.com');
    expect((await asUser(hardy.token)).body.username).toBe('hardy');
  });

  it('never touches an account an administrator made, whose address is confirmed', async () => {
    await settings({ email_confirmation_setting: 'hard' });
    const made = await kiln.createUser('made');
    kiln.clock.advance(10 * DAY);
    expect((await asUser(made.token)).body.username).toBe('made');
    expect((await asUser(kiln.root.token)).body.username).toBe('root');
  });
});
