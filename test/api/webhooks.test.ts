// Outgoing webhooks against a loopback receiver: the hooks API of project, group and system hooks,
// every event kind's headers and payload (doc/user/project/integrations/webhook_events.md), a real
// `git push`, the branch filter, auto-disabling and recovery, resend, and the address checks (local
// addresses refused without the admin setting, a name resolving to 127.0.0.1 refused at delivery).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { gitCommands, listenOnLoopback, twoShards } from '../helpers/git.js';

let kiln: TestKiln;
let base: string;
let work: string;
const { ok } = gitCommands(() => work);
let receiver: HookReceiver;
let receiverUrl: string;
let received: Received[] = [];
/** Status the receiver answers with, per path (200 by default). */
const statusFor = new Map<string, number>();

let owner: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let group: any;
let project: any;

async function setLocalRequests(allow: boolean) {
  const result = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: allow } });
  expect(result.status).toBe(200);
}

async function addHook(path: string, body: Record<string, unknown>, token = maintainer.token) {
  const result = await kiln.api('POST', `/projects/${project.id}/hooks`, { token, body: { url: `${receiverUrl}${path}`, ...body } });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body;
}

const at = (path: string) => received.filter((r) => r.path === path);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-webhooks-'));
  receiver = await startHookReceiver((request) => received.push(request), (path) => statusFor.get(path) ?? 200);
  receiverUrl = receiver.url;
  kiln = await testKiln({ storages: twoShards(work) });
  base = await listenOnLoopback(kiln.app);
  owner = await kiln.createUser('owner');
  maintainer = await kiln.createUser('maintainer');
  developer = await kiln.createUser('developer');
  group = await kiln.createGroup(owner, 'team');
  project = await kiln.createProject(owner, 'app', { namespace_id: group.id });
  await kiln.addMember(owner, 'projects', project.id, maintainer, ACCESS.maintainer);
  await kiln.addMember(owner, 'projects', project.id, developer, ACCESS.developer);
  await setLocalRequests(true);
});

afterAll(async () => {
  await kiln.close();
  await receiver.close();
  rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  received = [];
});

describe('POST /api/v4/projects/:id/hooks', () => {
  describe('as a maintainer', () => {
    it('adds a hook with GitLab\'s defaults and never answers the token', async () => {
      const hook = await addHook('/defaults', { token: 's3cret' });
      expect(hook).toMatchObject({
        url: `${receiverUrl}/defaults`, project_id: project.id, push_events: true, tag_push_events: false, issues_events: false,
        confidential_issues_events: false, note_events: false, confidential_note_events: false, deployment_events: false,
        merge_requests_events: false, job_events: false, pipeline_events: false, wiki_page_events: false, releases_events: false,
        enable_ssl_verification: true, push_events_branch_filter: '', alert_status: 'executable', disabled_until: null,
      });
      expect(hook).not.toHaveProperty('token');
      const listed = await kiln.api('GET', `/projects/${project.id}/hooks`, { token: maintainer.token });
      expect(listed.body.map((h: any) => h.id)).toContain(hook.id);
      expect(JSON.stringify(listed.body)).not.toContain('s3cret');
    });

    it('stores flags Kiln never fires, edits and deletes', async () => {
      const hook = await addHook('/flags', { merge_requests_events: true, pipeline_events: true, releases_events: true });
      expect(hook).toMatchObject({ merge_requests_events: true, pipeline_events: true, releases_events: true });
      const edited = await kiln.api('PUT', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token, body: { issues_events: true, push_events: false } });
      expect(edited.body).toMatchObject({ issues_events: true, push_events: false, merge_requests_events: true });
      expect((await kiln.api('GET', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token })).body.issues_events).toBe(true);
      expect((await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token })).status).toBe(204);
      expect((await kiln.api('GET', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token })).status).toBe(404);
    });

    it('refuses a local address without the admin setting, in GitLab\'s words', async () => {
      await setLocalRequests(false);
      try {
        const result = await kiln.api('POST', `/projects/${project.id}/hooks`, { token: maintainer.token, body: { url: `${receiverUrl}/local` } });
        expect(result.status).toBe(422);
        expect(result.body).toEqual({ message: { url: ['is blocked: Requests to localhost are not allowed'] } });
        const privateNet = await kiln.api('POST', `/projects/${project.id}/hooks`, { token: maintainer.token, body: { url: 'http://10.0.0.5/hook' } });
        expect(privateNet.body).toEqual({ message: { url: ['is blocked: Requests to the local network are not allowed'] } });
      } finally {
        await setLocalRequests(true);
      }
    });

    it('answers 400 without a url', async () => {
      const result = await kiln.api('POST', `/projects/${project.id}/hooks`, { token: maintainer.token, body: {} });
      expect(result.status).toBe(400);
      expect(result.body).toEqual({ error: 'url is missing' });
    });
  });

  describe('as a developer', () => {
    it('is forbidden', async () => {
      const result = await kiln.api('POST', `/projects/${project.id}/hooks`, { token: developer.token, body: { url: `${receiverUrl}/dev` } });
      expect(result.status).toBe(403);
      expect((await kiln.api('GET', `/projects/${project.id}/hooks`, { token: developer.token })).status).toBe(403);
    });
  });
});

describe('Issue Hook and Note Hook', () => {
  let hook: any;
  let confidentialHook: any;
  beforeAll(async () => {
    hook = await addHook('/issues', { issues_events: true, note_events: true, push_events: false, token: 'issue-token' });
    confidentialHook = await addHook('/confidential', { confidential_issues_events: true, confidential_note_events: true, push_events: false });
  });
  afterAll(async () => {
    await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token });
    await kiln.api('DELETE', `/projects/${project.id}/hooks/${confidentialHook.id}`, { token: maintainer.token });
  });

  it('sends an opened issue with GitLab\'s headers and payload', async () => {
    const issue = (await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'Broken build', description: 'It fails', assignee_ids: [developer.id] } })).body;
    expect(received).toEqual([]); // nothing is sent inside the request
    await kiln.worker.drain();
    const [delivery] = at('/issues');
    expect(at('/confidential')).toEqual([]);
    expect(delivery.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': expect.stringMatching(/^GitLab\/\d+\.\d+/),
      'x-gitlab-event': 'Issue Hook',
      'x-gitlab-token': 'issue-token',
      'x-gitlab-instance': 'http://kiln.test',
      'x-gitlab-webhook-uuid': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'x-gitlab-event-uuid': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(delivery.body).toMatchObject({
      object_kind: 'issue',
      event_type: 'issue',
      user: { id: developer.id, name: 'User developer', username: 'developer', avatar_url: expect.any(String), email: 'developer@example.com' },
      project: { id: project.id, name: 'app', path_with_namespace: 'team/app', web_url: 'http://kiln.test/team/app', default_branch: 'main', visibility_level: 0, git_http_url: 'http://kiln.test/team/app.git' },
      object_attributes: { id: issue.id, iid: issue.iid, title: 'Broken build', description: 'It fails', state: 'opened', action: 'open', confidential: false, type: 'Issue', url: `http://kiln.test/team/app/-/issues/${issue.iid}`, assignee_ids: [developer.id], author_id: developer.id, state_id: 1 },
      labels: [],
      changes: { title: { previous: null, current: 'Broken build' } },
      repository: { name: 'app', homepage: 'http://kiln.test/team/app' },
      assignees: [{ id: developer.id, username: 'developer' }],
    });
  });

  it('sends an incident as an Issue Hook of type Incident', async () => {
    const incident = (await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'Outage', issue_type: 'incident' } })).body;
    await kiln.worker.drain();
    const [delivery] = at('/issues');
    expect(delivery.headers['x-gitlab-event']).toBe('Issue Hook');
    expect(delivery.body.object_attributes).toMatchObject({ iid: incident.iid, type: 'Incident', title: 'Outage', url: `http://kiln.test/team/app/-/issues/incident/${incident.iid}` });
  });

  it('sends close and reopen with the state change', async () => {
    const issue = (await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'Flaky' } })).body;
    await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}`, { token: developer.token, body: { state_event: 'close' } });
    await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}`, { token: developer.token, body: { state_event: 'reopen' } });
    await kiln.worker.drain();
    // Deliveries run concurrently: their order is not the events' order (nor is it in GitLab).
    const actions = at('/issues').map((r) => [r.body.object_attributes.action, r.body.object_attributes.state, r.body.changes.state_id]);
    expect(actions.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['close', 'closed', { previous: 1, current: 2 }],
      ['open', 'opened', undefined],
      ['reopen', 'opened', { previous: 2, current: 1 }],
    ]);
  });

  it('sends an edit with each change\'s values before and after, as that edit made them', async () => {
    const issue = (await kiln.api('POST', `/projects/${project.id}/issues`, { token: maintainer.token, body: { title: 'Slow page', description: 'Takes 5 s', labels: 'perf', assignee_ids: [developer.id], due_date: '2026-12-01' } })).body;
    await kiln.worker.drain();
    received = [];
    kiln.clock.advance(60_000);
    const edited = await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}`, { token: maintainer.token, body: { title: 'Slow pages', description: 'Takes 9 s', labels: 'perf,backend', assignee_ids: [maintainer.id], due_date: '2026-12-24' } });
    expect(edited.status).toBe(200);
    // A second edit before the first is delivered: each delivery still tells its own change.
    kiln.clock.advance(60_000);
    expect((await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}`, { token: maintainer.token, body: { title: 'Slow pages everywhere' } })).status).toBe(200);
    await kiln.worker.drain();
    const updates = at('/issues').map((r) => r.body).filter((body) => body.object_attributes.action === 'update');
    expect(updates).toHaveLength(3);
    const first = updates.find((body) => body.changes.title?.previous === 'Slow page')!;
    expect(first.changes).toEqual({
      title: { previous: 'Slow page', current: 'Slow pages' },
      description: { previous: 'Takes 5 s', current: 'Takes 9 s' },
      due_date: { previous: '2026-12-01', current: '2026-12-24' },
      labels: {
        previous: [expect.objectContaining({ title: 'perf', type: 'ProjectLabel', project_id: project.id })],
        current: [expect.objectContaining({ title: 'backend' }), expect.objectContaining({ title: 'perf' })],
      },
      updated_at: { previous: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/), current: expect.stringMatching(/ UTC$/) },
    });
    expect(first.changes.updated_at.previous).not.toBe(first.changes.updated_at.current);
    const second = updates.find((body) => body.changes.title?.previous === 'Slow pages')!;
    expect(second.changes).toEqual({ title: { previous: 'Slow pages', current: 'Slow pages everywhere' }, updated_at: { previous: first.changes.updated_at.current, current: expect.stringMatching(/ UTC$/) } });
    const reassigned = updates.find((body) => body.changes.assignees)!;
    expect(reassigned.changes.assignees).toEqual({
      previous: [expect.objectContaining({ id: developer.id, username: 'developer' })],
      current: [expect.objectContaining({ id: maintainer.id, username: 'maintainer' })],
    });
  });

  it('sends confidential issues and their notes only to hooks with the confidential flags', async () => {
    const issue = (await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'Secret', confidential: true } })).body;
    await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: developer.token, body: { body: 'hush' } });
    await kiln.worker.drain();
    expect(at('/issues')).toEqual([]);
    expect(at('/confidential').map((r) => [r.headers['x-gitlab-event'], r.body.event_type]).sort()).toEqual([
      ['Confidential Issue Hook', 'confidential_issue'],
      ['Confidential Note Hook', 'confidential_note'],
    ]);
  });

  it('sends a comment as a Note Hook with its issue', async () => {
    const issue = (await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'Question' } })).body;
    const note = (await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: maintainer.token, body: { body: 'Looking into it' } })).body;
    await kiln.worker.drain();
    const delivery = at('/issues').find((r) => r.headers['x-gitlab-event'] === 'Note Hook')!;
    expect(delivery.body).toMatchObject({
      object_kind: 'note',
      event_type: 'note',
      user: { id: maintainer.id, username: 'maintainer' },
      project_id: project.id,
      object_attributes: { id: note.id, note: 'Looking into it', noteable_type: 'Issue', noteable_id: issue.id, author_id: maintainer.id, system: false, action: 'create', url: `http://kiln.test/team/app/-/issues/${issue.iid}#note_${note.id}` },
      issue: { id: issue.id, iid: issue.iid, title: 'Question' },
    });
  });

  it('sends nothing for an action that failed', async () => {
    const result = await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: '' } });
    expect(result.status).toBe(400);
    await kiln.worker.drain();
    expect(received).toEqual([]);
  });
});

describe('Push Hook', () => {
  let dir: string;
  let hook: any;
  let filtered: any;
  let tags: any;
  let systemHook: any;
  const remote = (user: TestUser) => `${base.replace('http://', `http://${user.username}:${user.token}@`)}/team/app.git`;
  beforeAll(async () => {
    hook = await addHook('/push', {});
    filtered = await addHook('/filtered', { push_events_branch_filter: 'release/*' });
    tags = await addHook('/tags', { push_events: false, tag_push_events: true });
    systemHook = (await kiln.api('POST', '/hooks', { token: kiln.root.token, body: { url: `${receiverUrl}/system-push`, push_events: true } })).body;
    dir = join(work, 'clone');
    await ok(['init', '-q', dir]);
    await ok(['remote', 'add', 'origin', remote(maintainer)], dir);
  });
  afterAll(async () => {
    for (const h of [hook, filtered, tags]) await kiln.api('DELETE', `/projects/${project.id}/hooks/${h.id}`, { token: maintainer.token });
    await kiln.api('DELETE', `/hooks/${systemHook.id}`, { token: kiln.root.token });
  });

  const commit = async (file: string, message: string) => {
    writeFileSync(join(dir, file), `${file}\n`);
    await ok(['add', '.'], dir);
    await ok(['commit', '-q', '-m', message], dir);
    return (await ok(['rev-parse', 'HEAD'], dir)).trim();
  };

  it('a real git push sends its commits', async () => {
    const first = await commit('a.txt', 'First commit');
    const second = await commit('b.txt', 'Second commit\n\nWith a body');
    await ok(['push', '-q', 'origin', 'main'], dir);
    await kiln.worker.drain();
    const [delivery] = at('/push');
    expect(delivery.headers['x-gitlab-event']).toBe('Push Hook');
    expect(delivery.body).toMatchObject({
      object_kind: 'push',
      event_name: 'push',
      before: '0000000000000000000000000000000000000000',
      after: second,
      ref: 'refs/heads/main',
      checkout_sha: second,
      user_id: maintainer.id,
      user_username: 'maintainer',
      project_id: project.id,
      project: { path_with_namespace: 'team/app' },
      total_commits_count: 2,
      repository: { name: 'app', git_http_url: 'http://kiln.test/team/app.git', visibility_level: 0 },
    });
    expect(delivery.body.commits).toEqual([
      { id: first, message: 'First commit\n', title: 'First commit', timestamp: expect.any(String), url: `http://kiln.test/team/app/-/commit/${first}`, author: { name: 'Test', email: 'test@example.com' }, added: ['a.txt'], modified: [], removed: [] },
      { id: second, message: 'Second commit\n\nWith a body\n', title: 'Second commit', timestamp: expect.any(String), url: `http://kiln.test/team/app/-/commit/${second}`, author: { name: 'Test', email: 'test@example.com' }, added: ['b.txt'], modified: [], removed: [] },
    ]);
    expect(at('/filtered')).toEqual([]);
    expect(at('/tags')).toEqual([]);
    // System hooks with push_events get the same push, as a System Hook.
    expect(at('/system-push').map((r) => [r.headers['x-gitlab-event'], r.body.object_kind, r.body.after, r.body.total_commits_count])).toEqual([['System Hook', 'push', second, 2]]);
  });

  it('the branch filter lets matching branches through', async () => {
    await ok(['checkout', '-q', '-b', 'release/1.0'], dir);
    const third = await commit('c.txt', 'Release');
    await ok(['push', '-q', 'origin', 'release/1.0'], dir);
    await kiln.worker.drain();
    expect(at('/filtered').map((r) => [r.body.ref, r.body.after, r.body.total_commits_count])).toEqual([['refs/heads/release/1.0', third, 1]]);
    expect(at('/push')).toHaveLength(1);
  });

  it('a tag push goes to tag hooks as a Tag Push Hook', async () => {
    await ok(['tag', 'v1.0'], dir);
    await ok(['push', '-q', 'origin', 'v1.0'], dir);
    await kiln.worker.drain();
    expect(at('/tags').map((r) => [r.headers['x-gitlab-event'], r.body.object_kind, r.body.ref])).toEqual([['Tag Push Hook', 'tag_push', 'refs/tags/v1.0']]);
    expect(at('/push')).toEqual([]);
  });

  it('POST /projects/:id/hooks/:hook_id/test/push_events sends the latest commits', async () => {
    const result = await kiln.api('POST', `/projects/${project.id}/hooks/${hook.id}/test/push_events`, { token: maintainer.token });
    expect([result.status, result.body]).toEqual([201, { message: '201 Created' }]);
    expect(at('/push').map((r) => r.body.ref)).toEqual(['refs/heads/main']);
  });
});

describe('Deployment Hook', () => {
  it('is sent when a deployment is created and when its status changes', async () => {
    const hook = await addHook('/deploy', { push_events: false, deployment_events: true });
    const deployment = (await kiln.api('POST', `/projects/${project.id}/deployments`, { token: developer.token, body: { environment: 'production', sha: 'a'.repeat(40), ref: 'main', tag: false, status: 'running' } })).body;
    await kiln.api('PUT', `/projects/${project.id}/deployments/${deployment.id}`, { token: developer.token, body: { status: 'success' } });
    await kiln.worker.drain();
    // Deliveries run concurrently: compared in status order.
    const deliveries = at('/deploy').sort((a, b) => String(a.body.status).localeCompare(String(b.body.status)));
    expect(deliveries.map((r) => [r.headers['x-gitlab-event'], r.body.status])).toEqual([['Deployment Hook', 'running'], ['Deployment Hook', 'success']]);
    expect(deliveries[1].body).toMatchObject({
      object_kind: 'deployment', deployment_id: deployment.id, environment: 'production', environment_slug: 'production', environment_tier: 'production',
      short_sha: 'aaaaaaaa', ref: 'main', user: { username: 'developer' }, commit_url: `http://kiln.test/team/app/-/commit/${'a'.repeat(40)}`, project: { id: project.id },
    });
    await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token });
  });
});

describe('failure handling', () => {
  it('disables a hook for a while after 4 consecutive failures, longer each time, and a success re-enables it', async () => {
    statusFor.set('/failing', 500);
    const hook = await addHook('/failing', { issues_events: true, push_events: false });
    const openIssue = () => kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'x' } });
    for (let i = 0; i < 4; i += 1) await openIssue();
    await kiln.worker.drain();
    expect(at('/failing')).toHaveLength(4);
    let state = (await kiln.api('GET', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token })).body;
    expect(state.alert_status).toBe('temporarily_disabled');
    expect(Date.parse(state.disabled_until) - kiln.clock.now()).toBe(60_000);
    // While disabled, events are not sent to it.
    await openIssue();
    await kiln.worker.drain();
    expect(at('/failing')).toHaveLength(4);
    // After the backoff one more failure doubles it.
    kiln.clock.advance(61_000);
    await openIssue();
    await kiln.worker.drain();
    state = (await kiln.api('GET', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token })).body;
    expect([state.alert_status, Date.parse(state.disabled_until) - kiln.clock.now()]).toEqual(['temporarily_disabled', 120_000]);
    // A successful test re-enables it.
    statusFor.set('/failing', 200);
    const test = await kiln.api('POST', `/projects/${project.id}/hooks/${hook.id}/test/issues_events`, { token: maintainer.token });
    expect(test.status).toBe(201);
    state = (await kiln.api('GET', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token })).body;
    expect([state.alert_status, state.disabled_until]).toEqual(['executable', null]);
    await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token });
  });

  it('disables a hook permanently after 40 failures until it is edited', async () => {
    const hook = await addHook('/dead', { issues_events: true, push_events: false });
    await kiln.deps.db.updateTable('web_hooks').set({ recent_failures: 40, backoff_count: 11, disabled_until: null }).where('id', '=', hook.id).execute();
    expect((await kiln.api('GET', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token })).body.alert_status).toBe('disabled');
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'unheard' } });
    await kiln.worker.drain();
    expect(at('/dead')).toEqual([]);
    const edited = await kiln.api('PUT', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token, body: { url: `${receiverUrl}/dead` } });
    expect(edited.body.alert_status).toBe('executable');
    await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token });
  });

  it('test answers 422 with the receiver\'s status', async () => {
    statusFor.set('/teapot', 418);
    const hook = await addHook('/teapot', { issues_events: true, push_events: false });
    const result = await kiln.api('POST', `/projects/${project.id}/hooks/${hook.id}/test/issues_events`, { token: maintainer.token });
    expect([result.status, result.body]).toEqual([422, { message: 'Hook executed successfully but returned HTTP 418' }]);
    await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token });
  });
});

describe('recent deliveries and resend', () => {
  it('logs each delivery and resends it with the same Idempotency-Key', async () => {
    const hook = await addHook('/logged', { issues_events: true, push_events: false, token: 'tok' });
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'logged' } });
    await kiln.worker.drain();
    const logs = (await kiln.api('GET', `/projects/${project.id}/hooks/${hook.id}/events`, { token: maintainer.token })).body;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ trigger: 'issue_hooks', response_status: '200', response_body: 'ok', request_data: { object_kind: 'issue' } });
    expect(logs[0].request_headers['X-Gitlab-Token']).toBe('[REDACTED]');
    const resent = await kiln.api('POST', `/projects/${project.id}/hooks/${hook.id}/events/${logs[0].id}/resend`, { token: maintainer.token });
    expect(resent.status).toBe(201);
    const [first, second] = at('/logged');
    expect(second.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
    expect(second.headers['x-gitlab-token']).toBe('tok');
    expect(second.body).toEqual(first.body);
    // Deliveries are kept 7 days.
    kiln.clock.advance(8 * 24 * 3600_000);
    const { pruneHookLogs } = await import('../../src/webhooks/prune-logs.js');
    expect(await pruneHookLogs(kiln.deps)).toBeGreaterThanOrEqual(2);
    expect((await kiln.api('GET', `/projects/${project.id}/hooks/${hook.id}/events`, { token: maintainer.token })).body).toEqual([]);
    await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token });
  });
});

describe('address checks at delivery', () => {
  it('refuses a public-looking name that resolves to 127.0.0.1 without the setting', async () => {
    const port = new URL(receiverUrl).port;
    kiln.deps.resolveHost = async () => ['127.0.0.1'];
    try {
      await setLocalRequests(false);
      const hook = await addHook('', { url: `http://hooks.example.com:${port}/rebound`, issues_events: true, push_events: false });
      await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'rebinding' } });
      await kiln.worker.drain();
      expect(at('/rebound')).toEqual([]);
      const logs = (await kiln.api('GET', `/projects/${project.id}/hooks/${hook.id}/events`, { token: maintainer.token })).body;
      expect(logs[0]).toMatchObject({ response_status: 'internal error', internal_error_message: 'URL is blocked: Requests to localhost are not allowed' });
      // With the setting, the same name is connected to the address it resolved to, with its Host header.
      await setLocalRequests(true);
      await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'allowed' } });
      await kiln.worker.drain();
      expect(at('/rebound').map((r) => r.headers.host)).toEqual([`hooks.example.com:${port}`]);
      await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token });
    } finally {
      kiln.deps.resolveHost = undefined;
      await setLocalRequests(true);
    }
  });

  it('allows a whitelisted local address without the setting', async () => {
    await setLocalRequests(false);
    try {
      await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { outbound_local_requests_whitelist: ['127.0.0.1'] } });
      const hook = await addHook('/listed', { issues_events: true, push_events: false });
      await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'listed' } });
      await kiln.worker.drain();
      expect(at('/listed')).toHaveLength(1);
      await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token });
    } finally {
      await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { outbound_local_requests_whitelist: [] } });
      await setLocalRequests(true);
    }
  });

  it('does not follow redirects', async () => {
    statusFor.set('/moved', 302);
    const hook = await addHook('/moved', { issues_events: true, push_events: false });
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'moved' } });
    await kiln.worker.drain();
    expect(received.map((r) => r.path)).toEqual(['/moved']);
    await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token });
  });
});

describe('group hooks', () => {
  it('fire for the projects below the group', async () => {
    const created = await kiln.api('POST', `/groups/${group.id}/hooks`, { token: owner.token, body: { url: `${receiverUrl}/group`, issues_events: true } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ group_id: group.id, issues_events: true, subgroup_events: false, member_events: false });
    const sub = await kiln.createGroup(owner, 'sub', { parent_id: group.id });
    const deep = await kiln.createProject(owner, 'deep', { namespace_id: sub.id });
    await kiln.api('POST', `/projects/${deep.id}/issues`, { token: owner.token, body: { title: 'deep issue' } });
    await kiln.worker.drain();
    expect(at('/group').map((r) => r.body.project.path_with_namespace)).toEqual(['team/sub/deep']);
    const groupMaintainer = await kiln.createUser('group-maintainer');
    await kiln.addMember(owner, 'groups', group.id, groupMaintainer, ACCESS.maintainer);
    expect((await kiln.api('GET', `/groups/${group.id}/hooks`, { token: groupMaintainer.token })).status).toBe(403);
  });
});

describe('system hooks', () => {
  it('GET/POST/DELETE /hooks for administrators; pushes reach them', async () => {
    const created = await kiln.api('POST', '/hooks', { token: kiln.root.token, body: { url: `${receiverUrl}/system`, push_events: true, token: 'sys' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: `${receiverUrl}/system`, push_events: true, tag_push_events: false, merge_requests_events: false, repository_update_events: true, enable_ssl_verification: true, alert_status: 'executable' });
    expect(created.body).not.toHaveProperty('project_id');
    expect((await kiln.api('GET', '/hooks', { token: kiln.root.token })).body.map((h: any) => h.id)).toEqual([created.body.id]);
    expect((await kiln.api('GET', '/hooks', { token: maintainer.token })).status).toBe(403);
    const tested = await kiln.api('POST', `/hooks/${created.body.id}`, { token: kiln.root.token });
    expect([tested.status, tested.body.event_name]).toEqual([201, 'project_create']);
    expect(at('/system').map((r) => [r.headers['x-gitlab-event'], r.headers['x-gitlab-token'], r.body.event_name])).toEqual([['System Hook', 'sys', 'project_create']]);
    // project_create goes to every system hook, with the owners (here the group's Owner).
    received = [];
    const made = await kiln.createProject(owner, 'fresh', { namespace_id: group.id });
    await kiln.worker.drain();
    expect(at('/system').map((r) => [r.headers['x-gitlab-event'], r.body])).toEqual([['System Hook', {
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), updated_at: expect.stringMatching(/Z$/), event_name: 'project_create', name: 'fresh',
      owner_email: '', owner_name: 'team', owners: [{ name: 'User owner', email: 'owner@example.com' }], path: 'fresh',
      path_with_namespace: 'team/fresh', project_id: made.id, project_namespace_id: group.id, project_visibility: 'private',
    }]]);
    const deleted = await kiln.api('DELETE', `/hooks/${created.body.id}`, { token: kiln.root.token });
    expect([deleted.status, deleted.body.id]).toEqual([200, created.body.id]);
  });
});

describe('a burst of deliveries', () => {
  it('goes out in concurrent lanes: several slow receivers are kept waiting at the same time', async () => {
    // A receiver that answers nobody until four deliveries (the per-destination cap) are open at once,
    // then everyone at once (or, as a safety net for a serial sender, after five seconds): it observes
    // concurrency instead of timing it.
    let open = 0;
    let mostOpen = 0;
    let releases: Array<() => void> = [];
    const releaseAll = () => { for (const release of releases) release(); releases = []; };
    const held = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        open += 1;
        mostOpen = Math.max(mostOpen, open);
        releases.push(() => { open -= 1; res.end('ok'); });
        if (mostOpen >= 4) releaseAll();
      });
    });
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const safetyNet = setInterval(releaseAll, 5000);
    try {
      const port = (held.address() as AddressInfo).port;
      const hooks = [];
      for (let i = 0; i < 10; i += 1) {
        const made = await kiln.api('POST', `/projects/${project.id}/hooks`, { token: maintainer.token, body: { url: `http://127.0.0.1:${port}/held/${i}`, issues_events: true, push_events: false } });
        expect(made.status).toBe(201);
        hooks.push(made.body);
      }
      const created = await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'burst' } });
      // The request that caused the events never waits on a receiver: nothing is delivered before the worker runs.
      expect(created.status).toBe(201);
      expect(mostOpen).toBe(0);
      await kiln.worker.drain();
      // One at a time would never have more than one delivery open.
      expect(mostOpen).toBeGreaterThanOrEqual(4);
      for (const hook of hooks) await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token });
    } finally {
      clearInterval(safetyNet);
      releaseAll();
      await new Promise<void>((resolve) => held.close(() => resolve()));
    }
  });
});

describe('delivery jobs', () => {
  it('one job per event names the hooks that want it; run again (a worker killed mid-way), each hook gets its first Idempotency-Key again', async () => {
    const wanting = [await addHook('/job/a', { issues_events: true, push_events: false }), await addHook('/job/b', { issues_events: true, push_events: false })];
    const pushOnly = await addHook('/job/push', { issues_events: false, push_events: true });
    const before = await kiln.deps.db.selectFrom('jobs').select('id').where('kind', '=', 'webhooks.deliver_event').execute();
    const created = await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'one job' } });
    expect(created.status).toBe(201);
    const jobs = await kiln.deps.db.selectFrom('jobs').selectAll().where('kind', '=', 'webhooks.deliver_event').where('id', 'not in', before.length ? before.map((j) => j.id) : [0]).execute();
    expect(jobs).toHaveLength(1);
    // The project's two issue hooks (and the group's, from an earlier test), not the push-only one.
    const { hookIds } = JSON.parse(jobs[0].payload);
    expect(hookIds).toEqual(expect.arrayContaining(wanting.map((hook) => hook.id)));
    expect(hookIds).not.toContain(pushOnly.id);
    await kiln.worker.drain();
    // The lease of a dead worker ran out: the job is claimed and run again.
    await kiln.deps.db.updateTable('jobs').set({ state: 'running', lease_until: kiln.clock.now() - 1 }).where('id', '=', jobs[0].id).execute();
    await kiln.worker.drain();
    const keys = (path: string) => at(path).map((r) => r.headers['idempotency-key']);
    expect(keys('/job/a')).toHaveLength(2);
    expect(new Set(keys('/job/a')).size).toBe(1);
    expect(new Set(keys('/job/b')).size).toBe(1);
    expect(keys('/job/a')[0]).not.toBe(keys('/job/b')[0]);
    expect(at('/job/a')[0].headers['x-gitlab-event-uuid']).toBe(at('/job/b')[0].headers['x-gitlab-event-uuid']);
    expect(at('/job/push')).toEqual([]);
    // Each delivery is logged with its key.
    const logs = (await kiln.api('GET', `/projects/${project.id}/hooks/${wanting[0].id}/events`, { token: maintainer.token })).body;
    expect(logs.map((log: any) => log.request_headers['Idempotency-Key'])).toEqual(keys('/job/a'));
    for (const hook of [...wanting, pushOnly]) await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token });
  });

  it('counts the failures of the hooks that failed and clears those of the hooks that answered, in one job', async () => {
    statusFor.set('/mixed/bad', 500);
    const good = await addHook('/mixed/good', { issues_events: true, push_events: false });
    const bad = await addHook('/mixed/bad', { issues_events: true, push_events: false });
    await kiln.deps.db.updateTable('web_hooks').set({ recent_failures: 2 }).where('id', '=', good.id).execute();
    await kiln.deps.db.updateTable('web_hooks').set({ recent_failures: 3 }).where('id', '=', bad.id).execute();
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'mixed' } });
    await kiln.worker.drain();
    const state = async (id: number) => kiln.deps.db.selectFrom('web_hooks').select(['recent_failures', 'backoff_count', 'disabled_until']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(await state(good.id)).toEqual({ recent_failures: 0, backoff_count: 0, disabled_until: null });
    const failed = await state(bad.id);
    expect([Number(failed.recent_failures), Number(failed.backoff_count), Number(failed.disabled_until) - kiln.clock.now()]).toEqual([4, 1, 60_000]);
    for (const hook of [good, bad]) await kiln.api('DELETE', `/projects/${project.id}/hooks/${hook.id}`, { token: maintainer.token });
  });
});
