// The state, milestone and label history of issues and merge requests (doc/api/resource_state_events.md,
// doc/api/resource_milestone_events.md, resource_label_events.md): closing and reopening, merging, a
// milestone set, replaced and taken off, labels added and removed, each recorded with who, when and
// the state then, listed and read one by one by whoever reads the issue or merge request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let owner: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: any;
let v1: any;
let v2: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'history', { visibility: 'private' });
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
  v1 = (await kiln.api('POST', `/projects/${project.id}/milestones`, { token: owner.token, body: { title: 'v1' } })).body;
  v2 = (await kiln.api('POST', `/projects/${project.id}/milestones`, { token: owner.token, body: { title: 'v2' } })).body;
});
afterAll(() => kiln.close());

const issues = () => `/projects/${project.id}/issues`;

describe('GET /api/v4/projects/:id/issues/:issue_iid/resource_state_events', () => {
  it('lists each close and reopen with the user, oldest first, and reads one', async () => {
    const issue = (await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Stateful' } })).body;
    await kiln.api('PUT', `${issues()}/${issue.iid}`, { token: owner.token, body: { state_event: 'close' } });
    kiln.clock.advance(60_000);
    await kiln.api('PUT', `${issues()}/${issue.iid}`, { token: owner.token, body: { state_event: 'reopen' } });
    // A close of a closed issue changes nothing and records nothing.
    await kiln.api('PUT', `${issues()}/${issue.iid}`, { token: owner.token, body: { state_event: 'reopen' } });
    const { status, body } = await kiln.api('GET', `${issues()}/${issue.iid}/resource_state_events`, { token: guest.token });
    expect(status).toBe(200);
    expect(body.map((event: any) => event.state)).toEqual(['closed', 'reopened']);
    expect(body[0]).toEqual({ id: body[0].id, user: expect.objectContaining({ username: 'owner' }), created_at: '2026-11-22T08:00:00.000Z', resource_type: 'Issue', resource_id: issue.id, state: 'closed' });
    expect(body[1].created_at).toBe('2026-11-22T08:01:00.000Z');
    const one = await kiln.api('GET', `${issues()}/${issue.iid}/resource_state_events/${body[1].id}`, { token: guest.token });
    expect(one).toMatchObject({ status: 200, body: body[1] });
    expect((await kiln.api('GET', `${issues()}/${issue.iid}/resource_state_events/99999`, { token: guest.token })).body).toEqual({ message: '404 ResourceStateEvent Not Found' });
    expect((await kiln.api('GET', `${issues()}/${issue.iid}/resource_state_events`, { token: stranger.token })).status).toBe(404);
    expect((await kiln.api('GET', `${issues()}/${issue.iid}/resource_state_events/abc`, { token: guest.token })).status).toBe(400);
  });
});

describe('GET /api/v4/projects/:id/issues/:issue_iid/resource_milestone_events', () => {
  it('records add for a milestone set or replaced and remove for one taken off, with the state then', async () => {
    const issue = (await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Planned' } })).body;
    await kiln.api('PUT', `${issues()}/${issue.iid}`, { token: owner.token, body: { milestone_id: v1.id } });
    await kiln.api('PUT', `${issues()}/${issue.iid}`, { token: owner.token, body: { milestone_id: v2.id, state_event: 'close' } });
    await kiln.api('PUT', `${issues()}/${issue.iid}`, { token: owner.token, body: { milestone_id: v2.id } });
    await kiln.api('PUT', `${issues()}/${issue.iid}`, { token: owner.token, body: { milestone_id: null } });
    const { status, body } = await kiln.api('GET', `${issues()}/${issue.iid}/resource_milestone_events`, { token: guest.token });
    expect(status).toBe(200);
    expect(body.map((event: any) => [event.action, event.milestone.title, event.state])).toEqual([['add', 'v1', 'opened'], ['add', 'v2', 'opened'], ['remove', 'v2', 'closed']]);
    expect(body[0]).toMatchObject({ resource_type: 'Issue', resource_id: issue.id, user: { username: 'owner' }, milestone: { id: v1.id, iid: v1.iid, project_id: project.id } });
    const one = await kiln.api('GET', `${issues()}/${issue.iid}/resource_milestone_events/${body[2].id}`, { token: guest.token });
    expect(one.body).toEqual(body[2]);
    expect((await kiln.api('GET', `${issues()}/${issue.iid}/resource_milestone_events/99999`, { token: guest.token })).body).toEqual({ message: '404 ResourceMilestoneEvent Not Found' });
  });
});

describe('GET /api/v4/projects/:id/merge_requests/:merge_request_iid/resource_state_events and resource_milestone_events', () => {
  it('records closing, reopening and merging, and milestone changes', async () => {
    await seedRepository(kiln, owner, project.id);
    await branchWith(kiln, owner, project.id, 'feature', [create('feature.txt', 'x\n')]);
    const mr = await openMergeRequest(kiln, owner, project.id, { source_branch: 'feature' });
    const mrs = `/projects/${project.id}/merge_requests/${mr.iid}`;
    await kiln.api('PUT', mrs, { token: owner.token, body: { milestone_id: v1.id } });
    await kiln.api('PUT', mrs, { token: owner.token, body: { state_event: 'close' } });
    await kiln.api('PUT', mrs, { token: owner.token, body: { state_event: 'reopen' } });
    const merged = await kiln.api('PUT', `${mrs}/merge`, { token: owner.token });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const states = await kiln.api('GET', `${mrs}/resource_state_events`, { token: owner.token });
    expect(states.body.map((event: any) => [event.resource_type, event.resource_id, event.state])).toEqual([['MergeRequest', mr.id, 'closed'], ['MergeRequest', mr.id, 'reopened'], ['MergeRequest', mr.id, 'merged']]);
    const milestones = await kiln.api('GET', `${mrs}/resource_milestone_events`, { token: owner.token });
    expect(milestones.body.map((event: any) => [event.action, event.milestone.title, event.state])).toEqual([['add', 'v1', 'opened']]);
    // A guest of a private project does not read its merge requests.
    expect((await kiln.api('GET', `${mrs}/resource_state_events`, { token: guest.token })).status).toBe(403);
  });
});

describe('a milestone given at creation', () => {
  it("records the issue's add event, with the creator and the state opened (python-gitlab's test_issue_milestones)", async () => {
    const issue = (await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Planned', milestone_id: v1.id } })).body;
    const { body } = await kiln.api('GET', `${issues()}/${issue.iid}/resource_milestone_events`, { token: guest.token });
    expect(body.map((event: any) => [event.action, event.milestone.id, event.state, event.user.username])).toEqual([['add', v1.id, 'opened', 'owner']]);
    const plain = (await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Unplanned' } })).body;
    expect((await kiln.api('GET', `${issues()}/${plain.iid}/resource_milestone_events`, { token: guest.token })).body).toEqual([]);
  });

  it("records the merge request's add event", async () => {
    if ((await kiln.api('GET', `/projects/${project.id}/repository/branches/main`, { token: owner.token })).status !== 200) await seedRepository(kiln, owner, project.id);
    await branchWith(kiln, owner, project.id, 'planned', [create('planned.txt', 'x\n')]);
    const mr = await openMergeRequest(kiln, owner, project.id, { source_branch: 'planned', milestone_id: v2.id });
    const { body } = await kiln.api('GET', `/projects/${project.id}/merge_requests/${mr.iid}/resource_milestone_events`, { token: owner.token });
    expect(body.map((event: any) => [event.action, event.milestone.id, event.state])).toEqual([['add', v2.id, 'opened']]);
  });
});

describe('GET /api/v4/projects/:id/merge_requests/:merge_request_iid/resource_label_events', () => {
  it('records each label added and removed, at creation and by updates, in title order, and reads one', async () => {
    await branchWith(kiln, owner, project.id, 'labelled', [create('labelled.txt', 'x\n')]);
    const mr = await openMergeRequest(kiln, owner, project.id, { source_branch: 'labelled', labels: 'zeta,alpha' });
    const mrs = `/projects/${project.id}/merge_requests/${mr.iid}`;
    await kiln.api('PUT', mrs, { token: owner.token, body: { add_labels: 'beta', remove_labels: 'zeta' } });
    // Labels as they were change nothing and record nothing.
    await kiln.api('PUT', mrs, { token: owner.token, body: { labels: 'alpha,beta' } });
    const { status, body } = await kiln.api('GET', `${mrs}/resource_label_events`, { token: owner.token });
    expect(status).toBe(200);
    expect(body.map((event: any) => [event.action, event.label.name, event.resource_type, event.resource_id])).toEqual([
      ['add', 'alpha', 'MergeRequest', mr.id], ['add', 'zeta', 'MergeRequest', mr.id], ['add', 'beta', 'MergeRequest', mr.id], ['remove', 'zeta', 'MergeRequest', mr.id],
    ]);
    expect(body[0]).toMatchObject({ user: { username: 'owner' }, label: { name: 'alpha', color: expect.any(String) } });
    const one = await kiln.api('GET', `${mrs}/resource_label_events/${body[3].id}`, { token: owner.token });
    expect(one).toMatchObject({ status: 200, body: body[3] });
    expect((await kiln.api('GET', `${mrs}/resource_label_events/99999`, { token: owner.token })).body).toEqual({ message: '404 ResourceLabelEvent Not Found' });
    // An issue's label event is not one of the merge request's, nor the other way round.
    const issue = (await kiln.api('POST', issues(), { token: owner.token, body: { title: 'Labelled', labels: 'alpha' } })).body;
    const issueEvents = (await kiln.api('GET', `${issues()}/${issue.iid}/resource_label_events`, { token: owner.token })).body;
    expect(issueEvents.map((event: any) => [event.action, event.label.name, event.resource_type, event.resource_id])).toEqual([['add', 'alpha', 'Issue', issue.id]]);
    expect((await kiln.api('GET', `${mrs}/resource_label_events/${issueEvents[0].id}`, { token: owner.token })).status).toBe(404);
    expect((await kiln.api('GET', `${issues()}/${issue.iid}/resource_label_events/${body[0].id}`, { token: owner.token })).status).toBe(404);
    // A guest of a private project does not read its merge requests.
    expect((await kiln.api('GET', `${mrs}/resource_label_events`, { token: guest.token })).status).toBe(403);
  });
});
