// The Slack-compatible chat integration: GitLab's integrations API for `slack`, and the incoming-webhook
// messages it posts to a loopback receiver (a new alert with its title, severity, status, service and
// link; issues; comments; per-event channels).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let server: Server;
let receiverUrl: string;
let received: Array<{ path: string; body: any }> = [];
let owner: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let project: any;

const slack = () => `/projects/${project.id}/integrations/slack`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  maintainer = await kiln.createUser('maintainer');
  developer = await kiln.createUser('developer');
  project = await kiln.createProject(owner, 'shop');
  await kiln.addMember(owner, 'projects', project.id, maintainer, ACCESS.maintainer);
  await kiln.addMember(owner, 'projects', project.id, developer, ACCESS.developer);
  await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } });
});

afterAll(async () => {
  await kiln.close();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
});

describe('GET /api/v4/projects/:id/integrations/slack', () => {
  describe('as a maintainer', () => {
    it('answers an inactive integration with GitLab\'s defaults before it is set up', async () => {
      const { status, body } = await kiln.api('GET', slack(), { token: maintainer.token });
      expect(status).toBe(200);
      expect(body).toMatchObject({ id: null, slug: 'slack', title: 'Slack notifications', active: false, alert_events: true, issues_events: true, push_events: true, deployment_events: false, properties: { channel: '', username: '', notify_only_broken_pipelines: true, alert_channel: '' } });
    });
  });
  describe('as a developer', () => {
    it('is forbidden', async () => {
      expect((await kiln.api('GET', slack(), { token: developer.token })).status).toBe(403);
    });
  });
});

describe('PUT /api/v4/projects/:id/integrations/slack', () => {
  describe('as a maintainer', () => {
    it('answers 400 without a webhook', async () => {
      const { status, body } = await kiln.api('PUT', slack(), { token: maintainer.token, body: { channel: 'ops' } });
      expect([status, body]).toEqual([400, { error: 'webhook is missing' }]);
    });

    it('sets it up; the webhook is never answered', async () => {
      const { status, body } = await kiln.api('PUT', slack(), { token: maintainer.token, body: { webhook: `${receiverUrl}/slack`, username: 'kiln', channel: 'general', alert_channel: 'alerts', note_events: false } });
      expect(status).toBe(200);
      expect(body).toMatchObject({ active: true, alert_events: true, note_events: false, properties: { username: 'kiln', channel: 'general', alert_channel: 'alerts' } });
      expect(JSON.stringify(body)).not.toContain(receiverUrl);
    });
  });
});

describe('Slack messages', () => {
  it('posts a new alert to the alert channel with its title, severity, status, service and link', async () => {
    const integration = (await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: owner.token, body: { name: 'Endpoint' } })).body;
    const response = await kiln.app.inject({ method: 'POST', url: new URL(integration.url).pathname, headers: { authorization: `Bearer ${integration.token}`, 'content-type': 'application/json' }, payload: JSON.stringify({ title: 'Checkout down', severity: 'critical', service: 'checkout', start_time: '2026-11-22T07:00:00Z' }) });
    expect(response.statusCode).toBe(200);
    const [alert] = JSON.parse(response.body);
    await kiln.worker.drain();
    expect(received).toHaveLength(1);
    expect(received[0]).toEqual({
      path: '/slack',
      body: {
        text: 'Alert firing in owner/shop',
        channel: 'alerts',
        username: 'kiln',
        attachments: [{
          title: 'Checkout down',
          title_link: `http://kiln.test/owner/shop/-/alert_management/${alert.iid}/details`,
          color: '#C95823',
          fields: [
            { title: 'Severity', value: 'Critical', short: true },
            { title: 'Events', value: 1, short: true },
            { title: 'Status', value: 'Triggered', short: true },
            { title: 'Start time', value: '2026-11-22T07:00:00.000Z', short: true },
            { title: 'Service', value: 'checkout', short: true },
          ],
        }],
      },
    });
  });

  it('posts an opened issue to the default channel, and no comment when note events are off', async () => {
    const issue = (await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'Cart <empty>', description: 'Steps' } })).body;
    await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: developer.token, body: { body: 'seen' } });
    await kiln.worker.drain();
    expect(received.map((r) => r.body)).toEqual([{
      text: `[<http://kiln.test/owner/shop|owner/shop>] Issue <http://kiln.test/owner/shop/-/issues/${issue.iid}|#${issue.iid} Cart &lt;empty&gt;> opened by User developer (developer)`,
      channel: 'general',
      username: 'kiln',
      attachments: [{ title: `#${issue.iid} Cart &lt;empty&gt;`, title_link: `http://kiln.test/owner/shop/-/issues/${issue.iid}`, text: 'Steps', color: '#C95823' }],
    }]);
  });

  it('posts comments once note events are on', async () => {
    await kiln.api('PUT', slack(), { token: maintainer.token, body: { note_events: true, issues_events: false } });
    const issue = (await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'Refund' } })).body;
    const note = (await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: maintainer.token, body: { body: 'On it' } })).body;
    await kiln.worker.drain();
    expect(received.map((r) => r.body)).toEqual([{
      text: `User maintainer (maintainer) <http://kiln.test/owner/shop/-/issues/${issue.iid}#note_${note.id}|commented on issue #${issue.iid}> in <http://kiln.test/owner/shop|owner/shop>: *Refund*`,
      channel: 'general',
      username: 'kiln',
      attachments: [{ text: 'On it', color: '#345' }],
    }]);
  });

  it("posts a comment on a project snippet as GitLab's snippet note message", async () => {
    await kiln.api('PUT', slack(), { token: maintainer.token, body: { note_events: true } });
    const snippet = (await kiln.api('POST', `/projects/${project.id}/snippets`, { token: developer.token, body: { title: 'Fix <it>', visibility: 'private', files: [{ file_path: 'a.txt', content: 'a' }] } })).body;
    const note = (await kiln.api('POST', `/projects/${project.id}/snippets/${snippet.id}/notes`, { token: maintainer.token, body: { body: 'Looks good' } })).body;
    await kiln.worker.drain();
    expect(received.map((r) => r.body)).toEqual([{
      text: `User maintainer (maintainer) <http://kiln.test/owner/shop/-/snippets/${snippet.id}#note_${note.id}|commented on snippet $${snippet.id}> in <http://kiln.test/owner/shop|owner/shop>: *Fix &lt;it&gt;*`,
      channel: 'general',
      username: 'kiln',
      attachments: [{ text: 'Looks good', color: '#345' }],
    }]);
  });
});

describe('a webhook on a local address', () => {
  it('is refused when saved without the admin setting, and not retried when it became refused later', async () => {
    await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: false } });
    try {
      const refused = await kiln.api('PUT', slack(), { token: maintainer.token, body: { webhook: `${receiverUrl}/local` } });
      expect([refused.status, refused.body]).toEqual([400, { message: { webhook: ['is blocked: Requests to localhost are not allowed'] } }]);
      // The saved webhook (allowed when it was saved) is now refused at delivery: one job, done, nothing sent.
      // Note events are on (set above): the comment makes one chat job.
      const issue = (await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'blocked' } })).body;
      await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: developer.token, body: { body: 'blocked comment' } });
      const queued = await kiln.deps.db.selectFrom('jobs').select('id').where('kind', '=', 'webhooks.chat').where('state', '=', 'queued').execute();
      expect(queued).toHaveLength(1);
      await kiln.worker.drain();
      expect(received).toEqual([]);
      const dead = await kiln.deps.db.selectFrom('jobs').select('id').where('kind', '=', 'webhooks.chat').where('state', '!=', 'done').execute();
      expect(dead).toEqual([]);
    } finally {
      await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } });
    }
  });
});

describe('DELETE /api/v4/projects/:id/integrations/slack', () => {
  it('as a maintainer removes it; nothing is posted afterwards', async () => {
    expect((await kiln.api('DELETE', slack(), { token: maintainer.token })).status).toBe(204);
    expect((await kiln.api('GET', slack(), { token: maintainer.token })).body.active).toBe(false);
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'quiet' } });
    await kiln.worker.drain();
    expect(received).toEqual([]);
  });
});
