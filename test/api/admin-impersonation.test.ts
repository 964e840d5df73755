// Impersonation from the admin area (issue 36): an administrator becomes an active user in a new
// session, every page says so with the way back, stopping returns to the administrator on the user's
// admin page; both are audit lines in the application log; blocked users, pending sign-ups and
// oneself cannot be impersonated; a user cannot start or stop anything.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let ivy: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  ivy = await kiln.createUser('ivy');
  await kiln.createUser('bo');
});
afterAll(() => kiln.close());

async function adminSession(): Promise<WebSession> {
  const admin = new WebSession(kiln);
  await admin.signIn('root', 'root-password-1');
  return admin;
}

describe('impersonation', () => {
  it('signs the administrator in as the user with the banner, audited, and stops back to the admin', async () => {
    const admin = await adminSession();
    const before = admin.cookie;
    const audit = vi.spyOn(kiln.deps.log, 'info');
    expect((await admin.get('/admin/users/ivy')).body).toContain('action="/admin/users/ivy/impersonate"');
    const started = await admin.post('/admin/users/ivy/impersonate', {}, { csrfFrom: '/admin/users/ivy' });
    expect(started.statusCode).toBe(303);
    expect(started.headers.location).toBe('/');
    expect(admin.cookie).not.toBe(before);
    expect(audit).toHaveBeenCalledWith(expect.objectContaining({ audit: 'impersonation_started', target_id: ivy.id, author_id: kiln.root.id }), 'User root has started impersonating ivy');

    const home = await admin.get('/profile');
    expect(home.body).toContain('You are now impersonating <strong>ivy</strong>');
    expect(home.body).toContain('action="/admin/impersonation"');
    expect(home.body).toContain('(@ivy)');
    // The impersonated user is no administrator: the admin area is closed to this session.
    expect((await admin.get('/admin/users')).statusCode).toBe(404);
    // The administrator's old session is gone.
    expect((await kiln.app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: before } })).statusCode).toBe(302);

    const stopped = await admin.post('/admin/impersonation', {}, { csrfFrom: '/profile' });
    expect(stopped.statusCode).toBe(303);
    expect(stopped.headers.location).toBe('/admin/users/ivy');
    expect(audit).toHaveBeenCalledWith(expect.objectContaining({ audit: 'impersonation_stopped', target_id: ivy.id, author_id: kiln.root.id }), 'User root has stopped impersonating ivy');
    const back = await admin.get('/admin/users/ivy');
    expect(back.statusCode).toBe(200);
    expect(back.body).not.toContain('You are now impersonating');
    audit.mockRestore();
  });

  it('refuses blocked users, pending sign-ups and oneself, with GitLab’s words', async () => {
    const admin = await adminSession();
    await kiln.api('POST', '/users/' + (await kiln.deps.db.selectFrom('users').select('id').where('username', '=', 'bo').executeTakeFirstOrThrow()).id + '/block', { token: kiln.root.token });
    const blocked = await admin.post('/admin/users/bo/impersonate', {}, { csrfFrom: '/admin/users/bo' });
    expect(blocked.headers.location).toBe('/admin/users/bo');
    expect((await admin.get('/admin/users/bo')).body).toContain('You cannot impersonate a blocked user');
    expect((await admin.get('/admin/users/bo')).body).not.toContain('action="/admin/users/bo/impersonate"');
    await kiln.deps.db.updateTable('users').set({ state: 'blocked_pending_approval' }).where('username', '=', 'bo').execute();
    await admin.post('/admin/users/bo/impersonate', {}, { csrfFrom: '/admin/users/bo' });
    expect((await admin.get('/admin/users/bo')).body).toContain('You cannot impersonate a user who cannot log in');
    await admin.post('/admin/users/root/impersonate', {}, { csrfFrom: '/admin/users/root' });
    expect((await admin.get('/admin/users/root')).body).toContain('You cannot impersonate yourself');
    expect((await admin.get('/profile')).body).not.toContain('You are now impersonating');
    expect((await admin.post('/admin/users/nobody/impersonate', {}, { csrfFrom: '/admin/users' })).statusCode).toBe(404);
  });

  it('is for administrators, and stopping is only for an impersonated session; both need the CSRF token', async () => {
    const user = new WebSession(kiln);
    await user.signIn('ivy', ivy.password);
    expect((await user.post('/admin/users/root/impersonate', {}, { csrfFrom: '/profile' })).statusCode).toBe(404);
    expect((await user.post('/admin/impersonation', {}, { csrfFrom: '/profile' })).statusCode).toBe(404);
    expect((await user.get('/profile')).body).toContain('(@ivy)');
    const admin = await adminSession();
    const forged = await kiln.app.inject({ method: 'POST', url: '/admin/users/ivy/impersonate', headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(forged.statusCode).toBe(422);
    expect((await admin.get('/profile')).body).not.toContain('You are now impersonating');
  });

  it('an administrator demoted while impersonating is signed out on stopping', async () => {
    await kiln.createUser('ada', { admin: true });
    const ada = new WebSession(kiln);
    await ada.signIn('ada', 'password-ada-1');
    await ada.post('/admin/users/ivy/impersonate', {}, { csrfFrom: '/admin/users/ivy' });
    expect((await ada.get('/profile')).body).toContain('You are now impersonating');
    await kiln.deps.db.updateTable('users').set({ admin: 0 }).where('username', '=', 'ada').execute();
    const stopped = await ada.post('/admin/impersonation', {}, { csrfFrom: '/profile' });
    expect(stopped.headers.location).toBe('/users/sign_in');
    expect((await ada.get('/profile')).statusCode).toBe(302);
  });
});
