// The webhook settings page of a project (/-/hooks: add, edit, test, recent deliveries with request
// and response, resend) and the Slack integration page, driven as a browser with a session and CSRF.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let server: Server;
let receiverUrl: string;
const received: Array<{ headers: Record<string, unknown>; body: any }> = [];
let owner: TestUser;
let developer: TestUser;
let project: any;
let web: WebSession;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('developer');
  project = await kiln.createProject(owner, 'site');
  await kiln.addMember(owner, 'projects', project.id, developer, ACCESS.developer);
  await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } });
  web = new WebSession(kiln);
  await web.signIn('owner', owner.password);
});

afterAll(async () => {
  await kiln.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('GET /:namespace/:project/-/hooks', () => {
  describe('as the owner', () => {
    it('adds a webhook through the form, tests it and shows the delivery with a resend button', async () => {
      const created = await web.post('/owner/site/-/hooks', { action: 'create', url: `${receiverUrl}/page`, token: 'pg', issues_events: '1' });
      expect(created.statusCode).toBe(303);
      const list = await web.get('/owner/site/-/hooks');
      expect(list.statusCode).toBe(200);
      expect(list.body).toContain('Webhook created');
      expect(list.body).toContain(`${receiverUrl}/page`);
      const hook = (await kiln.api('GET', `/projects/${project.id}/hooks`, { token: owner.token })).body[0];
      expect(hook).toMatchObject({ issues_events: true, push_events: false });

      await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Page issue' } });
      await kiln.worker.drain();
      const tested = await web.post('/owner/site/-/hooks', { action: 'test', hook_id: String(hook.id), trigger: 'issues_events' });
      expect(tested.statusCode).toBe(303);
      expect((await web.get('/owner/site/-/hooks')).body).toContain('Hook executed successfully: HTTP 200');
      expect(received).toHaveLength(2);

      const edit = await web.get(`/owner/site/-/hooks/${hook.id}/edit`);
      expect(edit.body).toContain('Recent events');
      const logId = /hook_logs\/(\d+)/.exec(edit.body)![1];
      const details = await web.get(`/owner/site/-/hooks/${hook.id}/hook_logs/${logId}`);
      expect(details.statusCode).toBe(200);
      expect(details.body).toContain('Resend Request');
      expect(details.body).toContain('&quot;object_kind&quot;: &quot;issue&quot;');
      expect(details.body).toContain('thanks');
      expect(details.body).not.toContain('pg"'); // the token is masked in the log

      const resent = await web.post('/owner/site/-/hooks', { action: 'resend', hook_id: String(hook.id), log_id: logId });
      expect(resent.statusCode).toBe(303);
      expect(received).toHaveLength(3);
      // The newest delivery (the test) was resent: same body, same Idempotency-Key.
      expect(received[2].headers['idempotency-key']).toBe(received[1].headers['idempotency-key']);
      expect(received[2].body).toEqual(received[1].body);
    });

    it('offers pipeline and job events in the form and saves them', async () => {
      const form = await web.get('/owner/site/-/hooks');
      expect(form.body).toMatch(/name="pipeline_events" value="1"\s*> Pipeline events/);
      expect(form.body).toMatch(/name="job_events" value="1"\s*> Job events/);
      expect(form.body).not.toContain('undefined');
      const created = await web.post('/owner/site/-/hooks', { action: 'create', url: `${receiverUrl}/ci`, pipeline_events: '1', job_events: '1' });
      expect(created.statusCode).toBe(303);
      const hooks = (await kiln.api('GET', `/projects/${project.id}/hooks`, { token: owner.token })).body as any[];
      expect(hooks.find((hook) => hook.url === `${receiverUrl}/ci`)).toMatchObject({ pipeline_events: true, job_events: true, push_events: false });
    });

    it('shows GitLab\'s message for a blocked URL', async () => {
      await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: false } });
      try {
        await web.post('/owner/site/-/hooks', { action: 'create', url: 'http://127.0.0.1:9/x', push_events: '1' });
        expect((await web.get('/owner/site/-/hooks')).body).toContain('URL is blocked: Requests to localhost are not allowed');
      } finally {
        await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } });
      }
    });

    it('refuses a form without the CSRF token', async () => {
      const response = await kiln.app.inject({ method: 'POST', url: '/owner/site/-/hooks', headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'action=create&url=http://example.com' });
      expect(response.statusCode).toBe(422);
    });
  });

  describe('as a developer', () => {
    it('is forbidden', async () => {
      const dev = new WebSession(kiln);
      await dev.signIn('developer', developer.password);
      expect((await dev.get('/owner/site/-/hooks')).statusCode).toBe(403);
      expect((await dev.get('/owner/site/-/settings/integrations/slack/edit')).statusCode).toBe(403);
    });
  });
});

describe('GET /:namespace/:project/-/settings/integrations/slack/edit', () => {
  it('as the owner sets up Slack notifications through the form', async () => {
    const saved = await web.post('/owner/site/-/settings/integrations/slack/edit', { action: 'save', active: '1', webhook: `${receiverUrl}/slack`, channel: 'ops', alert_events: '1', alert_channel: 'pager', issues_events: '1' });
    expect(saved.statusCode).toBe(303);
    const pageBody = (await web.get('/owner/site/-/settings/integrations/slack/edit')).body;
    expect(pageBody).toContain('Slack notifications settings saved and active.');
    const entity = (await kiln.api('GET', `/projects/${project.id}/integrations/slack`, { token: owner.token })).body;
    expect(entity).toMatchObject({ active: true, alert_events: true, issues_events: true, note_events: false, properties: { channel: 'ops', alert_channel: 'pager' } });
    expect((await web.get('/owner/site/-/settings/integrations')).body).toContain('Active');
  });
});
