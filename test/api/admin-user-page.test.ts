// One user in the admin area (issue 36): the page with the user's facts and actions, the edit form
// that writes through PUT /users/:id's service (its validation shown beside the fields, what was typed
// kept), a password set by an administrator expiring at once, a reset link mailed, and deletion
// confirmed by typing the username. For administrators only, CSRF-checked, user text escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let mia: TestUser;
let admin: WebSession;

beforeAll(async () => {
  kiln = await testKiln();
  mia = await kiln.createUser('mia');
  admin = new WebSession(kiln);
  await admin.signIn('root', 'root-password-1');
});
afterAll(() => kiln.close());

async function rowOf(username: string) {
  return kiln.deps.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

async function flashAfter(response: { headers: Record<string, unknown> }) {
  return (await admin.get(String(response.headers.location))).body;
}

describe('/admin/users/:username', () => {
  it('is for administrators: 404 to a user, sign-in for a visitor, 404 for an unknown user', async () => {
    const other = new WebSession(kiln);
    await other.signIn('mia', mia.password);
    for (const path of ['/admin/users/root', '/admin/users/root/edit']) {
      expect((await other.get(path)).statusCode, path).toBe(404);
      expect((await kiln.request('GET', path)).statusCode, path).toBe(302);
    }
    expect((await other.post('/admin/users/root/edit', { name: 'Taken over', email: 'root@example.com' }, { csrfFrom: '/profile' })).statusCode).toBe(404);
    expect((await rowOf('root'))?.name).not.toBe('Taken over');
    expect((await admin.get('/admin/users/nobody-here')).statusCode).toBe(404);
    expect((await admin.get('/admin/users/ghost')).statusCode).toBe(404);
  });

  it('shows the facts and the actions the state allows, linked from the list', async () => {
    expect((await admin.get('/admin/users?search=mia')).body).toContain('href="/admin/users/mia"');
    const shown = await admin.get('/admin/users/mia');
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('@mia');
    expect(shown.body).toContain('action="/admin/users/mia/block"');
    expect(shown.body).toContain('action="/admin/users/mia/deactivate"');
    expect(shown.body).not.toContain('action="/admin/users/mia/unblock"');
    expect(shown.body).toContain('href="/admin/users/mia/edit"');
    const self = await admin.get('/admin/users/root');
    expect(self.body).not.toContain('action="/admin/users/root/delete"');
    expect(self.body).not.toContain('action="/admin/users/root/block"');
  });

  it('a state change from the user page comes back to it', async () => {
    const blocked = await admin.post('/admin/users/mia/block', { from: 'user' }, { csrfFrom: '/admin/users/mia' });
    expect(blocked.headers.location).toBe('/admin/users/mia');
    expect(await flashAfter(blocked)).toContain('Successfully blocked: @mia');
    expect((await rowOf('mia'))?.state).toBe('blocked');
    await admin.post('/admin/users/mia/unblock', { from: 'user' }, { csrfFrom: '/admin/users/mia' });
    expect((await rowOf('mia'))?.state).toBe('active');
  });
});

describe('/admin/users/:username/edit', () => {
  const base = { name: 'Mia <script>x</script>', email: 'mia@example.com', pronouns: 'she/her', location: 'Oslo', organization: 'Shop', website_url: 'https://mia.example', bio: 'Bakes.' };

  it('saves the fields through the API service and escapes them on the page', async () => {
    const saved = await admin.post('/admin/users/mia/edit', { ...base, admin: '1' }, { csrfFrom: '/admin/users/mia/edit' });
    expect(saved.statusCode).toBe(303);
    expect(await flashAfter(saved)).toContain('User was successfully updated.');
    const row = await rowOf('mia');
    expect(row).toMatchObject({ name: base.name, pronouns: 'she/her', location: 'Oslo', organization: 'Shop', website_url: 'https://mia.example', bio: 'Bakes.', admin: 1, private_profile: 0 });
    const page = (await admin.get('/admin/users/mia')).body;
    expect(page).toContain('Mia &lt;script&gt;x&lt;/script&gt;');
    expect(page).not.toContain('<script>x</script>');
    const api = await kiln.api('GET', `/users/${mia.id}`, { token: kiln.root.token });
    expect(api.body.is_admin).toBe(true);
    await admin.post('/admin/users/mia/edit', { ...base }, { csrfFrom: '/admin/users/mia/edit' });
    expect((await rowOf('mia'))?.admin).toBe(0);
  });

  it('shows GitLab’s validation beside the field and keeps what was typed', async () => {
    const refused = await admin.post('/admin/users/mia/edit', { ...base, email: 'not an address', location: 'Bergen' }, { csrfFrom: '/admin/users/mia/edit' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('id="email-error"');
    expect(refused.body).toContain('Email is invalid');
    expect(refused.body).toContain('value="Bergen"');
    expect((await rowOf('mia'))?.location).toBe('Oslo');
    await kiln.createUser('taken');
    const taken = await admin.post('/admin/users/mia/edit', { ...base, email: 'taken@example.com' }, { csrfFrom: '/admin/users/mia/edit' });
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('Email has already been taken');
    const mismatch = await admin.post('/admin/users/mia/edit', { ...base, password: 'new-password-123', password_confirmation: 'other-password-123' }, { csrfFrom: '/admin/users/mia/edit' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain("Password confirmation doesn&#39;t match Password");
  });

  it('a password set for someone else must be changed at their next sign-in', async () => {
    expect((await rowOf('mia'))?.password_expires_at).toBeNull();
    const saved = await admin.post('/admin/users/mia/edit', { ...base, password: 'admin-chose-123', password_confirmation: 'admin-chose-123' }, { csrfFrom: '/admin/users/mia/edit' });
    expect(saved.statusCode).toBe(303);
    expect((await rowOf('mia'))?.password_expires_at).not.toBeNull();
  });

  it('an administrator cannot remove their own administrator access here', async () => {
    await admin.post('/admin/users/root/edit', { name: 'Administrator', email: (await rowOf('root'))!.email }, { csrfFrom: '/admin/users/root/edit' });
    expect((await rowOf('root'))?.admin).toBe(1);
  });

  it('refuses a form without the CSRF token', async () => {
    const forged = await kiln.app.inject({ method: 'POST', url: '/admin/users/mia/edit', headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=Forged&email=mia%40example.com' });
    expect(forged.statusCode).toBe(422);
    expect((await rowOf('mia'))?.name).not.toBe('Forged');
  });
});

describe('password reset link and deletion', () => {
  it('mails a reset link on request', async () => {
    const sent = await admin.post('/admin/users/taken/password_reset', {}, { csrfFrom: '/admin/users/taken' });
    expect(await flashAfter(sent)).toContain('A password reset link was sent to taken@example.com');
    const mails = await kiln.deps.db.selectFrom('email_outbox').select('subject').where('to_address', '=', 'taken@example.com').execute();
    expect(mails.map((mail) => mail.subject)).toContain('Reset password instructions');
  });

  it('deletes only when the username is typed, and never the administrator themself', async () => {
    const unconfirmed = await admin.post('/admin/users/taken/delete', { confirm_username: 'take' }, { csrfFrom: '/admin/users/taken' });
    expect(await flashAfter(unconfirmed)).toContain('The user was not deleted: type taken to confirm.');
    expect((await rowOf('taken'))?.state).toBe('active');
    await admin.post('/admin/users/root/delete', { confirm_username: 'root' }, { csrfFrom: '/admin/users/root' });
    expect((await rowOf('root'))?.state).toBe('active');
    const deleted = await admin.post('/admin/users/taken/delete', { confirm_username: 'taken' }, { csrfFrom: '/admin/users/taken' });
    expect(deleted.headers.location).toBe('/admin/users');
    expect((await rowOf('taken'))?.state).toBe('blocked');
    const jobs = await kiln.deps.db.selectFrom('jobs').select('payload').where('kind', '=', 'accounts.destroy_user').execute();
    expect(jobs.length).toBe(1);
  });
});
