// Testing a system hook from the admin page with each of its triggers (issue 36), as GitLab's
// TestHooks::SystemService does: a push and a tag push send GitLab's push sample, a repository update
// its repository sample, merge request events the first merge request of the administrator's projects
// (or GitLab's message when they have none); the API's POST /hooks/:id keeps the project_create
// sample. The edit page lists the hook's recent events, each with a page of its request and response
// and a Resend button. A loopback receiver answers the deliveries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let receiver: HookReceiver;
const received: Received[] = [];
let admin: WebSession;
let hookId: number;

beforeAll(async () => {
  receiver = await startHookReceiver((request) => received.push(request), (path) => (path.endsWith('/refuse') ? 500 : 200));
  kiln = await testKiln();
  admin = new WebSession(kiln);
  await admin.signIn('root', 'root-password-1');
  const hook = await kiln.api('POST', '/hooks', { token: kiln.root.token, body: { url: `${receiver.url}/system`, token: 'hook-secret' } });
  expect(hook.status).toBe(201);
  hookId = hook.body.id;
});

afterAll(async () => {
  await kiln.close();
  await receiver.close();
});

async function testWith(trigger: string): Promise<{ flash: string; body: any; headers: Received['headers'] }> {
  const before = received.length;
  const answer = await admin.post('/admin/hooks', { action: 'test', hook_id: String(hookId), trigger });
  expect(answer.statusCode).toBe(303);
  const page = (await admin.get('/admin/hooks')).body;
  const flash = /<div class="flash" role="status">([^<]*)<\/div>/.exec(page)?.[1] ?? '';
  const delivery = received.length > before ? received.at(-1)! : { body: null, headers: {} };
  return { flash, body: delivery.body, headers: delivery.headers };
}

describe('POST /admin/hooks action=test (system hook Test)', () => {
  it('offers the four system triggers beside Test', async () => {
    const page = (await admin.get('/admin/hooks')).body;
    expect(page).toContain(`<select name="trigger" aria-label="Test event for ${receiver.url}/system"><option value="push_events">Push events</option><option value="tag_push_events">Tag push events</option><option value="merge_requests_events">Merge request events</option><option value="repository_update_events">Repository update events</option></select>`);
  });

  it('sends GitLab’s push sample for push and tag push events', async () => {
    for (const trigger of ['push_events', 'tag_push_events']) {
      const { flash, body, headers } = await testWith(trigger);
      expect(flash).toBe('Hook executed successfully: HTTP 200');
      expect(headers['x-gitlab-event']).toBe('System Hook');
      expect(headers['x-gitlab-token']).toBe('hook-secret');
      expect(body).toMatchObject({ object_kind: 'push', event_name: 'push', ref: 'refs/heads/main', total_commits_count: 1, project: { path_with_namespace: 'group/example' } });
      expect(body.commits).toHaveLength(1);
    }
  });

  it('sends GitLab’s repository update sample', async () => {
    const { flash, body } = await testWith('repository_update_events');
    expect(flash).toBe('Hook executed successfully: HTTP 200');
    expect(body).toMatchObject({ event_name: 'repository_update', refs: ['refs/heads/main'], changes: [{ ref: 'refs/heads/main' }] });
  });

  it('asks for a merge request when the administrator’s projects have none, then sends the first one’s hook data', async () => {
    const before = received.length;
    const none = await testWith('merge_requests_events');
    expect(none.flash).toBe('Ensure one of your projects has merge requests.');
    expect(received).toHaveLength(before);

    const project = await kiln.createProject(kiln.root, 'shop');
    await seedRepository(kiln, kiln.root, project.id);
    await branchWith(kiln, kiln.root, project.id, 'one', [create('a.txt', 'a\n')]);
    await branchWith(kiln, kiln.root, project.id, 'two', [create('b.txt', 'b\n')]);
    const first = await openMergeRequest(kiln, kiln.root, project.id, { source_branch: 'one', title: 'First change' });
    await openMergeRequest(kiln, kiln.root, project.id, { source_branch: 'two', title: 'Second change' });
    // Another user's project is not the administrator's.
    const other = await kiln.createUser('other');
    const theirs = await kiln.createProject(other, 'theirs');
    await seedRepository(kiln, other, theirs.id);
    const { flash, body, headers } = await testWith('merge_requests_events');
    expect(flash).toBe('Hook executed successfully: HTTP 200');
    expect(headers['x-gitlab-event']).toBe('System Hook');
    expect(body).toMatchObject({ object_kind: 'merge_request', event_type: 'merge_request', project: { path_with_namespace: 'root/shop' }, object_attributes: { iid: first.iid, title: 'First change' }, changes: {} });
    expect(body.object_attributes).not.toHaveProperty('action');
  }, 90_000);

  it('answers an unknown trigger with GitLab’s message and sends nothing', async () => {
    const before = received.length;
    expect((await testWith('issues_events')).flash).toBe('Testing not available for this hook');
    expect(received).toHaveLength(before);
  });
});

describe('POST /api/v4/hooks/:id (the API’s test)', () => {
  it('keeps sending the fixed project_create sample', async () => {
    const tested = await kiln.api('POST', `/hooks/${hookId}`, { token: kiln.root.token });
    expect(tested.status).toBe(201);
    expect(received.at(-1)!.body).toMatchObject({ event_name: 'project_create', owner_email: 'example@gitlabhq.com' });
  });
});

describe('GET /admin/hooks/:id/edit (Recent events) and /admin/hooks/:id/hook_logs/:log', () => {
  it('lists the deliveries with their status and trigger, shows one with its request and response, and resends it', async () => {
    const edit = (await admin.get(`/admin/hooks/${hookId}/edit`)).body;
    expect(edit).toContain('<h2>Recent events</h2>');
    const rows = [...edit.matchAll(/<tr data-log="(\d+)"><td>(\d+)<\/td><td>([a-z_]+)<\/td>/g)].map((match) => [Number(match[1]), match[2], match[3]]);
    expect(rows.map(([, status, trigger]) => `${status} ${trigger}`)).toEqual([
      '200 system_hooks', '200 merge_request_hooks', '200 repository_update_hooks', '200 tag_push_hooks', '200 push_hooks',
    ]);
    const pushLog = rows.at(-1)![0];
    expect(edit).toContain(`href="/admin/hooks/${hookId}/hook_logs/${pushLog}">View details</a>`);
    const details = await admin.get(`/admin/hooks/${hookId}/hook_logs/${pushLog}`);
    expect(details.statusCode).toBe(200);
    expect(details.body).toContain('<dt>Trigger</dt><dd>push_hooks</dd>');
    expect(details.body).toContain('&quot;X-Gitlab-Event&quot;: &quot;System Hook&quot;');
    expect(details.body).toContain('&quot;object_kind&quot;: &quot;push&quot;');
    expect(details.body).not.toContain('hook-secret');

    const before = received.length;
    const resent = await admin.post('/admin/hooks', { action: 'resend', hook_id: String(hookId), log_id: String(pushLog) }, { csrfFrom: `/admin/hooks/${hookId}/hook_logs/${pushLog}` });
    expect(resent.statusCode).toBe(303);
    expect(resent.headers.location).toBe(`/admin/hooks/${hookId}/edit`);
    expect(received).toHaveLength(before + 1);
    expect(received.at(-1)!.body).toMatchObject({ object_kind: 'push' });
    expect((await admin.get(`/admin/hooks/${hookId}/edit`)).body).toContain('Hook executed successfully: HTTP 200');
  });

  it('shows a refused delivery’s status, answers 404 for a log that is not the hook’s, and only to administrators', async () => {
    const refusing = await kiln.api('POST', '/hooks', { token: kiln.root.token, body: { url: `${receiver.url}/refuse` } });
    await admin.post('/admin/hooks', { action: 'test', hook_id: String(refusing.body.id), trigger: 'repository_update_events' });
    expect((await admin.get('/admin/hooks')).body).toContain('Hook executed successfully but returned HTTP 500');
    const edit = (await admin.get(`/admin/hooks/${refusing.body.id}/edit`)).body;
    const [, log] = /<tr data-log="(\d+)"><td>500<\/td><td>repository_update_hooks<\/td>/.exec(edit) ?? [];
    expect(log).toBeDefined();
    expect((await admin.get(`/admin/hooks/${hookId}/hook_logs/${log}`)).statusCode).toBe(404);
    expect((await admin.get(`/admin/hooks/${hookId}/hook_logs/abc`)).statusCode).toBe(404);
    const someone = await kiln.createUser('someone');
    const web = new WebSession(kiln);
    await web.signIn('someone', someone.password);
    expect((await web.get(`/admin/hooks/${refusing.body.id}/hook_logs/${log}`)).statusCode).toBe(404);
  });
});
