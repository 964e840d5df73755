// System hooks against a loopback receiver: every system event Kiln sends (users, groups, projects and
// memberships), each payload compared field by field with the example of GitLab's
// doc/administration/system_hooks.md (the fields GitLab's Gitlab::HookData builders add beyond the
// example are named where they appear: a group's `full_path`, a group member's `expires_at`), and
// destroy events that describe what was deleted although it no longer exists when the job runs.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { WebSession } from '../helpers/browser-session.js';
import { enqueue } from '../../src/platform/jobs/queue.js';
import { JOB_DELIVER_HOOK } from '../../src/webhooks/listeners.js';

let kiln: TestKiln;
let receiver: HookReceiver;
let receiverUrl: string;
let received: Received[] = [];
let systemHook: any;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

const START = '2026-11-22T08:00:00Z';
/** The clock as GitLab's xmlschema prints it. */
const now = () => new Date(kiln.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
const minute = () => kiln.clock.advance(60_000);

/** What the system hook received for the action's events (the worker runs the jobs the action queued). */
async function deliveredFor(action: () => Promise<unknown>): Promise<any[]> {
  // What earlier setup queued goes out first, and is not counted.
  await kiln.worker.drain();
  received = [];
  await action();
  await kiln.worker.drain();
  for (const request of received) {
    expect(request.path).toBe('/system');
    expect(request.headers['x-gitlab-event']).toBe('System Hook');
    expect(request.headers['x-gitlab-token']).toBe('system-secret');
  }
  return received.map((request) => request.body);
}

async function ok<T extends { status: number; body: any }>(result: Promise<T>, status: number): Promise<any> {
  const answer = await result;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

beforeAll(async () => {
  receiver = await startHookReceiver((request) => received.push(request));
  receiverUrl = receiver.url;
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  carol = await kiln.createUser('carol');
  await ok(kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } }), 200);
  // Only what happens after the hook exists is sent: none of the users above.
  systemHook = await ok(kiln.api('POST', '/hooks', { token: kiln.root.token, body: { url: `${receiverUrl}/system`, token: 'system-secret' } }), 201);
});

afterAll(async () => {
  await kiln?.close();
  await receiver?.close();
});

beforeEach(() => {
  kiln.clock.set(Date.parse(START));
});

describe('system hooks: users', () => {
  it('user_create when a user is created, user_destroy when the deletion job removes them', async () => {
    let dave: any;
    expect(await deliveredFor(async () => {
      dave = await ok(kiln.api('POST', '/users', { token: kiln.root.token, body: { username: 'dave', name: 'Dave Smith', email: 'dave@example.com', password: 'dave-password-1' } }), 201);
    })).toEqual([{
      created_at: START, updated_at: START, email: 'dave@example.com', event_name: 'user_create', name: 'Dave Smith', username: 'dave', user_id: dave.id,
    }]);
    minute();
    const deletedAt = now();
    // The job deletes the user; the payload still names them (the snapshot taken before the row went).
    expect(await deliveredFor(() => ok(kiln.api('DELETE', `/users/${dave.id}`, { token: kiln.root.token }), 204))).toEqual([{
      created_at: START, updated_at: deletedAt, email: 'dave@example.com', event_name: 'user_destroy', name: 'Dave Smith', username: 'dave', user_id: dave.id,
    }]);
    expect((await kiln.api('GET', `/users/${dave.id}`, { token: kiln.root.token })).status).toBe(404);
  });

  it('user_failed_login when a blocked user signs in with their password (a wrong password or an active user sends nothing)', async () => {
    const frank = await kiln.createUser('frank');
    const signIn = (password: string) => new WebSession(kiln).post('/users/sign_in', { login: 'frank', password }, { csrfFrom: '/users/sign_in' });
    expect(await deliveredFor(async () => expect((await signIn(frank.password)).statusCode).toBe(303))).toEqual([]);
    minute();
    await ok(kiln.api('POST', `/users/${frank.id}/block`, { token: kiln.root.token }), 201);
    const blockedAt = now();
    minute();
    expect(await deliveredFor(async () => expect((await signIn('not-the-password')).statusCode).toBe(401))).toEqual([]);
    expect(await deliveredFor(async () => expect((await signIn(frank.password)).statusCode).toBe(401))).toEqual([{
      event_name: 'user_failed_login', created_at: START, updated_at: blockedAt, name: 'User frank', email: 'frank@example.com', user_id: frank.id, username: 'frank', state: 'blocked',
    }]);
  });

  it("deleting a user also sends project_destroy for each personal project, then user_destroy", async () => {
    const erin = await kiln.createUser('erin');
    const sandbox = await kiln.createProject(erin, 'sandbox');
    const bodies = await deliveredFor(() => ok(kiln.api('DELETE', `/users/${erin.id}`, { token: kiln.root.token }), 204));
    expect(bodies.map((body) => body.event_name)).toEqual(['project_destroy', 'user_destroy']);
    expect(bodies[0]).toEqual({
      event_name: 'project_destroy', created_at: START, updated_at: START, name: 'sandbox', path: 'sandbox', path_with_namespace: 'erin/sandbox',
      project_id: sandbox.id, project_namespace_id: sandbox.namespace.id, owners: [{ name: 'User erin', email: 'erin@example.com' }],
      project_visibility: 'private', owner_name: 'User erin', owner_email: 'erin@example.com',
    });
  });
});

describe('system hooks: groups', () => {
  it('group_create with user_add_to_group for its creator; group_rename for a new path only', async () => {
    let group: any;
    expect(await deliveredFor(async () => {
      group = await kiln.createGroup(alice, 'platform');
    })).toEqual([
      { created_at: START, updated_at: START, event_name: 'group_create', name: 'platform', path: 'platform', full_path: 'platform', group_id: group.id },
      {
        created_at: START, updated_at: START, event_name: 'user_add_to_group', group_access: 'Owner', group_id: group.id, group_name: 'platform', group_path: 'platform',
        user_email: 'alice@example.com', user_name: 'User alice', user_username: 'alice', user_id: alice.id, expires_at: null,
      },
    ]);
    const sub = await kiln.createGroup(alice, 'tools', { parent_id: group.id });
    minute();
    // A new name alone is no rename (GitLab sends group_rename when the path changes).
    expect(await deliveredFor(() => ok(kiln.api('PUT', `/groups/${sub.id}`, { token: alice.token, body: { name: 'Tools' } }), 200))).toEqual([]);
    expect(await deliveredFor(() => ok(kiln.api('PUT', `/groups/${sub.id}`, { token: alice.token, body: { path: 'toolbox' } }), 200))).toEqual([{
      event_name: 'group_rename', created_at: START, updated_at: now(), name: 'Tools', path: 'toolbox', full_path: 'platform/toolbox', group_id: sub.id,
      old_path: 'tools', old_full_path: 'platform/tools',
    }]);
  });

  it('deleting a group: project_destroy for its projects and group_destroy for each subgroup and itself, deepest first', async () => {
    const top = await kiln.createGroup(alice, 'doomed');
    const child = await kiln.createGroup(alice, 'inner', { parent_id: top.id });
    await kiln.addMember(alice, 'groups', child.id, bob, ACCESS.owner);
    // An Owner whose membership has expired owns nothing.
    await kiln.addMember(alice, 'groups', child.id, carol, ACCESS.owner);
    await kiln.deps.db.updateTable('members').set({ expires_at: '2026-11-21' }).where('source_type', '=', 'Namespace').where('source_id', '=', child.id).where('user_id', '=', carol.id).execute();
    const project = await kiln.createProject(alice, 'app', { namespace_id: child.id });
    const bodies = await deliveredFor(() => ok(kiln.api('DELETE', `/groups/${top.id}`, { token: alice.token }), 202));
    expect(bodies.map((body) => [body.event_name, body.path_with_namespace ?? body.full_path])).toEqual([
      ['project_destroy', 'doomed/inner/app'],
      ['group_destroy', 'doomed/inner'],
      ['group_destroy', 'doomed'],
    ]);
    // The owners of a group's project are the Owners of its group and of the group's ancestors.
    expect(bodies[0]).toEqual({
      event_name: 'project_destroy', created_at: START, updated_at: START, name: 'app', path: 'app', path_with_namespace: 'doomed/inner/app', project_id: project.id,
      project_namespace_id: child.id, owners: [{ name: 'User alice', email: 'alice@example.com' }, { name: 'User bob', email: 'bob@example.com' }],
      project_visibility: 'private', owner_name: 'inner', owner_email: '',
    });
    expect(bodies[1]).toEqual({ created_at: START, updated_at: START, event_name: 'group_destroy', name: 'inner', path: 'inner', full_path: 'doomed/inner', group_id: child.id });
    expect((await kiln.api('GET', `/groups/${top.id}`, { token: alice.token })).status).toBe(404);
  });
});

describe('system hooks: projects', () => {
  it('project_create, project_update, project_rename, project_transfer and project_destroy', async () => {
    const target = await kiln.createGroup(bob, 'target');
    let project: any;
    const base = () => ({ name: 'Web', path: project.path, project_id: project.id, project_visibility: 'private', created_at: START });
    const personal = { owners: [{ name: 'User alice', email: 'alice@example.com' }], owner_name: 'User alice', owner_email: 'alice@example.com' };
    expect(await deliveredFor(async () => {
      project = await ok(kiln.api('POST', '/projects', { token: alice.token, body: { name: 'Web', path: 'web' } }), 201);
    })).toEqual([{ event_name: 'project_create', ...base(), updated_at: START, path_with_namespace: 'alice/web', project_namespace_id: project.namespace.id, ...personal }]);
    minute();
    expect(await deliveredFor(() => ok(kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { description: 'The site' } }), 200))).toEqual([
      { event_name: 'project_update', ...base(), updated_at: now(), path_with_namespace: 'alice/web', project_namespace_id: project.namespace.id, ...personal },
    ]);
    minute();
    project.path = 'site';
    expect(await deliveredFor(() => ok(kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { path: 'site' } }), 200))).toEqual([
      { event_name: 'project_rename', ...base(), updated_at: now(), path_with_namespace: 'alice/site', project_namespace_id: project.namespace.id, ...personal, old_path_with_namespace: 'alice/web' },
    ]);
    // Into bob's group (alice is its Maintainer): the group is the owner now, its Owners the owners.
    await kiln.addMember(bob, 'groups', target.id, alice, ACCESS.maintainer);
    minute();
    const group = { owners: [{ name: 'User bob', email: 'bob@example.com' }], owner_name: 'target', owner_email: '' };
    expect(await deliveredFor(() => ok(kiln.api('PUT', `/projects/${project.id}/transfer`, { token: alice.token, body: { namespace: target.id } }), 200))).toEqual([
      { event_name: 'project_transfer', ...base(), updated_at: now(), path_with_namespace: 'target/site', project_namespace_id: target.id, ...group, old_path_with_namespace: 'alice/site' },
    ]);
    const transferredAt = now();
    minute();
    expect(await deliveredFor(() => ok(kiln.api('DELETE', `/projects/${project.id}`, { token: bob.token }), 202))).toEqual([
      { event_name: 'project_destroy', ...base(), updated_at: transferredAt, path_with_namespace: 'target/site', project_namespace_id: target.id, ...group },
    ]);
  });

  it('a refused change sends nothing', async () => {
    const project = await kiln.createProject(alice, 'quiet');
    await kiln.createProject(alice, 'taken');
    expect(await deliveredFor(() => ok(kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { path: 'taken' } }), 400))).toEqual([]);
    expect(await deliveredFor(() => ok(kiln.api('DELETE', `/projects/${project.id}`, { token: carol.token }), 404))).toEqual([]);
  });
});

describe('system hooks: members', () => {
  it('user_add_to_team, user_update_for_team and user_remove_from_team for project members', async () => {
    const project = await kiln.createProject(alice, 'team-app', { visibility: 'internal' });
    const team = (event: string, level: string, at: string) => ({
      created_at: START, updated_at: at, event_name: event, access_level: level, project_id: project.id, project_name: 'team-app', project_path: 'team-app',
      project_path_with_namespace: 'alice/team-app', user_email: 'carol@example.com', user_name: 'User carol', user_username: 'carol', user_id: carol.id,
      project_visibility: 'internal',
    });
    expect(await deliveredFor(() => kiln.addMember(alice, 'projects', project.id, carol, ACCESS.developer))).toEqual([team('user_add_to_team', 'Developer', START)]);
    minute();
    expect(await deliveredFor(() => ok(kiln.api('PUT', `/projects/${project.id}/members/${carol.id}`, { token: alice.token, body: { access_level: ACCESS.maintainer } }), 200)))
      .toEqual([team('user_update_for_team', 'Maintainer', now())]);
    const updatedAt = now();
    minute();
    // The membership is gone when the job runs: the payload is what it was.
    expect(await deliveredFor(() => ok(kiln.api('DELETE', `/projects/${project.id}/members/${carol.id}`, { token: alice.token }), 204)))
      .toEqual([team('user_remove_from_team', 'Maintainer', updatedAt)]);
  });

  it('user_add_to_group, user_update_for_group and user_remove_from_group for group members', async () => {
    const group = await kiln.createGroup(bob, 'crew');
    const member = (event: string, level: string, at: string, expires: string | null) => ({
      created_at: START, updated_at: at, event_name: event, group_access: level, group_id: group.id, group_name: 'crew', group_path: 'crew',
      user_email: 'carol@example.com', user_name: 'User carol', user_username: 'carol', user_id: carol.id, expires_at: expires,
    });
    expect(await deliveredFor(() => kiln.addMember(bob, 'groups', group.id, carol, ACCESS.reporter))).toEqual([member('user_add_to_group', 'Reporter', START, null)]);
    minute();
    expect(await deliveredFor(() => ok(kiln.api('PUT', `/groups/${group.id}/members/${carol.id}`, { token: bob.token, body: { access_level: ACCESS.guest, expires_at: '2027-01-31' } }), 200)))
      .toEqual([member('user_update_for_group', 'Guest', now(), '2027-01-31T00:00:00Z')]);
    const updatedAt = now();
    minute();
    // Leaving is a removal too.
    expect(await deliveredFor(() => ok(kiln.api('DELETE', `/groups/${group.id}/members/${carol.id}`, { token: carol.token }), 204)))
      .toEqual([member('user_remove_from_group', 'Guest', updatedAt, '2027-01-31T00:00:00Z')]);
    // A refused change (a member already there) sends nothing.
    await kiln.addMember(bob, 'groups', group.id, alice, ACCESS.developer);
    expect(await deliveredFor(() => ok(kiln.api('POST', `/groups/${group.id}/members`, { token: bob.token, body: { user_id: alice.id, access_level: ACCESS.developer } }), 409))).toEqual([]);
  });
});

describe('system hooks: delivery', () => {
  it('every system hook gets every system event whatever its flags; a disabled one gets nothing; the log names system_hooks', async () => {
    const second = await ok(kiln.api('POST', '/hooks', { token: kiln.root.token, body: { url: `${receiverUrl}/second`, push_events: false, tag_push_events: false, repository_update_events: false } }), 201);
    received = [];
    await kiln.createGroup(carol, 'both');
    await kiln.worker.drain();
    // Deliveries to different hooks run concurrently: compared in no particular order.
    expect(received.map((r) => `${r.path} ${r.body.event_name}`).sort()).toEqual(['/second group_create', '/second user_add_to_group', '/system group_create', '/system user_add_to_group']);
    // GitLab disables a hook after failures; a disabled hook is not queued for.
    await kiln.deps.db.updateTable('web_hooks').set({ disabled_until: kiln.clock.now() + 3_600_000, backoff_count: 1, recent_failures: 4 }).where('id', '=', second.id).execute();
    received = [];
    await kiln.createGroup(carol, 'only-first');
    await kiln.worker.drain();
    expect(received.map((r) => r.path)).toEqual(['/system', '/system']);
    const logs = await kiln.deps.db.selectFrom('web_hook_logs').select(['trigger', 'response_status']).where('web_hook_id', '=', systemHook.id).execute();
    expect(new Set(logs.map((log) => log.trigger))).toEqual(new Set(['system_hooks']));
    await ok(kiln.api('DELETE', `/hooks/${second.id}`, { token: kiln.root.token }), 200);
  });

  it('a delivery queued by an older version, whose event has no snapshot, sends nothing and ends', async () => {
    await kiln.worker.drain();
    received = [];
    const event = { kind: 'project.created', projectId: 1, actorId: kiln.root.id };
    const id = await enqueue(kiln.deps.db, kiln.clock, JOB_DELIVER_HOOK, { hookId: systemHook.id, event, eventUuid: 'c6bb8fd4-8d4b-4a8e-9d43-0b6d1f1b8f5e', idempotencyKey: 'legacy' }, { maxAttempts: 3 });
    await kiln.worker.drain();
    expect(received).toEqual([]);
    expect((await kiln.deps.db.selectFrom('jobs').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state).toBe('done');
  });
});
