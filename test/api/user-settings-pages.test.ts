// The signed-in user's own settings pages (issue 36): profile, password, preferences, active sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser, password = user.password, agent = 'TestBrowser/1.0') {
  const web = new WebSession(kiln);
  const original = kiln.app.inject.bind(kiln.app);
  // Each session says which browser it is, as the active sessions page shows.
  (web as unknown as { kiln: TestKiln }).kiln = { ...kiln, app: { ...kiln.app, inject: (options: any) => original({ ...options, headers: { ...options.headers, 'user-agent': agent } }) } } as unknown as TestKiln;
  await web.signIn(user.username, password);
  return web;
}

describe('/profile', () => {
  it('saves name, pronouns, location, website, bio and a confirmed public e-mail, shown by the API and the profile page', async () => {
    const web = await signedIn(alice);
    const form = await web.get('/profile');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<option value="alice@example.com">alice@example.com</option>');
    const saved = await web.post('/profile', { name: 'Alice <b>A</b>', pronouns: 'she/her', location: 'Lyon', website_url: 'https://alice.example', bio: 'Bakes <script>alert(1)</script>', public_email: 'alice@example.com' });
    expect(saved.statusCode).toBe(303);
    const api = await kiln.api('GET', `/users/${alice.id}`, { token: alice.token });
    expect(api.body).toMatchObject({ name: 'Alice <b>A</b>', pronouns: 'she/her', location: 'Lyon', website_url: 'https://alice.example', bio: 'Bakes <script>alert(1)</script>', public_email: 'alice@example.com' });
    const again = await web.get('/profile');
    expect(again.body).toContain('Profile was successfully updated.');
    expect(again.body).toContain('value="Alice &lt;b&gt;A&lt;/b&gt;"');
    expect(again.body).toContain('Bakes &lt;script&gt;');
    const profile = await web.get('/alice');
    expect(profile.body).toContain('she/her');
    expect(profile.body).toContain('href="https://alice.example"');
    expect(profile.body).not.toContain('<script>alert(1)');
  });

  it('refuses a javascript: website and an address the user does not own, keeping what was typed, errors beside the fields', async () => {
    const web = await signedIn(alice);
    const refused = await web.post('/profile', { name: 'Typed name', pronouns: '', location: '', website_url: 'javascript:alert(1)', bio: '', public_email: 'someone@else.example' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('value="Typed name"');
    expect(refused.body).toMatch(/<p class="field-error" id="website_url-error">Website URL is not a valid URL<\/p>/);
    expect(refused.body).toContain('aria-describedby="website_url-error"');
    expect((await kiln.api('GET', `/users/${alice.id}`, { token: alice.token })).body.website_url).toBe('https://alice.example');
  });

  it('asks anonymous visitors to sign in and refuses a form without the CSRF token', async () => {
    const anonymous = await kiln.request('GET', '/profile');
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toBe('/users/sign_in?return_to=%2Fprofile');
    const web = await signedIn(alice);
    const forged = await web.post('/profile', { authenticity_token: 'forged', name: 'Mallory' });
    expect(forged.statusCode).toBe(422);
    expect((await kiln.api('GET', `/users/${alice.id}`, { token: alice.token })).body.name).toBe('Alice <b>A</b>');
  });
});

describe('/profile/password', () => {
  it('asks the current password, then signs out every other session and keeps this one', async () => {
    const bob = await kiln.createUser('bob');
    const laptop = await signedIn(bob, bob.password, 'Laptop');
    const phone = await signedIn(bob, bob.password, 'Phone');
    const wrong = await laptop.post('/profile/password', { current_password: 'not-it', password: 'new-password-1', password_confirmation: 'new-password-1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('Current password is invalid');
    const mismatch = await laptop.post('/profile/password', { current_password: bob.password, password: 'new-password-1', password_confirmation: 'other' });
    expect(mismatch.body).toContain('Password confirmation doesn&#39;t match Password');
    const short = await laptop.post('/profile/password', { current_password: bob.password, password: 'short', password_confirmation: 'short' });
    expect(short.body).toContain('Password is too short (minimum is 8 characters)');
    const changed = await laptop.post('/profile/password', { current_password: bob.password, password: 'new-password-1', password_confirmation: 'new-password-1' });
    expect(changed.statusCode).toBe(303);
    expect((await laptop.get('/profile/password/edit')).body).toContain('Password was successfully updated.');
    expect((await phone.get('/profile')).statusCode).toBe(302);
    await expect(signedIn(bob)).rejects.toThrow();
    await signedIn(bob, 'new-password-1');
  });

  it('sends a user whose password expired (root generated one) to the password page after signing in, and wants a new one', async () => {
    const carol = await kiln.createUser('carol');
    await kiln.deps.db.updateTable('users').set({ password_expires_at: kiln.clock.now() }).where('id', '=', carol.id).execute();
    const web = new WebSession(kiln);
    const signIn = await web.signIn('carol', carol.password);
    expect(signIn.headers.location).toBe('/profile/password/edit');
    expect((await web.get('/profile/password/edit')).body).toContain('Your password must be changed before you go on');
    const same = await web.post('/profile/password', { current_password: carol.password, password: carol.password, password_confirmation: carol.password });
    expect(same.body).toContain('must be different from the current password');
    await web.post('/profile/password', { current_password: carol.password, password: 'a-brand-new-one', password_confirmation: 'a-brand-new-one' });
    const row = await kiln.deps.db.selectFrom('users').select('password_expires_at').where('id', '=', carol.id).executeTakeFirstOrThrow();
    expect(row.password_expires_at).toBeNull();
    expect((await new WebSession(kiln).signIn('carol', 'a-brand-new-one')).headers.location).toBe('/');
  });
});

describe('/profile/preferences', () => {
  it('stores the theme and time zone; the layout applies the theme', async () => {
    const web = await signedIn(alice);
    expect((await web.get('/profile/preferences')).body).toMatch(/<html lang="en">/);
    const saved = await web.post('/profile/preferences', { theme: 'dark', time_zone: 'Europe/Paris' });
    expect(saved.statusCode).toBe(303);
    const page = await web.get('/profile/preferences');
    expect(page.body).toContain('<html lang="en" class="theme-dark">');
    expect(page.body).toContain('<option selected>Europe/Paris</option>');
    const bad = await web.post('/profile/preferences', { theme: 'purple', time_zone: 'Mars/Olympus' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Theme is not included in the list');
    expect(bad.body).toContain('Time zone is not included in the list');
    await web.post('/profile/preferences', { theme: 'light', time_zone: 'UTC' });
    expect((await web.get('/profile')).body).toContain('<html lang="en" class="theme-light">');
  });

  it('serves the dark rules for the dark class and, under the media query, for pages not set light', async () => {
    const css = (await kiln.request('GET', '/-/assets/kiln.css')).body;
    expect(css).toContain('html.theme-dark body{color:#d8dae0;background:#0f1117}');
    expect(css).toContain('@media (prefers-color-scheme: dark){html:not(.theme-light){color-scheme:dark}');
  });
});

describe('/profile/active_sessions', () => {
  it('lists the sessions with their browser and revokes another one, not someone else’s', async () => {
    const dave = await kiln.createUser('dave');
    const desk = await signedIn(dave, dave.password, 'DeskBrowser/2');
    const tablet = await signedIn(dave, dave.password, 'TabletBrowser/3');
    await kiln.deps.db.updateTable('users').set({ time_zone: 'Asia/Tokyo' }).where('id', '=', dave.id).execute();
    const list = await desk.get('/profile/active_sessions');
    expect(list.body).toContain('DeskBrowser/2');
    expect(list.body).toContain('TabletBrowser/3');
    expect(list.body).toContain('GMT+9');
    expect(list.body.match(/This is your current session/g)).toHaveLength(1);
    const action = /action="(\/profile\/active_sessions\/[0-9a-f]+\/revoke)"/.exec(list.body)![1];
    const stranger = await signedIn(alice);
    const foreign = await stranger.post(action, {}, { csrfFrom: '/profile' });
    expect(foreign.statusCode).toBe(303);
    expect((await tablet.get('/profile')).statusCode).toBe(200);
    const revoked = await desk.post(action, {}, { csrfFrom: '/profile/active_sessions' });
    expect(revoked.statusCode).toBe(303);
    expect((await tablet.get('/profile')).statusCode).toBe(302);
    expect((await desk.get('/profile/active_sessions')).body).not.toContain('TabletBrowser/3');
  });
});

describe('root with a generated password', () => {
  it('is sent to change it at the first sign-in', async () => {
    const fresh = await testKiln({ initialRootPassword: null });
    try {
      const password = readFileSync(join(fresh.testDb.dataDir, 'initial_root_password'), 'utf8').trim();
      const web = new WebSession(fresh);
      const response = await web.signIn('root', password);
      expect(response.headers.location).toBe('/profile/password/edit');
      expect((await web.get('/profile/password/edit')).body).toContain('Your password has expired: choose a new one to go on.');
    } finally {
      await fresh.close();
    }
  });
});
