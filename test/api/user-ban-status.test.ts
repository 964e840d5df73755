// Banning users and user statuses (doc/api/users.md): an administrator bans an active user and unbans
// a banned one (201 true; 403 "You cannot ban blocked users." for any other state); a banned user
// signs in nowhere and their tokens stop, as a blocked user's. A user sets, reads and clears their
// status; anyone signed in reads another's by id or username; bad values are 400 naming the parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

describe('POST /api/v4/users/:id/ban and /unban', () => {
  it('as an administrator bans an active user: state banned, token refused, web and OAuth sign-in refused; unban restores them', async () => {
    const user = await kiln.createUser('bannee');
    expect(await kiln.api('POST', `/users/${user.id}/ban`, { token: kiln.root.token })).toMatchObject({ status: 201, body: true });
    expect((await kiln.api('GET', `/users/${user.id}`, { token: kiln.root.token })).body.state).toBe('banned');
    expect(await kiln.api('GET', '/user', { token: user.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden - Your account has been blocked.' } });
    await expect(new WebSession(kiln).signIn(user.username, user.password)).rejects.toThrow(/sign-in failed/);
    const grant = await kiln.request('POST', '/oauth/token', { form: { grant_type: 'password', username: user.username, password: user.password } });
    expect(grant.statusCode).toBe(400);
    expect(await kiln.api('POST', `/users/${user.id}/ban`, { token: kiln.root.token })).toMatchObject({ status: 403, body: { message: 'You cannot ban banned users.' } });
    expect(await kiln.api('POST', `/users/${user.id}/unban`, { token: kiln.root.token })).toMatchObject({ status: 201, body: true });
    expect((await kiln.api('GET', '/user', { token: user.token })).status).toBe(200);
    expect(await kiln.api('POST', `/users/${user.id}/unban`, { token: kiln.root.token })).toMatchObject({ status: 403, body: { message: 'You cannot unban active users.' } });
  });

  it('refuses to ban a blocked user, and a banned user is neither activated nor deactivated', async () => {
    const user = await kiln.createUser('blocked-one');
    await kiln.api('POST', `/users/${user.id}/block`, { token: kiln.root.token });
    expect(await kiln.api('POST', `/users/${user.id}/ban`, { token: kiln.root.token })).toMatchObject({ status: 403, body: { message: 'You cannot ban blocked users.' } });
    const other = await kiln.createUser('banned-two');
    await kiln.api('POST', `/users/${other.id}/ban`, { token: kiln.root.token });
    expect((await kiln.api('POST', `/users/${other.id}/deactivate`, { token: kiln.root.token })).status).toBe(403);
    expect((await kiln.api('POST', `/users/${other.id}/activate`, { token: kiln.root.token })).status).toBe(403);
  });

  it('an administrator cannot ban themself', async () => {
    expect(await kiln.api('POST', `/users/${kiln.root.id}/ban`, { token: kiln.root.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden - The API initiating user cannot be banned by the API' } });
    expect((await kiln.api('GET', '/user', { token: kiln.root.token })).status).toBe(200);
  });

  it('answers 404 for a missing user, 403 to a non-administrator, 400 for a bad id', async () => {
    expect(await kiln.api('POST', '/users/999999/ban', { token: kiln.root.token })).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    expect((await kiln.api('POST', `/users/${kiln.root.id}/ban`, { token: alice.token })).status).toBe(403);
    expect((await kiln.api('POST', '/users/abc/unban', { token: kiln.root.token })).status).toBe(400);
  });
});

describe('/api/v4/user/status and /api/v4/users/:id/status', () => {
  it('sets, reads and clears the current user\'s status; others read it by id or username', async () => {
    const empty = { emoji: null, availability: null, message: null, message_html: '', clear_status_at: null };
    expect(await kiln.api('GET', '/user/status', { token: alice.token })).toMatchObject({ status: 200, body: empty });
    const set = await kiln.api('PUT', '/user/status', { token: alice.token, body: { emoji: 'coffee', message: 'Back <soon> :tada:', availability: 'busy', clear_status_after: '3_hours' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      emoji: 'coffee',
      availability: 'busy',
      message: 'Back <soon> :tada:',
      message_html: 'Back &lt;soon&gt; <gl-emoji title="tada" data-name="tada">🎉</gl-emoji>',
      clear_status_at: '2026-11-22T11:00:00.000Z',
    });
    expect((await kiln.api('GET', '/user/status', { token: alice.token })).body).toEqual(set.body);
    expect((await kiln.api('GET', '/users/alice/status', { token: kiln.root.token })).body).toEqual(set.body);
    expect((await kiln.api('GET', `/users/${alice.id}/status`, { token: kiln.root.token })).body).toEqual(set.body);
    expect((await kiln.api('GET', '/users/nobody-here/status', { token: kiln.root.token })).status).toBe(404);
    // A message alone wears the default emoji.
    const plain = await kiln.api('PUT', '/user/status', { token: alice.token, body: { message: 'Reviewing' } });
    expect(plain.body).toMatchObject({ emoji: 'speech_balloon', message: 'Reviewing', availability: 'busy', clear_status_at: '2026-11-22T11:00:00.000Z' });
    expect((await kiln.api('PUT', '/user/status', { token: alice.token, body: {} })).body).toEqual(empty);
    expect((await kiln.api('GET', '/user/status', { token: alice.token })).body).toEqual(empty);
  });

  it('reads a status past its clear_status_at as none', async () => {
    const user = await kiln.createUser('brief');
    await kiln.api('PUT', '/user/status', { token: user.token, body: { message: 'Lunch', clear_status_after: '30_minutes' } });
    kiln.clock.advance(31 * 60_000);
    expect((await kiln.api('GET', '/user/status', { token: user.token })).body.message).toBeNull();
  });

  it('shows the status on the profile page', async () => {
    const user = await kiln.createUser('profiled');
    await kiln.api('PUT', '/user/status', { token: user.token, body: { emoji: 'rocket', message: 'Shipping <it>', availability: 'busy' } });
    const page = await new WebSession(kiln).get('/profiled');
    expect(page.body).toContain('<p class="user-status"><span aria-hidden="true">🚀</span> Shipping &lt;it&gt; <span class="badge">Busy</span></p>');
  });

  it('answers 400 naming a wrong value, and 401 without a token', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ emoji: 'not-an-emoji' }, 'emoji'],
      [{ message: 'x'.repeat(101) }, 'message'],
      [{ availability: 'away' }, 'availability'],
      [{ message: 'hi', clear_status_after: '2_hours' }, 'clear_status_after'],
      [{ message: { nested: true } }, 'message'],
    ];
    for (const [body, parameter] of cases) {
      const answer = await kiln.api('PUT', '/user/status', { token: alice.token, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(answer.body)).toContain(parameter);
    }
    expect((await kiln.api('GET', '/user/status')).status).toBe(401);
  });
});
