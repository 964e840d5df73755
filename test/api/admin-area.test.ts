// The admin area's dashboard (/admin) and GET /application/statistics (issue 36).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let user: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  user = await kiln.createUser('lena');
  const blocked = await kiln.createUser('mona');
  await kiln.api('POST', `/users/${blocked.id}/block`, { token: kiln.root.token });
  const project = await kiln.createProject(user, 'shop');
  await kiln.api('POST', `/projects/${project.id}/issues`, { token: user.token, body: { title: 'One' } });
  await kiln.api('POST', `/projects/${project.id}/issues`, { token: user.token, body: { title: 'Two' } });
  await kiln.createGroup(user, 'team');
});
afterAll(() => kiln.close());

describe('GET /application/statistics', () => {
  it('counts what the instance holds, as GitLab formats it (strings), for administrators only', async () => {
    const response = await kiln.api('GET', '/application/statistics', { token: kiln.root.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      forks: '0', issues: '2', merge_requests: '0', notes: expect.any(String), snippets: '0', ssh_keys: '0', milestones: '0',
      users: '3', groups: '1', projects: '1', active_users: '2',
    });
    expect((await kiln.api('GET', '/application/statistics', { token: user.token })).status).toBe(403);
    expect((await kiln.api('GET', '/application/statistics')).status).toBe(401);
  });
});

describe('/admin', () => {
  it('shows the counts and links to the admin pages to an administrator; 404 to others (GitLab hides the admin area)', async () => {
    const admin = new WebSession(kiln);
    await admin.signIn('root', 'root-password-1');
    const dashboard = await admin.get('/admin');
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.body).toMatch(/<span class="count">3<\/span> <span class="label">Users<\/span> <span class="muted">2 active, 1 blocked<\/span>/);
    expect(dashboard.body).toMatch(/<span class="count">2<\/span> <span class="label">Issues<\/span>/);
    expect(dashboard.body).toContain('href="/admin/emails"');
    const other = new WebSession(kiln);
    await other.signIn('lena', user.password);
    expect((await other.get('/admin')).statusCode).toBe(404);
    expect((await kiln.request('GET', '/admin')).statusCode).toBe(302);
  });
});
