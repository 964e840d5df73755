// Project and group milestones (doc/api/milestones.md, group_milestones.md): GitLab's paths, parameters,
// entity, errors ("Failed to create milestone {…}"), state events, and the activity events they record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let group: any;
let project: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  reporter = await kiln.createUser('reporter');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  group = await kiln.createGroup(owner, 'org');
  project = await kiln.createProject(owner, 'app', { namespace_id: group.id });
  await kiln.addMember(owner, 'projects', project.id, reporter, ACCESS.reporter);
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
});
afterAll(() => kiln.close());

const path = () => `/projects/${project.id}/milestones`;

describe('POST /api/v4/projects/:id/milestones', () => {
  describe('as a reporter', () => {
    it('creates a milestone with every documented parameter and reads each back (201)', async () => {
      const { status, body } = await kiln.api('POST', path(), { token: reporter.token, body: { title: 'v1.0', description: 'First release', start_date: '2026-11-01', due_date: '2026-12-01' } });
      expect(status).toBe(201);
      expect(body).toEqual({
        id: expect.any(Number),
        iid: 1,
        project_id: project.id,
        title: 'v1.0',
        description: 'First release',
        state: 'active',
        created_at: '2026-11-22T08:00:00.000Z',
        updated_at: '2026-11-22T08:00:00.000Z',
        due_date: '2026-12-01',
        start_date: '2026-11-01',
        expired: false,
        web_url: 'http://kiln.test/org/app/-/milestones/1',
      });
      expect((await kiln.api('GET', `${path()}/${body.id}`, { token: guest.token })).body).toEqual(body);
    });

    it('records a `created` event with target type Milestone, listed by target_type=milestone', async () => {
      const { body } = await kiln.api('GET', `/projects/${project.id}/events?target_type=milestone`, { token: owner.token });
      expect(body).toHaveLength(1);
      expect(body[0]).toMatchObject({ action_name: 'opened', target_type: 'Milestone', target_title: 'v1.0', target_iid: 1 });
    });

    it('answers GitLab\'s 400 for a title already used in the project or its group', async () => {
      const { status, body } = await kiln.api('POST', path(), { token: reporter.token, body: { title: 'v1.0' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: 'Failed to create milestone {:title=>["already being used for another group or project milestone."]}' });
      await kiln.api('POST', `/groups/${group.id}/milestones`, { token: owner.token, body: { title: 'Q1' } });
      expect((await kiln.api('POST', path(), { token: reporter.token, body: { title: 'Q1' } })).status).toBe(400);
    });

    it('answers 400 for a due date before the start date, a blank title, or a date that is not one', async () => {
      expect((await kiln.api('POST', path(), { token: reporter.token, body: { title: 'bad', start_date: '2026-12-02', due_date: '2026-12-01' } })).body)
        .toEqual({ message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' });
      expect((await kiln.api('POST', path(), { token: reporter.token, body: { title: ' ' } })).body).toEqual({ message: 'Failed to create milestone {:title=>["can\'t be blank"]}' });
      expect((await kiln.api('POST', path(), { token: reporter.token, body: { title: 'x', due_date: 'soon' } })).body).toEqual({ error: 'due_date is invalid' });
      expect((await kiln.api('POST', path(), { token: reporter.token, body: {} })).body).toEqual({ error: 'title is missing' });
    });
  });

  describe('as a guest', () => {
    it('answers 403 (admin_milestone is Reporter and above)', async () => {
      expect((await kiln.api('POST', path(), { token: guest.token, body: { title: 'no' } })).status).toBe(403);
    });
  });

  describe('as a non-member', () => {
    it('answers 404 Project Not Found', async () => {
      expect((await kiln.api('GET', path(), { token: stranger.token })).body).toEqual({ message: '404 Project Not Found' });
    });
  });
});

describe('PUT /api/v4/projects/:id/milestones/:milestone_id', () => {
  it('changes every documented field, closes and reopens, recording closed and reopened events', async () => {
    const created = await kiln.api('POST', path(), { token: reporter.token, body: { title: 'v2.0' } });
    const id = created.body.id;
    const changed = await kiln.api('PUT', `${path()}/${id}`, { token: reporter.token, body: { title: 'v2.1', description: 'Second', start_date: '2026-12-01', due_date: '2027-01-01' } });
    expect(changed.body).toMatchObject({ title: 'v2.1', description: 'Second', start_date: '2026-12-01', due_date: '2027-01-01', state: 'active' });
    expect((await kiln.api('PUT', `${path()}/${id}`, { token: reporter.token, body: { state_event: 'close' } })).body.state).toBe('closed');
    expect((await kiln.api('PUT', `${path()}/${id}`, { token: reporter.token, body: { state_event: 'close' } })).body.state).toBe('closed');
    expect((await kiln.api('PUT', `${path()}/${id}`, { token: reporter.token, body: { state_event: 'activate' } })).body.state).toBe('active');
    const events = (await kiln.api('GET', `/projects/${project.id}/events?target_type=milestone&sort=asc`, { token: owner.token })).body.filter((event: any) => event.target_id === id);
    expect(events.map((event: any) => event.action_name)).toEqual(['opened', 'closed', 'opened']);
    const closedOnly = await kiln.api('GET', `/projects/${project.id}/events?action=closed&target_type=milestone`, { token: owner.token });
    expect(closedOnly.body).toHaveLength(1);
    const cleared = await kiln.api('PUT', `${path()}/${id}`, { token: reporter.token, body: { due_date: '' } });
    expect(cleared.body.due_date).toBeNull();
  });

  it('answers 400 for a state_event GitLab does not know, and without anything to change', async () => {
    const { body } = await kiln.api('GET', path(), { token: reporter.token });
    expect((await kiln.api('PUT', `${path()}/${body[0].id}`, { token: reporter.token, body: { state_event: 'reopen' } })).body).toEqual({ error: 'state_event does not have a valid value' });
    expect((await kiln.api('PUT', `${path()}/${body[0].id}`, { token: reporter.token, body: {} })).body).toEqual({ error: 'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided' });
  });

  it('answers 404 Not found for a milestone of another project', async () => {
    const other = await kiln.createProject(owner, 'other');
    const foreign = await kiln.api('POST', `/projects/${other.id}/milestones`, { token: owner.token, body: { title: 'theirs' } });
    expect((await kiln.api('PUT', `${path()}/${foreign.body.id}`, { token: owner.token, body: { title: 'mine' } })).body).toEqual({ message: '404 Not found' });
  });
});

describe('GET /api/v4/projects/:id/milestones', () => {
  it('filters by state, iids, title and search, and includes the group\'s with include_parent_milestones', async () => {
    const titles = async (query: string) => (await kiln.api('GET', `${path()}?${query}`, { token: guest.token })).body.map((m: any) => m.title);
    expect(await titles('state=active')).toEqual(['v1.0', 'v2.1']);
    expect(await titles('iids[]=1')).toEqual(['v1.0']);
    expect(await titles('title=v2.1')).toEqual(['v2.1']);
    expect(await titles('search=second')).toEqual(['v2.1']);
    expect(await titles('include_parent_milestones=true')).toContain('Q1');
    expect((await kiln.api('GET', `${path()}?state=nope`, { token: guest.token })).body).toEqual({ error: 'state does not have a valid value' });
  });

  it('shows expired milestones once their due date has passed', async () => {
    const { body } = await kiln.api('POST', path(), { token: reporter.token, body: { title: 'past', due_date: '2026-01-01' } });
    expect(body.expired).toBe(true);
  });
});

describe('DELETE /api/v4/projects/:id/milestones/:milestone_id', () => {
  it('deletes (204), unsets it on its issues, and records a `destroyed` event whose target is gone', async () => {
    const { body: milestone } = await kiln.api('POST', path(), { token: reporter.token, body: { title: 'doomed' } });
    const issue = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'planned', milestone_id: milestone.id } });
    expect(issue.body.milestone).toMatchObject({ id: milestone.id, title: 'doomed' });
    expect((await kiln.api('DELETE', `${path()}/${milestone.id}`, { token: reporter.token })).status).toBe(204);
    expect((await kiln.api('GET', `/projects/${project.id}/issues/${issue.body.iid}`, { token: owner.token })).body.milestone).toBeNull();
    const destroyed = await kiln.api('GET', `/projects/${project.id}/events?action=destroyed`, { token: owner.token });
    expect(destroyed.body).toHaveLength(1);
    expect(destroyed.body[0]).toMatchObject({ action_name: 'destroyed', target_type: 'Milestone', target_title: 'doomed', target_id: null });
  });
});

describe('GET /api/v4/projects/:id/milestones/:milestone_id/issues', () => {
  it('lists the milestone\'s issues, without the confidential ones a guest may not read', async () => {
    const { body: milestone } = await kiln.api('POST', path(), { token: reporter.token, body: { title: 'with-issues' } });
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'open one', milestone_id: milestone.id } });
    await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'secret one', milestone_id: milestone.id, confidential: true } });
    const asOwner = await kiln.api('GET', `${path()}/${milestone.id}/issues`, { token: owner.token });
    expect(asOwner.body.map((issue: any) => issue.title)).toEqual(['secret one', 'open one']);
    const asGuest = await kiln.api('GET', `${path()}/${milestone.id}/issues`, { token: guest.token });
    expect(asGuest.body.map((issue: any) => issue.title)).toEqual(['open one']);
    expect(asGuest.headers['x-total']).toBe('1');
  });
});

describe('GET /api/v4/{projects,groups}/:id/milestones/:milestone_id/merge_requests', () => {
  it("lists the milestone's merge requests of every state, for the project and for its group's milestone", async () => {
    await seedRepository(kiln, owner, project.id);
    await branchWith(kiln, owner, project.id, 'planned', [create('planned.txt', 'one\n')]);
    await branchWith(kiln, owner, project.id, 'unplanned', [create('unplanned.txt', 'two\n')]);
    const { body: milestone } = await kiln.api('POST', path(), { token: reporter.token, body: { title: 'with-mrs' } });
    const { body: [groupMilestone] } = await kiln.api('GET', `/groups/${group.id}/milestones?title=Q1`, { token: owner.token });
    const planned = await openMergeRequest(kiln, owner, project.id, { source_branch: 'planned', title: 'Planned', milestone_id: milestone.id });
    await openMergeRequest(kiln, owner, project.id, { source_branch: 'unplanned', title: 'Group planned', milestone_id: groupMilestone.id });
    await kiln.api('PUT', `/projects/${project.id}/merge_requests/${planned.iid}`, { token: owner.token, body: { state_event: 'close' } });
    const listed = await kiln.api('GET', `${path()}/${milestone.id}/merge_requests`, { token: reporter.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((mr: any) => [mr.title, mr.state, mr.milestone.id])).toEqual([['Planned', 'closed', milestone.id]]);
    const ofGroup = await kiln.api('GET', `/groups/${group.id}/milestones/${groupMilestone.id}/merge_requests`, { token: owner.token });
    expect(ofGroup.body.map((mr: any) => mr.title)).toEqual(['Group planned']);
    // A guest reads the private project's milestones but not its merge requests.
    expect((await kiln.api('GET', `${path()}/${milestone.id}/merge_requests`, { token: guest.token })).body).toEqual([]);
    expect((await kiln.api('GET', `${path()}/999999/merge_requests`, { token: owner.token })).status).toBe(404);
    expect((await kiln.api('GET', `${path()}/${milestone.id}/merge_requests`, { token: stranger.token })).status).toBe(404);
  }, 60_000); // three commits and two merge requests: slow on a loaded machine
});

describe('/api/v4/groups/:id/milestones', () => {
  it('creates, reads, lists, changes, closes and deletes a group milestone with every documented parameter', async () => {
    const created = await kiln.api('POST', `/groups/${group.id}/milestones`, { token: owner.token, body: { title: 'G1', description: 'group', start_date: '2026-01-01', due_date: '2030-01-01' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ iid: 2, group_id: group.id, title: 'G1', description: 'group', start_date: '2026-01-01', due_date: '2030-01-01', web_url: 'http://kiln.test/groups/org/-/milestones/2' });
    expect(created.body.project_id).toBeUndefined();
    expect((await kiln.api('GET', `/groups/${group.id}/milestones/${created.body.id}`, { token: owner.token })).body).toEqual(created.body);
    expect((await kiln.api('GET', `/groups/${group.id}/milestones`, { token: owner.token })).body.map((m: any) => m.title)).toEqual(['G1', 'Q1']);
    const closed = await kiln.api('PUT', `/groups/${group.id}/milestones/${created.body.id}`, { token: owner.token, body: { title: 'G2', state_event: 'close' } });
    expect(closed.body).toMatchObject({ title: 'G2', state: 'closed' });
    expect((await kiln.api('DELETE', `/groups/${group.id}/milestones/${created.body.id}`, { token: owner.token })).status).toBe(204);
  });

  it('lets a project\'s issue take a milestone of its group, listed by the group milestone\'s issues', async () => {
    const { body: milestone } = await kiln.api('GET', `/groups/${group.id}/milestones?title=Q1`, { token: owner.token });
    const issue = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'group planned', milestone_id: milestone[0].id } });
    expect(issue.body.milestone).toMatchObject({ title: 'Q1', group_id: group.id });
    const listed = await kiln.api('GET', `/groups/${group.id}/milestones/${milestone[0].id}/issues`, { token: owner.token });
    expect(listed.body.map((row: any) => row.title)).toEqual(['group planned']);
  });

  it('as a non-member of a private group answers 404 Group Not Found', async () => {
    expect((await kiln.api('GET', `/groups/${group.id}/milestones`, { token: stranger.token })).body).toEqual({ message: '404 Group Not Found' });
  });
});
