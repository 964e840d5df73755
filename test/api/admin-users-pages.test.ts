// The admin area's users, projects and groups pages (issue 36): for administrators only; the users
// list searched and filtered by state; each state change through the API's own action, refusals
// shown as GitLab words them; a sign-up approved from the list; a new user mailed a password link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let lena: TestUser;
let admin: WebSession;

beforeAll(async () => {
  kiln = await testKiln();
  lena = await kiln.createUser('lena');
  await kiln.createProject(lena, 'shop');
  await kiln.createGroup(lena, 'team', { visibility: 'private' });
  admin = new WebSession(kiln);
  await admin.signIn('root', 'root-password-1');
});
afterAll(() => kiln.close());

/** The page a redirect leads to, with the flash cookie a browser would send. */
async function follow(web: WebSession, response: { headers: Record<string, unknown> }) {
  const cookies = ([] as string[]).concat((response.headers['set-cookie'] as string[] | undefined) ?? []);
  const flash = cookies.find((line) => line.startsWith('_kiln_flash='))?.split(';')[0];
  return kiln.app.inject({ method: 'GET', url: String(response.headers.location), headers: { cookie: [web.cookie, flash].filter(Boolean).join('; ') } });
}

async function stateOf(username: string) {
  return (await kiln.deps.db.selectFrom('users').select('state').where('username', '=', username).executeTakeFirst())?.state;
}

describe('/admin/users, /admin/projects, /admin/groups', () => {
  it('are for administrators: 404 to a user, sign-in for a visitor; the dashboard links them', async () => {
    const other = new WebSession(kiln);
    await other.signIn('lena', lena.password);
    for (const path of ['/admin/users', '/admin/users/new', '/admin/projects', '/admin/groups']) {
      expect((await other.get(path)).statusCode, path).toBe(404);
      expect((await kiln.request('GET', path)).statusCode, path).toBe(302);
    }
    expect((await other.post(`/admin/users/root/block`, {}, { csrfFrom: '/profile' })).statusCode).toBe(404);
    expect(await stateOf('root')).toBe('active');
    const dashboard = await admin.get('/admin');
    for (const path of ['/admin/users', '/admin/projects', '/admin/groups']) expect(dashboard.body).toContain(`href="${path}"`);
  });

  it('list every project and group, private ones too, searched by name or path', async () => {
    expect((await admin.get('/admin/projects')).body).toContain('href="/lena/shop"');
    expect((await admin.get('/admin/groups')).body).toContain('href="/groups/team"');
    const none = await admin.get('/admin/groups?search=nothing%25like');
    expect(none.body).not.toContain('href="/groups/team"');
    expect(none.body).toContain('No groups match.');
  });
});

describe('/admin/users', () => {
  it('searches and filters by state, and marks the administrator themself', async () => {
    const all = await admin.get('/admin/users');
    expect(all.body).toContain('data-user="lena"');
    expect(all.body).toContain("It's you!");
    expect((await admin.get('/admin/users?search=len')).body).not.toContain('data-user="root"');
    const admins = await admin.get('/admin/users?filter=admins');
    expect(admins.body).toContain('data-user="root"');
    expect(admins.body).not.toContain('data-user="lena"');
  });

  it('blocks and unblocks a user, and shows the API’s refusal of a deactivation', async () => {
    const blocked = await admin.post('/admin/users/lena/block', {}, { csrfFrom: '/admin/users' });
    expect(blocked.statusCode).toBe(303);
    expect((await follow(admin, blocked)).body).toContain('Successfully blocked: @lena');
    expect(await stateOf('lena')).toBe('blocked');
    expect((await admin.get('/admin/users?filter=blocked')).body).toContain('data-user="lena"');
    const refused = await admin.post('/admin/users/lena/deactivate', {}, { csrfFrom: '/admin/users' });
    expect((await follow(admin, refused)).body).toContain('Deactivate refused: Error occurred. A blocked user cannot be deactivated');
    await admin.post('/admin/users/lena/unblock', {}, { csrfFrom: '/admin/users' });
    expect(await stateOf('lena')).toBe('active');
    expect((await admin.post('/admin/users/lena/explode', {}, { csrfFrom: '/admin/users' })).statusCode).toBe(404);
  });

  it('approves a sign-up awaiting approval from the pending filter', async () => {
    await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { signup_enabled: true } });
    await new WebSession(kiln).post('/users', { name: 'Nora', username: 'nora', email: 'nora@example.com', password: 'nora-password-1' }, { csrfFrom: '/users/sign_up' });
    const pending = await admin.get('/admin/users?filter=blocked_pending_approval');
    expect(pending.body).toContain('action="/admin/users/nora/approve"');
    expect(pending.body).not.toContain('data-user="lena"');
    await admin.post('/admin/users/nora/approve', {}, { csrfFrom: '/admin/users' });
    expect(await stateOf('nora')).toBe('active');
    await new WebSession(kiln).signIn('nora', 'nora-password-1');
  });

  it('creates a user who is mailed a link to choose a password; a taken username keeps the form', async () => {
    const created = await admin.post('/admin/users', { name: 'Olga <b>', username: 'olga', email: 'olga@example.com' }, { csrfFrom: '/admin/users/new' });
    expect(created.statusCode).toBe(303);
    expect(await stateOf('olga')).toBe('active');
    const [mail] = await kiln.deps.db.selectFrom('email_outbox').select('subject').where('to_address', '=', 'olga@example.com').execute();
    expect(mail.subject).toBe('Reset password instructions');
    const taken = await admin.post('/admin/users', { name: 'Other', username: 'olga', email: 'other@example.com', admin: '1' }, { csrfFrom: '/admin/users/new' });
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('id="username-error"');
    expect(taken.body).toContain('value="other@example.com"');
    expect((await admin.get('/admin/users?search=olga')).body).toContain('Olga &lt;b&gt;');
  });
});
