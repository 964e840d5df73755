// Broadcast messages (issue 36): GitLab's /broadcast_messages API (reading public, writing for
// administrators), the admin page that manages them, and the banner every page shows while one is
// active: by target path and role, dismissable with a cookie, its Markdown sanitised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let user: TestUser;
let admin: WebSession;

// Times far from now, so that no test depends on the clock's progress.
const PAST = '2020-01-01T00:00:00Z';
const FUTURE = '2999-01-01T00:00:00Z';

beforeAll(async () => {
  kiln = await testKiln();
  user = await kiln.createUser('banner-reader');
  admin = new WebSession(kiln);
  await admin.signIn('root', 'root-password-1');
});
afterAll(() => kiln.close());

const create = (body: Record<string, unknown>) => kiln.api('POST', '/broadcast_messages', { token: kiln.root.token, body: { starts_at: PAST, ends_at: FUTURE, ...body } });
const remove = (id: number) => kiln.api('DELETE', `/broadcast_messages/${id}`, { token: kiln.root.token });

describe('the /broadcast_messages API', () => {
  it('creates with GitLab defaults, reads without a sign-in, updates and deletes', async () => {
    const made = await kiln.api('POST', '/broadcast_messages', { token: kiln.root.token, body: { message: 'Deploy in progress' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toEqual({
      id: expect.any(Number), message: 'Deploy in progress', starts_at: expect.any(String), ends_at: expect.any(String), color: '#E75E40', font: '#FFFFFF',
      target_access_levels: [], target_path: '', broadcast_type: 'banner', dismissable: false, active: true, theme: 'indigo',
    });
    expect(Date.parse(made.body.ends_at) - Date.parse(made.body.starts_at)).toBe(3_600_000);
    const id = made.body.id;
    const list = await kiln.api('GET', '/broadcast_messages');
    expect(list.status).toBe(200);
    expect(list.body.map((message: any) => message.id)).toContain(id);
    expect((await kiln.api('GET', `/broadcast_messages/${id}`)).body.message).toBe('Deploy in progress');
    const changed = await kiln.api('PUT', `/broadcast_messages/${id}`, {
      token: kiln.root.token, body: { message: 'Maintenance *tonight*', theme: 'light-red', broadcast_type: 'notification', dismissable: true, target_path: '*/issues', target_access_levels: '30,40', starts_at: FUTURE, ends_at: '3000-01-01T00:00:00Z' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ message: 'Maintenance *tonight*', theme: 'light-red', broadcast_type: 'notification', dismissable: true, target_path: '*/issues', target_access_levels: [30, 40], active: false, starts_at: '2999-01-01T00:00:00.000Z' });
    expect((await remove(id)).status).toBe(204);
    expect((await kiln.api('GET', `/broadcast_messages/${id}`)).status).toBe(404);
    expect((await remove(id)).status).toBe(404);
  });

  it('is written by administrators only: 401 for visitors, 403 for users', async () => {
    expect((await kiln.api('POST', '/broadcast_messages', { body: { message: 'x' } })).status).toBe(401);
    expect((await kiln.api('POST', '/broadcast_messages', { token: user.token, body: { message: 'x' } })).status).toBe(403);
    const made = await create({ message: 'kept' });
    expect((await kiln.api('PUT', `/broadcast_messages/${made.body.id}`, { token: user.token, body: { message: 'taken' } })).status).toBe(403);
    expect((await kiln.api('DELETE', `/broadcast_messages/${made.body.id}`, { token: user.token })).status).toBe(403);
    expect((await remove(made.body.id)).status).toBe(204);
  });

  it('refuses what GitLab refuses, with its shapes', async () => {
    expect((await kiln.api('POST', '/broadcast_messages', { token: kiln.root.token, body: {} })).body).toEqual({ error: 'message is missing' });
    const blank = await create({ message: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: { message: ["can't be blank"] } });
    expect((await create({ message: 'x', broadcast_type: 'popup' })).body).toEqual({ error: 'broadcast_type does not have a valid value' });
    expect((await create({ message: 'x', theme: 'neon' })).body).toEqual({ error: 'theme does not have a valid value' });
    expect((await create({ message: 'x', target_access_levels: [15] })).body).toEqual({ error: 'target_access_levels does not have a valid value' });
    expect((await create({ message: 'x', starts_at: 'soon' })).body).toEqual({ error: 'starts_at is invalid' });
    expect((await create({ message: 'x', color: 'red' })).body).toEqual({ message: { color: ['must be a valid color code'] } });
    expect((await create({ message: 'x', starts_at: FUTURE, ends_at: PAST })).body).toEqual({ message: { ends_at: ['must be after the start time'] } });
    expect((await kiln.api('PUT', '/broadcast_messages/999999', { token: kiln.root.token, body: { message: 'x' } })).status).toBe(404);
  });
});

describe('the banner on every page', () => {
  it('shows an active banner to visitors and users, sanitised, and not a scheduled or ended one', async () => {
    const active = await create({ message: 'Read **this** <script>alert(1)</script><img src=x onerror=alert(2)> [docs](javascript:alert(3)) [ok](https://example.com/)' });
    const scheduled = await create({ message: 'Not yet', starts_at: FUTURE, ends_at: '3000-01-01T00:00:00Z' });
    const ended = await create({ message: 'Already over', starts_at: PAST, ends_at: '2020-01-02T00:00:00Z' });
    const visitor = await kiln.request('GET', '/users/sign_in');
    for (const body of [visitor.body, (await (await signedIn(user)).get('/profile')).body]) {
      expect(body).toContain(`data-broadcast-message="${active.body.id}"`);
      expect(body).toContain('<strong>this</strong>');
      expect(body).toContain('href="https://example.com/"');
      const banner = body.match(/<div class="broadcast-text markdown">[\s\S]*?<\/div>/)?.[0] ?? '';
      expect(banner).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(banner).not.toMatch(/<script|<img|href="javascript:/i);
      expect(body).not.toContain('Not yet');
      expect(body).not.toContain('Already over');
    }
    expect(visitor.body.indexOf('class="broadcast-banners"')).toBeLessThan(visitor.body.indexOf('<header>'));
    // The API keeps the Markdown as written.
    expect((await kiln.api('GET', `/broadcast_messages/${active.body.id}`)).body.message).toContain('<script>alert(1)</script>');
    for (const id of [active.body.id, scheduled.body.id, ended.body.id]) await remove(id);
  });

  it('follows every write at once and the clock within the minute its read is kept for', async () => {
    const iso = (ms: number) => new Date(ms).toISOString();
    const bannerOf = async () => (await kiln.request('GET', '/users/sign_in')).body.match(/<div class="broadcast-text markdown">([\s\S]*?)<\/div>/)?.[1] ?? null;
    const now = kiln.clock.now();
    const soon = await create({ message: 'Starts soon', starts_at: iso(now + 10_000), ends_at: iso(now + 30_000) });
    expect(await bannerOf()).toBeNull();
    kiln.clock.advance(15_000);
    expect(await bannerOf()).toContain('Starts soon');
    expect((await kiln.api('PUT', `/broadcast_messages/${soon.body.id}`, { token: kiln.root.token, body: { message: 'Changed text' } })).status).toBe(200);
    expect(await bannerOf()).toContain('Changed text');
    kiln.clock.advance(20_000);
    expect(await bannerOf()).toBeNull();
    const other = await create({ message: 'Another one' });
    expect(await bannerOf()).toContain('Another one');
    await remove(other.body.id);
    expect(await bannerOf()).toBeNull();
    await remove(soon.body.id);
  });

  it('shows a message only on the pages its target path matches', async () => {
    const made = await create({ message: 'Profile pages only', target_path: '/profile*' });
    const session = await signedIn(user);
    expect((await session.get('/profile')).body).toContain('Profile pages only');
    expect((await session.get('/profile/preferences')).body).toContain('Profile pages only');
    expect((await session.get('/dashboard/todos')).body).not.toContain('Profile pages only');
    const relative = await create({ message: 'Sign-in only', target_path: 'users/sign_in' });
    expect((await kiln.request('GET', '/users/sign_in')).body).toContain('Sign-in only');
    expect((await kiln.request('GET', '/users/sign_in?return_to=%2F')).body).toContain('Sign-in only');
    await remove(made.body.id);
    await remove(relative.body.id);
  });

  it('shows a role-targeted message on the projects where the visitor has one of the roles', async () => {
    const developer = await kiln.createUser('banner-developer');
    const project = await kiln.createProject(kiln.root, 'banner-project', { visibility: 'public' });
    await kiln.addMember(kiln.root, 'projects', project.id, developer, ACCESS.developer);
    const made = await create({ message: 'For developers', target_access_levels: [30] });
    const path = `/${project.path_with_namespace}/-/issues`;
    expect((await (await signedIn(developer)).get(path)).body).toContain('For developers');
    expect((await (await signedIn(user)).get(path)).body).not.toContain('For developers');
    expect((await kiln.request('GET', path)).body).not.toContain('For developers');
    // The project's overview, whose kind is found while it is answered, too.
    expect((await (await signedIn(developer)).get(`/${project.path_with_namespace}`)).body).toContain('For developers');
    expect((await (await signedIn(user)).get(`/${project.path_with_namespace}`)).body).not.toContain('For developers');
    // Not on a page that belongs to no project or group.
    expect((await (await signedIn(developer)).get('/profile')).body).not.toContain('For developers');
    await remove(made.body.id);
  });

  it('is dismissed for this browser with a cookie when dismissable, with the CSRF token', async () => {
    const sticky = await create({ message: 'Cannot hide me' });
    const made = await create({ message: 'Hide me', dismissable: true });
    const session = await signedIn(user);
    const before = await session.get('/profile');
    expect(before.body).toContain(`action="/-/broadcast_messages/${made.body.id}/dismiss"`);
    expect(before.body).not.toContain(`action="/-/broadcast_messages/${sticky.body.id}/dismiss"`);
    const forged = await session.post(`/-/broadcast_messages/${made.body.id}/dismiss`, { return_to: '/profile', authenticity_token: 'forged' });
    expect(forged.statusCode).toBe(422);
    const dismissed = await session.post(`/-/broadcast_messages/${made.body.id}/dismiss`, { return_to: '/profile' }, { csrfFrom: '/profile' });
    expect(dismissed.statusCode).toBe(303);
    expect(dismissed.headers.location).toBe('/profile');
    const cookie = [dismissed.headers['set-cookie']].flat().find((line) => String(line).startsWith(`hide_broadcast_message_${made.body.id}=`));
    expect(cookie).toMatch(/Max-Age=\d+/);
    const after = await kiln.app.inject({ method: 'GET', url: '/profile', headers: { cookie: `${session.cookie}; hide_broadcast_message_${made.body.id}=1` } });
    expect(after.body).not.toContain('Hide me');
    expect(after.body).toContain('Cannot hide me');
    // With htmx the message is swapped out in place: an empty answer that sets the cookie.
    const inPlace = await kiln.app.inject({
      method: 'POST', url: `/-/broadcast_messages/${made.body.id}/dismiss`,
      headers: { cookie: session.cookie, 'hx-request': 'true', 'x-csrf-token': /name="authenticity_token" value="([^"]+)"/.exec(before.body)![1]! },
    });
    expect([inPlace.statusCode, inPlace.body]).toEqual([200, '']);
    expect(String(inPlace.headers['set-cookie'])).toContain(`hide_broadcast_message_${made.body.id}=1`);
    // A return address elsewhere is not followed.
    const offsite = await session.post(`/-/broadcast_messages/${made.body.id}/dismiss`, { return_to: '//evil.example/' }, { csrfFrom: '/profile' });
    expect(offsite.headers.location).toBe('/');
    await remove(made.body.id);
    await remove(sticky.body.id);
  });

  it('shows a notification below the page', async () => {
    const made = await create({ message: 'A notification', broadcast_type: 'notification', theme: 'light-green' });
    const body = (await kiln.request('GET', '/users/sign_in')).body;
    expect(body).toContain('class="broadcast-notifications"');
    expect(body.indexOf('A notification')).toBeGreaterThan(body.indexOf('</main>'));
    expect(body).toContain('broadcast-theme-light-green');
    await remove(made.body.id);
  });
});

describe('/admin/broadcast_messages', () => {
  it('creates, edits and deletes messages through forms, linked from the dashboard', async () => {
    expect((await admin.get('/admin')).body).toContain('href="/admin/broadcast_messages"');
    const empty = await admin.get('/admin/broadcast_messages');
    expect(empty.statusCode).toBe(200);
    const made = await admin.post('/admin/broadcast_messages', {
      message: 'Upgrade on _Friday_', broadcast_type: 'banner', theme: 'blue', dismissable: '1', target_path: '', starts_at: '2020-01-01T00:00', ends_at: '2999-01-01T00:00',
    });
    expect(made.statusCode).toBe(303);
    const [row] = (await kiln.api('GET', '/broadcast_messages')).body.filter((message: any) => message.message === 'Upgrade on _Friday_');
    expect(row).toMatchObject({ theme: 'blue', dismissable: true, starts_at: '2020-01-01T00:00:00.000Z', ends_at: '2999-01-01T00:00:00.000Z', active: true });
    const list = await admin.get('/admin/broadcast_messages');
    expect(list.body).toContain('The broadcast message was created.');
    expect(list.body).toContain('Upgrade on <em>Friday</em>');
    expect(list.body).toContain('<span class="badge">Active</span>');
    const edit = await admin.get(`/admin/broadcast_messages/${row.id}/edit`);
    expect(edit.body).toContain('value="2999-01-01T00:00"');
    expect(edit.body).toMatch(/<option value="blue" selected>Blue<\/option>/);
    const updated = await admin.post(`/admin/broadcast_messages/${row.id}`, {
      message: 'Upgrade on Saturday', broadcast_type: 'notification', theme: 'dark', target_path: '/dashboard/*', 'target_access_levels[]': '40', starts_at: '2020-01-01T00:00', ends_at: '2999-01-01T00:00',
    }, { csrfFrom: `/admin/broadcast_messages/${row.id}/edit` });
    expect(updated.statusCode).toBe(303);
    expect((await kiln.api('GET', `/broadcast_messages/${row.id}`)).body).toMatchObject({ message: 'Upgrade on Saturday', broadcast_type: 'notification', theme: 'dark', dismissable: false, target_path: '/dashboard/*', target_access_levels: [40] });
    const deleted = await admin.post(`/admin/broadcast_messages/${row.id}/delete`, {}, { csrfFrom: '/admin/broadcast_messages' });
    expect(deleted.statusCode).toBe(303);
    expect((await kiln.api('GET', `/broadcast_messages/${row.id}`)).status).toBe(404);
    expect((await admin.get(`/admin/broadcast_messages/${row.id}/edit`)).statusCode).toBe(404);
  });

  it('keeps what was typed and shows each error beside its field', async () => {
    const refused = await admin.post('/admin/broadcast_messages', {
      message: 'Typed <b>text</b>', broadcast_type: 'banner', theme: 'indigo', target_path: '', starts_at: '2999-01-01T00:00', ends_at: '2020-01-01T00:00',
    }, { csrfFrom: '/admin/broadcast_messages' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('<p class="field-error" id="ends_at-error">Ends at must be after the start time</p>');
    expect(refused.body).toContain('>Typed &lt;b&gt;text&lt;/b&gt;</textarea>');
    expect(refused.body).toContain('value="2999-01-01T00:00"');
    const blank = await admin.post('/admin/broadcast_messages', { message: '', broadcast_type: 'banner', theme: 'indigo', starts_at: 'nonsense', ends_at: '2020-01-01T00:00' }, { csrfFrom: '/admin/broadcast_messages' });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain('id="starts_at-error">Starts at is invalid</p>');
  });

  it('shows markup in every field as text: the list, its preview and the edit form', async () => {
    const evil = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const made = await create({ message: `Note ${evil} [x](javascript:alert(3)) <a href="javascript:alert(4)">y</a>`, target_path: `/x${evil}` });
    expect(made.status).toBe(201);
    for (const path of ['/admin/broadcast_messages', `/admin/broadcast_messages/${made.body.id}/edit`]) {
      const body = (await admin.get(path)).body;
      expect(body).not.toContain('<script>alert');
      expect(body).not.toMatch(/<img[^>]*onerror/i);
      expect(body).not.toMatch(/href="\s*javascript:/i);
    }
    expect((await admin.get('/admin/broadcast_messages')).body).toContain('<code>/x&lt;script&gt;alert(1)&lt;/script&gt;');
    await remove(made.body.id);
  });

  it('needs the CSRF token, and is a 404 to users who are not administrators', async () => {
    expect((await admin.post('/admin/broadcast_messages', { message: 'forged', authenticity_token: 'forged' })).statusCode).toBe(422);
    const other = await signedIn(user);
    expect((await other.get('/admin/broadcast_messages')).statusCode).toBe(404);
    expect((await other.post('/admin/broadcast_messages', { message: 'mine', starts_at: '2020-01-01T00:00', ends_at: '2999-01-01T00:00' }, { csrfFrom: '/profile' })).statusCode).toBe(404);
    expect((await kiln.api('GET', '/broadcast_messages')).body.some((message: any) => message.message === 'mine')).toBe(false);
  });
});

async function signedIn(who: TestUser): Promise<WebSession> {
  const session = new WebSession(kiln);
  await session.signIn(who.username, who.password);
  return session;
}
