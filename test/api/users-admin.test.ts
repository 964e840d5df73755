// Administrators managing users (deletion to the ghost user or hard, block/unblock/deactivate/activate
// with GitLab's rules and messages, activities) and everyone's e-mail addresses with confirmation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { createEmail } from '../../src/accounts/create-email.js';
import { findUser } from '../../src/accounts/lookup.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

async function issueBy(user: TestUser, projectId: number) {
  return (await kiln.api('POST', `/projects/${projectId}/issues`, { token: user.token, body: { title: `by ${user.username}` } })).body;
}

describe('DELETE /api/v4/users/:id', () => {
  describe('as an administrator', () => {
    it('answers 204, blocks the user at once, and the job passes their issues and comments to the ghost user', async () => {
      const leaving = await kiln.createUser('leaving');
      const project = await kiln.createProject(alice, 'kept-work', { visibility: 'public' });
      const issue = await issueBy(leaving, project.id);
      await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: leaving.token, body: { body: 'a comment' } });
      const own = await kiln.createProject(leaving, 'personal');
      const labelEvent = await kiln.deps.db
        .insertInto('resource_label_events')
        .values({ issue_id: issue.id, label_id: null, user_id: leaving.id, action: 'add', created_at: kiln.clock.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { status } = await kiln.api('DELETE', `/users/${leaving.id}`, { token: kiln.root.token });
      expect(status).toBe(204);
      expect((await kiln.api('GET', `/users/${leaving.id}`, { token: kiln.root.token })).body.state).toBe('blocked');
      await kiln.worker.drain();
      expect((await kiln.api('GET', `/users/${leaving.id}`, { token: kiln.root.token })).status).toBe(404);
      const kept = (await kiln.api('GET', `/projects/${project.id}/issues/${issue.iid}`, { token: alice.token })).body;
      expect(kept.author).toMatchObject({ username: 'ghost', name: 'Ghost User' });
      const notes = (await kiln.api('GET', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: alice.token })).body;
      expect(notes.find((note: any) => note.body === 'a comment').author.username).toBe('ghost');
      expect((await kiln.api('GET', `/projects/${own.id}`, { token: kiln.root.token })).status).toBe(404);
      const ghost = (await kiln.api('GET', '/users', { token: kiln.root.token, query: { username: 'ghost' } })).body[0];
      const moved = await kiln.deps.db.selectFrom('resource_label_events').select('user_id').where('id', '=', labelEvent.id).executeTakeFirstOrThrow();
      expect(Number(moved.user_id)).toBe(ghost.id);
      expect(ghost.bio).toMatch(/^This is a "Ghost User"/);
      // The ghost user itself is never deleted, and a second deletion reuses it.
      expect((await kiln.api('DELETE', `/users/${ghost.id}`, { token: kiln.root.token })).status).toBe(403);
    });

    it('with hard_delete=true removes their issues instead', async () => {
      const leaving = await kiln.createUser('hard-leaving');
      const project = await kiln.createProject(alice, 'hard-work', { visibility: 'public' });
      const issue = await issueBy(leaving, project.id);
      expect((await kiln.api('DELETE', `/users/${leaving.id}`, { token: kiln.root.token, query: { hard_delete: 'true' } })).status).toBe(204);
      await kiln.worker.drain();
      expect((await kiln.api('GET', `/projects/${project.id}/issues/${issue.iid}`, { token: alice.token })).status).toBe(404);
    });

    it('answers 409 for the only Owner of a group, unless hard_delete also deletes the group', async () => {
      const owner = await kiln.createUser('solo-owner');
      const group = await kiln.createGroup(owner, 'solo-group');
      expect(await kiln.api('DELETE', `/users/${owner.id}`, { token: kiln.root.token })).toMatchObject({ status: 409, body: { message: 'User cannot be removed while is the sole-owner of a group' } });
      expect((await kiln.api('DELETE', `/users/${owner.id}`, { token: kiln.root.token, body: { hard_delete: true } })).status).toBe(204);
      await kiln.worker.drain();
      expect((await kiln.api('GET', `/groups/${group.id}`, { token: kiln.root.token })).status).toBe(404);
    });

    it("deletes a project access token's bot user (hard_delete, as python-gitlab's suite resets), its token with it", async () => {
      const project = await kiln.createProject(alice, 'bot-home');
      const token = (await kiln.api('POST', `/projects/${project.id}/access_tokens`, { token: alice.token, body: { name: 'ci', scopes: ['api'], access_level: 30 } })).body;
      expect((await kiln.api('DELETE', `/users/${token.user_id}`, { token: kiln.root.token, query: { hard_delete: 'true' } })).status).toBe(204);
      await kiln.worker.drain();
      expect((await kiln.api('GET', `/users/${token.user_id}`, { token: kiln.root.token })).status).toBe(404);
      expect((await kiln.api('GET', '/user', { token: token.token })).status).toBe(401);
      expect((await kiln.api('GET', `/projects/${project.id}/access_tokens`, { token: alice.token })).body).toEqual([]);
    });

    it('of an unknown user answers 404', async () => {
      expect(await kiln.api('DELETE', '/users/999999', { token: kiln.root.token })).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    });
  });

  describe('as a user', () => {
    it('answers 403', async () => {
      expect((await kiln.api('DELETE', `/users/${kiln.root.id}`, { token: alice.token })).status).toBe(403);
    });
  });
});

describe('PUT /api/v4/users/:id', () => {
  it('as an administrator stores every documented parameter and answers them back', async () => {
    const user = await kiln.createUser('every-field');
    const sent = {
      name: 'Every Field', email: 'every-new@example.com', bio: 'bio', location: 'here', website_url: 'https://example.com',
      organization: 'org', public_email: 'every-new@example.com', private_profile: true,
    };
    const { status, body } = await kiln.api('PUT', `/users/${user.id}`, { token: kiln.root.token, body: { ...sent, admin: true, password: 'a-new-password-1', notification_email: 'every-field@example.com' } });
    expect(status).toBe(200);
    const read = (await kiln.api('GET', `/users/${user.id}`, { token: kiln.root.token })).body;
    for (const answer of [body, read]) expect(answer).toMatchObject({ ...sent, is_admin: true });
    expect((await kiln.api('GET', '/notification_settings', { token: user.token })).body.notification_email).toBe('every-field@example.com');
    expect((await kiln.request('POST', '/oauth/token', { form: { grant_type: 'password', username: user.username, password: 'a-new-password-1' } })).statusCode).toBe(200);
    // The old primary address stays one of the user's, confirmed.
    expect((await kiln.api('GET', `/users/${user.id}/emails`, { token: kiln.root.token })).body.map((e: any) => [e.email, e.confirmed_at !== null])).toEqual([
      ['every-field@example.com', true],
      ['every-new@example.com', true],
    ]);
  });
});

describe('POST /api/v4/users/:id/block, unblock, deactivate and activate', () => {
  it('block and unblock answer 201 true; repeating a block answers null; the blocked user\'s token stops', async () => {
    const user = await kiln.createUser('blockee');
    expect(await kiln.api('POST', `/users/${user.id}/block`, { token: kiln.root.token })).toMatchObject({ status: 201, body: true });
    expect(await kiln.api('POST', `/users/${user.id}/block`, { token: kiln.root.token })).toMatchObject({ status: 201, body: null });
    expect(await kiln.api('GET', '/user', { token: user.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden - Your account has been blocked.' } });
    expect(await kiln.api('POST', `/users/${user.id}/activate`, { token: kiln.root.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden - A blocked user must be unblocked to be activated' } });
    expect(await kiln.api('POST', `/users/${user.id}/deactivate`, { token: kiln.root.token })).toMatchObject({ status: 403, body: { message: 'Error occurred. A blocked user cannot be deactivated' } });
    expect(await kiln.api('POST', `/users/${user.id}/unblock`, { token: kiln.root.token })).toMatchObject({ status: 201, body: true });
    expect(await kiln.api('POST', `/users/${user.id}/unblock`, { token: kiln.root.token })).toMatchObject({ status: 201, body: false });
    expect((await kiln.api('GET', '/user', { token: user.token })).status).toBe(200);
  });

  it('an administrator cannot block themself', async () => {
    expect(await kiln.api('POST', `/users/${kiln.root.id}/block`, { token: kiln.root.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden - The API initiating user cannot be blocked by the API' } });
  });

  it('deactivates only a user without activity in the last 90 days, and activates them again', async () => {
    const active = await kiln.createUser('recently-active');
    await kiln.api('GET', '/user', { token: active.token });
    expect(await kiln.api('POST', `/users/${active.id}/deactivate`, { token: kiln.root.token })).toMatchObject({
      status: 403,
      body: { message: 'The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated' },
    });
    const dormant = await kiln.createUser('dormant');
    expect(await kiln.api('POST', `/users/${dormant.id}/deactivate`, { token: kiln.root.token })).toMatchObject({ status: 201, body: true });
    expect(await kiln.api('POST', `/users/${dormant.id}/deactivate`, { token: kiln.root.token })).toMatchObject({ status: 201, body: null });
    expect((await kiln.api('GET', `/users/${dormant.id}`, { token: kiln.root.token })).body.state).toBe('deactivated');
    expect(await kiln.api('GET', '/user', { token: dormant.token })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Your account has been deactivated by your administrator. Please log back in to reactivate your account.' },
    });
    expect(await kiln.api('POST', `/users/${dormant.id}/unblock`, { token: kiln.root.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden - Deactivated users cannot be unblocked by the API' } });
    expect(await kiln.api('POST', `/users/${dormant.id}/activate`, { token: kiln.root.token })).toMatchObject({ status: 201, body: true });
    expect((await kiln.api('GET', '/user', { token: dormant.token })).status).toBe(200);
  });

  it('a deactivated user is refused by the OAuth password grant, and reactivated by signing in on the web', async () => {
    const user = await kiln.createUser('comes-back');
    await kiln.api('POST', `/users/${user.id}/deactivate`, { token: kiln.root.token });
    const grant = await kiln.request('POST', '/oauth/token', { form: { grant_type: 'password', username: user.username, password: user.password } });
    expect(grant.statusCode).toBe(400);
    await new WebSession(kiln).signIn(user.username, user.password);
    expect((await kiln.api('GET', `/users/${user.id}`, { token: kiln.root.token })).body.state).toBe('active');
    expect((await kiln.api('GET', '/user', { token: user.token })).status).toBe(200);
  });

  it('as a user answers 403', async () => {
    expect((await kiln.api('POST', `/users/${kiln.root.id}/block`, { token: alice.token })).status).toBe(403);
  });
});

describe('GET /api/v4/user/activities', () => {
  it('as an administrator lists the users seen since `from`, least recent first', async () => {
    const seen = await kiln.createUser('seen-today');
    await kiln.api('GET', '/user', { token: seen.token });
    const { status, body } = await kiln.api('GET', '/user/activities', { token: kiln.root.token, query: { from: '2026-11-01' } });
    expect(status).toBe(200);
    expect(body).toContainEqual({ username: 'seen-today', last_activity_on: '2026-11-22', last_activity_at: '2026-11-22' });
    expect((await kiln.api('GET', '/user/activities', { token: kiln.root.token, query: { from: '2026-12-01' } })).body).toEqual([]);
  });

  it('counts signing in on the web as activity', async () => {
    const user = await kiln.createUser('web-seen');
    await new WebSession(kiln).signIn(user.username, user.password);
    const { body } = await kiln.api('GET', '/user/activities', { token: kiln.root.token, query: { per_page: '100' } });
    expect(body.map((activity: any) => activity.username)).toContain('web-seen');
  });

  it('counts a request with an OAuth token as activity too', async () => {
    const user = await kiln.createUser('oauth-seen');
    const grant = await kiln.request('POST', '/oauth/token', { form: { grant_type: 'password', username: user.username, password: user.password } });
    const token = JSON.parse(grant.body).access_token;
    expect((await kiln.request('GET', '/api/v4/user', { headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    const { body } = await kiln.api('GET', '/user/activities', { token: kiln.root.token, query: { per_page: '100' } });
    expect(body.map((activity: any) => activity.username)).toContain('oauth-seen');
  });

  it('as a user answers 403', async () => {
    expect((await kiln.api('GET', '/user/activities', { token: alice.token })).status).toBe(403);
  });
});

describe('/api/v4/user/emails', () => {
  it('lists the primary address, adds one unconfirmed, confirms it by its link, and deletes it', async () => {
    const user = await kiln.createUser('mailer');
    const listed = (await kiln.api('GET', '/user/emails', { token: user.token })).body;
    expect(listed).toEqual([{ id: expect.any(Number), email: 'mailer@example.com', confirmed_at: '2026-11-22T08:00:00.000Z' }]);
    const added = await kiln.api('POST', '/user/emails', { token: user.token, body: { email: 'second@example.com' } });
    expect(added).toMatchObject({ status: 201, body: { email: 'second@example.com', confirmed_at: null } });
    expect((await kiln.api('GET', `/user/emails/${added.body.id}`, { token: user.token })).body.email).toBe('second@example.com');
    // An unconfirmed address cannot receive notifications.
    expect(await kiln.api('PUT', '/notification_settings', { token: user.token, body: { notification_email: 'second@example.com' } })).toMatchObject({
      status: 400,
      body: { message: { notification_email: ['must be an email you have verified'] } },
    });
    // The confirmation e-mail went out with the link.
    const sent = await kiln.deps.db.selectFrom('email_outbox').selectAll().where('to_address', '=', 'second@example.com').executeTakeFirstOrThrow();
    const link = /http:\/\/kiln\.test(\/-\/profile\/emails\/confirmation\?confirmation_token=[0-9a-f]+)/.exec(sent.text_body)![1];
    expect((await kiln.request('GET', link)).statusCode).toBe(200);
    expect((await kiln.request('GET', link)).statusCode).toBe(404);
    expect((await kiln.api('GET', '/user/emails', { token: user.token })).body[1].confirmed_at).toBe('2026-11-22T08:00:00.000Z');
    expect((await kiln.api('PUT', '/notification_settings', { token: user.token, body: { notification_email: 'second@example.com' } })).body.notification_email).toBe('second@example.com');
    expect((await kiln.api('DELETE', `/user/emails/${added.body.id}`, { token: user.token })).status).toBe(204);
    // Deleting the chosen address returns notifications to the primary one.
    expect((await kiln.api('GET', '/notification_settings', { token: user.token })).body.notification_email).toBe('mailer@example.com');
    expect(await kiln.api('DELETE', `/user/emails/${listed[0].id}`, { token: user.token })).toMatchObject({ status: 400, body: { message: '400 Bad request - Cannot delete primary email' } });
  });

  it('refuses an invalid address and one any user has, with the model\'s 400', async () => {
    expect(await kiln.api('POST', '/user/emails', { token: alice.token, body: { email: 'not-an-address' } })).toMatchObject({ status: 400, body: { message: { email: ['is invalid'] } } });
    expect(await kiln.api('POST', '/user/emails', { token: alice.token, body: { email: 'ALICE@example.com' } })).toMatchObject({ status: 400, body: { message: { email: ['has already been taken'] } } });
    expect(await kiln.api('POST', '/user/emails', { token: alice.token, body: {} })).toMatchObject({ status: 400, body: { error: 'email is missing' } });
  });

  it('another user\'s address is 404 to you', async () => {
    const other = await kiln.createUser('other-mailer');
    const row = await createEmail(kiln.deps, await findUser(kiln.deps, other.id), 'theirs@example.com', { confirmed: true });
    expect((await kiln.api('GET', `/user/emails/${row.email.id}`, { token: alice.token })).status).toBe(404);
    expect((await kiln.api('DELETE', `/user/emails/${row.email.id}`, { token: alice.token })).status).toBe(404);
  });
});

describe('/api/v4/users/:id/emails', () => {
  it('as an administrator adds a confirmed address with skip_confirmation, which may then be the notification address', async () => {
    const user = await kiln.createUser('admin-mail');
    const added = await kiln.api('POST', `/users/${user.id}/emails`, { token: kiln.root.token, body: { email: 'work@example.com', skip_confirmation: true } });
    expect(added.body).toMatchObject({ email: 'work@example.com', confirmed_at: '2026-11-22T08:00:00.000Z' });
    const unconfirmed = await kiln.api('POST', `/users/${user.id}/emails`, { token: kiln.root.token, body: { email: 'later@example.com' } });
    expect(unconfirmed.body.confirmed_at).toBeNull();
    expect((await kiln.api('GET', `/users/${user.id}/emails`, { token: kiln.root.token })).body.map((e: any) => e.email)).toEqual(['admin-mail@example.com', 'work@example.com', 'later@example.com']);
    expect(await kiln.api('PUT', `/users/${user.id}`, { token: kiln.root.token, body: { name: 'Not Stored', notification_email: 'later@example.com' } })).toMatchObject({ status: 400, body: { message: { notification_email: ['must be an email you have verified'] } } });
    expect((await kiln.api('GET', `/users/${user.id}`, { token: kiln.root.token })).body.name).toBe('User admin-mail');
    expect((await kiln.api('PUT', `/users/${user.id}`, { token: kiln.root.token, body: { notification_email: 'work@example.com' } })).status).toBe(200);
    expect((await kiln.api('PUT', `/users/${user.id}`, { token: kiln.root.token, body: { public_email: 'work@example.com' } })).body.public_email).toBe('work@example.com');
    expect((await kiln.api('GET', '/notification_settings', { token: user.token })).body.notification_email).toBe('work@example.com');
    expect((await kiln.api('DELETE', `/users/${user.id}/emails/${unconfirmed.body.id}`, { token: kiln.root.token })).status).toBe(204);
    expect((await kiln.api('DELETE', `/users/${user.id}/emails/${added.body.id}`, { token: kiln.root.token })).status).toBe(204);
    expect((await kiln.api('GET', `/users/${user.id}`, { token: kiln.root.token })).body.public_email).toBe('');
  });

  it('public_email must be one of the user\'s confirmed addresses', async () => {
    const user = await kiln.createUser('public-mail');
    expect(await kiln.api('PUT', `/users/${user.id}`, { token: kiln.root.token, body: { public_email: 'not-mine@example.com' } })).toMatchObject({ status: 400, body: { message: { public_email: ['is not an email you own'] } } });
    await kiln.api('POST', `/users/${user.id}/emails`, { token: kiln.root.token, body: { email: 'unconfirmed@example.com' } });
    expect((await kiln.api('PUT', `/users/${user.id}`, { token: kiln.root.token, body: { public_email: 'unconfirmed@example.com' } })).status).toBe(400);
    expect((await kiln.api('PUT', `/users/${user.id}`, { token: kiln.root.token, body: { public_email: 'public-mail@example.com' } })).body.public_email).toBe('public-mail@example.com');
    expect(await kiln.api('POST', '/users', { token: kiln.root.token, body: { username: 'pm2', name: 'P', email: 'pm2@example.com', password: 'pm2-password-1', public_email: 'x@example.com' } })).toMatchObject({ status: 400, body: { message: { public_email: ['is not an email you own'] } } });
  });

  it('as a user answers 403', async () => {
    expect((await kiln.api('GET', `/users/${alice.id}/emails`, { token: alice.token })).status).toBe(403);
    expect((await kiln.api('POST', `/users/${alice.id}/emails`, { token: alice.token, body: { email: 'x@example.com', skip_confirmation: true } })).status).toBe(403);
  });
});
