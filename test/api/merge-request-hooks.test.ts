// Merge Request Hooks and Note Hooks on merge requests (issue 34): GitLab's payloads with `action`,
// `object_attributes` and `changes`, for open, update (edits and pushes with `oldrev`), approve,
// close, reopen and merge, delivered through the webhooks machinery to hooks with
// merge_requests_events on (and only those).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let receiver: HookReceiver;
let received: Received[] = [];

const at = (path: string) => received.filter((r) => r.path === path);
const actions = (path: string) => at(path).map((r) => r.body.object_attributes?.action);

beforeAll(async () => {
  receiver = await startHookReceiver((request) => received.push(request));
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
  const add = (path: string, body: Record<string, unknown>) => kiln.api('POST', `/projects/${w.project.id}/hooks`, { token: w.maintainer.token, body: { url: `${receiver.url}${path}`, push_events: false, ...body } });
  expect((await add('/mr', { merge_requests_events: true, note_events: true, token: 'mr-token' })).status).toBe(201);
  expect((await add('/issues-only', { issues_events: true })).status).toBe(201);
  // System hooks: merge request events reach those that ask for them (GitLab's SystemHook merge_requests_events).
  const system = (path: string, body: Record<string, unknown>) => kiln.api('POST', '/hooks', { token: kiln.root.token, body: { url: `${receiver.url}${path}`, push_events: false, tag_push_events: false, repository_update_events: false, ...body } });
  expect((await system('/system-mr', { merge_requests_events: true })).status).toBe(201);
  expect((await system('/system-off', { merge_requests_events: false })).status).toBe(201);
});

afterAll(async () => {
  await kiln?.close();
  await receiver?.close();
});

beforeEach(() => {
  received = [];
});

describe('Merge Request Hook', () => {
  let mr: any;
  const base = () => `/projects/${w.project.id}/merge_requests/${mr.iid}`;

  it("sends an opened merge request with GitLab's headers and payload", async () => {
    await branchWith(kiln, w.developer, w.project.id, 'hooked', [create('hooked.txt', 'one\n')], 'Add hooked');
    mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'hooked', title: 'Hooked change', description: 'Does things', assignee_ids: [w.developer.id], reviewer_ids: [w.maintainer.id] });
    await kiln.worker.drain();
    const [delivery] = at('/mr');
    expect(at('/issues-only')).toEqual([]);
    const [system] = at('/system-mr');
    expect(system.headers['x-gitlab-event']).toBe('System Hook');
    expect(system.body).toMatchObject({ object_kind: 'merge_request', event_type: 'merge_request', object_attributes: { id: mr.id, iid: mr.iid, action: 'open' } });
    expect(at('/system-off')).toEqual([]);
    expect(delivery.headers).toMatchObject({ 'x-gitlab-event': 'Merge Request Hook', 'x-gitlab-token': 'mr-token', 'content-type': 'application/json' });
    expect(delivery.body).toMatchObject({
      object_kind: 'merge_request',
      event_type: 'merge_request',
      user: { id: w.developer.id, username: w.developer.username },
      project: { id: w.project.id, path_with_namespace: w.project.path_with_namespace },
      object_attributes: {
        id: mr.id, iid: mr.iid, title: 'Hooked change', description: 'Does things', state: 'opened', state_id: 1, action: 'open',
        source_branch: 'hooked', target_branch: 'main', source_project_id: w.project.id, target_project_id: w.project.id, author_id: w.developer.id,
        assignee_ids: [w.developer.id], assignee_id: w.developer.id, reviewer_ids: [w.maintainer.id], draft: false, work_in_progress: false,
        url: mr.web_url, merge_params: { force_remove_source_branch: expect.any(String) },
        last_commit: { id: mr.sha, title: 'Add hooked', author: { name: expect.any(String), email: expect.any(String) } },
        source: { id: w.project.id }, target: { id: w.project.id },
      },
      labels: [],
      changes: { title: { previous: null, current: 'Hooked change' }, source_branch: { previous: null, current: 'hooked' } },
      repository: { name: w.project.name },
      assignees: [{ id: w.developer.id, username: w.developer.username }],
      reviewers: [{ id: w.maintainer.id, username: w.maintainer.username }],
    });
    expect(delivery.body.object_attributes.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
  });

  it('sends an update with what changed, before and after', async () => {
    const label = await kiln.api('POST', `/projects/${w.project.id}/labels`, { token: w.maintainer.token, body: { name: 'hooked-label', color: '#ff0000' } });
    expect(label.status).toBe(201);
    const edited = await kiln.api('PUT', base(), { token: w.developer.token, body: { title: 'Draft: Hooked change', labels: 'hooked-label', assignee_ids: [w.maintainer.id] } });
    expect(edited.status).toBe(200);
    await kiln.worker.drain();
    const [delivery] = at('/mr');
    expect(delivery.body.object_attributes).toMatchObject({ action: 'update', title: 'Draft: Hooked change', draft: true, assignee_ids: [w.maintainer.id] });
    expect(delivery.body.changes).toMatchObject({
      title: { previous: 'Hooked change', current: 'Draft: Hooked change' },
      draft: { previous: false, current: true },
      labels: { previous: [], current: [{ title: 'hooked-label', color: '#ff0000' }] },
      assignees: { previous: [{ id: w.developer.id }], current: [{ id: w.maintainer.id }] },
    });
    expect(delivery.body.labels).toMatchObject([{ title: 'hooked-label' }]);
  });

  it('sends a push to the source branch as an update with oldrev', async () => {
    await branchWith(kiln, w.developer, w.project.id, 'hooked', [create('hooked2.txt', 'two\n')], 'Second');
    await kiln.worker.drain();
    const updates = at('/mr').filter((r) => r.body.object_attributes.action === 'update');
    expect(updates).toHaveLength(1);
    expect(updates[0].body.object_attributes.oldrev).toBe(mr.sha);
    expect(updates[0].body.object_attributes.last_commit.title).toBe('Second');
  });

  it('sends approved, unapproved, close, reopen and merge', async () => {
    expect((await kiln.api('POST', `${base()}/approve`, { token: w.maintainer.token })).status).toBe(201);
    expect((await kiln.api('POST', `${base()}/unapprove`, { token: w.maintainer.token })).status).toBe(201);
    expect((await kiln.api('PUT', base(), { token: w.developer.token, body: { state_event: 'close' } })).body.state).toBe('closed');
    expect((await kiln.api('PUT', base(), { token: w.developer.token, body: { state_event: 'reopen', title: 'Hooked change' } })).body.state).toBe('opened');
    await kiln.worker.drain();
    const merged = await kiln.api('PUT', `${base()}/merge`, { token: w.maintainer.token, body: {} });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    await kiln.worker.drain();
    // Deliveries run in concurrent lanes: every action once, in whatever order they arrived.
    expect(actions('/mr').sort()).toEqual(['approved', 'close', 'merge', 'reopen', 'unapproved']);
    const [close] = at('/mr').filter((r) => r.body.object_attributes.action === 'close');
    expect(close.body).toMatchObject({ object_attributes: { state: 'closed', state_id: 2 }, changes: { state_id: { previous: 1, current: 2 } } });
    const [merge] = at('/mr').filter((r) => r.body.object_attributes.action === 'merge');
    expect(merge.body).toMatchObject({ user: { id: w.maintainer.id }, object_attributes: { state: 'merged', state_id: 3, merge_commit_sha: merged.body.merge_commit_sha } });
  });
});

describe('Note Hook on a merge request', () => {
  it('sends a comment with the merge request, and a diff note with its position', async () => {
    await branchWith(kiln, w.developer, w.project.id, 'noted', [create('noted.txt', 'one\ntwo\n')]);
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'noted', title: 'Noted' });
    await kiln.worker.drain();
    received = [];
    const base = `/projects/${w.project.id}/merge_requests/${mr.iid}`;
    const note = await kiln.apiAs(w.reporter, 'POST', `${base}/notes`, { body: 'Looks fine' });
    const detail = await kiln.apiAs(w.reporter, 'GET', base);
    const position = { ...detail.diff_refs, position_type: 'text', old_path: 'noted.txt', new_path: 'noted.txt', new_line: 2 };
    const thread = await kiln.apiAs(w.reporter, 'POST', `${base}/discussions`, { body: 'This line?', position });
    await kiln.worker.drain();
    // Deliveries run in concurrent lanes: find each note's delivery by its id, not by arrival order.
    const notes = at('/mr').filter((r) => r.headers['x-gitlab-event'] === 'Note Hook');
    expect(notes).toHaveLength(2);
    const byNote = (id: number) => notes.find((r) => r.body.object_attributes.id === id)!;
    expect(byNote(note.id).body).toMatchObject({
      object_kind: 'note', event_type: 'note', user: { id: w.reporter.id }, project_id: w.project.id,
      object_attributes: { id: note.id, note: 'Looks fine', noteable_type: 'MergeRequest', noteable_id: mr.id, system: false, url: `${mr.web_url}#note_${note.id}`, action: 'create' },
      merge_request: { id: mr.id, iid: mr.iid, title: 'Noted', source_branch: 'noted' },
    });
    expect(byNote(thread.notes[0].id).body.object_attributes).toMatchObject({ id: thread.notes[0].id, type: 'DiffNote', position: { new_path: 'noted.txt', new_line: 2, head_sha: detail.diff_refs.head_sha }, line_code: expect.stringMatching(/^[0-9a-f]{40}_\d*_2$/) });
  });
});
