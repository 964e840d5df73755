// The profile page /profile/notifications through inject (the browser suite drives it in Chromium).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let group: any;
let project: any;
let groupProject: any;
let web: WebSession;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  group = await kiln.createGroup(alice, 'crew');
  project = await kiln.createProject(alice, 'tool');
  groupProject = await kiln.createProject(alice, 'inside', { namespace_id: group.id });
  await kiln.createGroup(bob, 'bobs-secret');
  web = new WebSession(kiln);
  await web.signIn('alice', alice.password);
});
afterAll(() => kiln.close());

describe('GET /profile/notifications', () => {
  it('redirects an anonymous visitor to sign in', async () => {
    const response = await kiln.request('GET', '/profile/notifications');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/users/sign_in?return_to=%2Fprofile%2Fnotifications');
  });

  it('shows the global level and e-mail, and a form per group and project of the user', async () => {
    const { statusCode, body } = await web.get('/profile/notifications');
    expect(statusCode).toBe(200);
    expect(body).toContain('<option value="alice@example.com" selected>');
    expect(body).toMatch(/<select name="level" id="level-global">.*<option value="participating" selected>/s);
    expect(body).toContain(`id="form-group-${group.id}"`);
    expect(body).toContain(`id="form-project-${project.id}"`);
    expect(body).toContain(`id="form-project-${groupProject.id}"`); // through the group membership
    expect(body).toContain('id="global-new_epic"');
    expect(body).not.toContain(`id="project-${project.id}-new_epic"`);
    expect(body).not.toContain('bobs-secret');
  });
});

describe('POST /profile/notifications', () => {
  it('saves the global level with custom events, as the API then shows', async () => {
    const response = await web.post('/profile/notifications', { source: 'global', level: 'custom', notification_email: 'alice@example.com', new_note: '1', close_issue: '1' });
    expect(response.statusCode).toBe(303);
    const api = await kiln.api('GET', '/notification_settings', { token: alice.token });
    expect(api.body.level).toBe('custom');
    expect(api.body.events).toMatchObject({ new_note: true, close_issue: true, new_issue: false, moved_project: false });
    const page = await web.get('/profile/notifications');
    expect(page.body).toContain('Notification settings saved.');
    expect(page.body).toContain('id="global-new_note" checked');
  });

  it('saves a project level', async () => {
    expect((await web.post('/profile/notifications', { source: `project-${project.id}`, level: 'watch' })).statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${project.id}/notification_settings`, { token: alice.token })).body).toEqual({ level: 'watch' });
  });

  it('refuses an unverified e-mail and an unknown level with the form again', async () => {
    const email = await web.post('/profile/notifications', { source: 'global', level: 'watch', notification_email: 'bob@example.com' });
    expect(email.statusCode).toBe(422);
    expect(email.body).toContain('notification email must be an email you have verified');
    const level = await web.post('/profile/notifications', { source: `group-${group.id}`, level: 'loud' });
    expect(level.statusCode).toBe(422);
    expect(level.body).toContain('&#39;loud&#39; is not a valid level');
  });

  it('answers 404 for a group the user cannot see, and 422 without a CSRF token', async () => {
    const hidden = await kiln.deps.db.selectFrom('namespaces').select('id').where('path', '=', 'bobs-secret').executeTakeFirstOrThrow();
    expect((await web.post('/profile/notifications', { source: `group-${hidden.id}`, level: 'watch' })).statusCode).toBe(404);
    expect((await web.post('/profile/notifications', { source: 'global', level: 'watch', authenticity_token: 'forged' })).statusCode).toBe(422);
  });
});
