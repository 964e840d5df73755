// The admin area's system hooks page (/admin/hooks, issue 36): add, list, edit, Test and delete through
// the forms with a session and CSRF, a loopback receiver getting the test event; the secret token is
// never shown back; anyone but an administrator is told the page does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';

let kiln: TestKiln;
let receiver: HookReceiver;
let receiverUrl: string;
const received: Received[] = [];
let admin: WebSession;
let someone: TestUser;

beforeAll(async () => {
  receiver = await startHookReceiver((request) => received.push(request));
  receiverUrl = receiver.url;
  kiln = await testKiln();
  someone = await kiln.createUser('someone');
  admin = new WebSession(kiln);
  await admin.signIn('root', 'root-password-1');
});

afterAll(async () => {
  await kiln.close();
  await receiver.close();
});

const systemHooks = async () => (await kiln.api('GET', '/hooks', { token: kiln.root.token })).body;

describe('GET /admin/hooks', () => {
  describe('as an administrator', () => {
    it('is linked from the admin area and offers the system triggers, repository updates ticked', async () => {
      expect((await admin.get('/admin')).body).toContain('<a href="/admin/hooks">System hooks</a>');
      const list = await admin.get('/admin/hooks');
      expect(list.statusCode).toBe(200);
      expect(list.body).toContain('No system hooks.');
      for (const flag of ['push_events', 'tag_push_events', 'merge_requests_events']) expect(list.body).toContain(`name="${flag}" value="1" >`);
      expect(list.body).toContain('name="repository_update_events" value="1" checked>');
      expect(list.body).not.toContain('push_events_branch_filter');
    });

    it('adds a hook through the form, lists it without its secret, and Test sends it a push by default', async () => {
      const created = await admin.post('/admin/hooks', { action: 'create', url: `${receiverUrl}/system`, token: 'sekrit-token', push_events: '1', merge_requests_events: '1' });
      expect(created.statusCode).toBe(303);
      const [hook] = await systemHooks();
      expect(hook).toMatchObject({ url: `${receiverUrl}/system`, push_events: true, tag_push_events: false, merge_requests_events: true, repository_update_events: false, enable_ssl_verification: false });
      const list = await admin.get('/admin/hooks');
      expect(list.body).toContain('System hook was successfully created.');
      expect(list.body).toContain(`${receiverUrl}/system`);
      expect(list.body).toContain('System events, Push events, Merge request events');
      expect(list.body).toContain('SSL verification: disabled');
      expect(list.body).not.toContain('sekrit-token');

      const tested = await admin.post('/admin/hooks', { action: 'test', hook_id: String(hook.id) });
      expect(tested.statusCode).toBe(303);
      expect((await admin.get('/admin/hooks')).body).toContain('Hook executed successfully: HTTP 200');
      expect(received).toHaveLength(1);
      expect(received[0].headers['x-gitlab-event']).toBe('System Hook');
      expect(received[0].headers['x-gitlab-token']).toBe('sekrit-token');
      expect(received[0].body).toMatchObject({ object_kind: 'push', event_name: 'push', ref: 'refs/heads/main' });
    });

    it('edits a hook: the form shows its settings but not its secret, which an empty field keeps', async () => {
      const [hook] = await systemHooks();
      const edit = await admin.get(`/admin/hooks/${hook.id}/edit`);
      expect(edit.statusCode).toBe(200);
      expect(edit.body).toContain(`value="${receiverUrl}/system"`);
      expect(edit.body).toContain('placeholder="Unchanged"');
      expect(edit.body).not.toContain('sekrit-token');
      const saved = await admin.post('/admin/hooks', { action: 'update', hook_id: String(hook.id), url: `${receiverUrl}/edited`, token: '', tag_push_events: '1', enable_ssl_verification: '1' }, { csrfFrom: `/admin/hooks/${hook.id}/edit` });
      expect(saved.statusCode).toBe(303);
      expect((await admin.get('/admin/hooks')).body).toContain('System hook was successfully updated.');
      expect((await systemHooks())[0]).toMatchObject({ url: `${receiverUrl}/edited`, push_events: false, tag_push_events: true, merge_requests_events: false, enable_ssl_verification: true });
      await admin.post('/admin/hooks', { action: 'test', hook_id: String(hook.id) });
      expect(received.at(-1)!.headers['x-gitlab-token']).toBe('sekrit-token');
    });

    it('shows GitLab\'s message for a URL the settings block, and deletes a hook', async () => {
      await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_system_hooks: false } });
      await admin.post('/admin/hooks', { action: 'create', url: 'http://127.0.0.1:9/x' });
      expect((await admin.get('/admin/hooks')).body).toContain('URL is blocked: Requests to localhost are not allowed');
      expect(await systemHooks()).toHaveLength(1);
      const [hook] = await systemHooks();
      expect((await admin.post('/admin/hooks', { action: 'delete', hook_id: String(hook.id) })).statusCode).toBe(303);
      const list = await admin.get('/admin/hooks');
      expect(list.body).toContain('System hook was successfully deleted.');
      expect(list.body).toContain('No system hooks.');
      expect(await systemHooks()).toEqual([]);
      expect((await admin.get(`/admin/hooks/${hook.id}/edit`)).statusCode).toBe(404);
    });

    it('refuses a form without the CSRF token', async () => {
      const response = await kiln.app.inject({ method: 'POST', url: '/admin/hooks', headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'action=create&url=http://example.com' });
      expect(response.statusCode).toBe(422);
      expect(await systemHooks()).toEqual([]);
    });
  });

  describe('as a user who is not an administrator', () => {
    it('is not found, and a post changes nothing', async () => {
      const web = new WebSession(kiln);
      await web.signIn('someone', someone.password);
      expect((await web.get('/admin/hooks')).statusCode).toBe(404);
      expect((await web.get('/admin/hooks/1/edit')).statusCode).toBe(404);
      expect((await web.post('/admin/hooks', { action: 'create', url: 'http://example.com/hook' }, { csrfFrom: '/' })).statusCode).toBe(404);
      expect(await systemHooks()).toEqual([]);
    });
  });
});
