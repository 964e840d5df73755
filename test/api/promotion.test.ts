// Label and milestone promotion (issue 38): a project label or milestone becomes its group's, and
// every label or milestone of that title in the group's projects is replaced by it on their issues
// (and gone); who may promote (the project's and the group's role), and GitLab's refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

const REPORTER = 20;
let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let group: any;
let one: any;
let two: any;
const issues: any[] = [];

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  group = await kiln.createGroup(alice, 'team', { visibility: 'private' });
  one = await kiln.createProject(alice, 'one', { namespace_id: group.id, visibility: 'private' });
  two = await kiln.createProject(alice, 'two', { namespace_id: group.id, visibility: 'private' });
  await kiln.addMember(alice, 'projects', one.id, bob, REPORTER);
  for (const project of [one, two]) {
    expect((await kiln.api('POST', `/projects/${project.id}/labels`, { token: alice.token, body: { name: 'bug', color: '#ff0000' } })).status).toBe(201);
    const milestone = await kiln.api('POST', `/projects/${project.id}/milestones`, { token: alice.token, body: { title: 'v1', due_date: '2027-01-31' } });
    const issue = await kiln.api('POST', `/projects/${project.id}/issues`, { token: alice.token, body: { title: `In ${project.path}`, labels: 'bug', milestone_id: milestone.body.id } });
    expect(issue.status).toBe(201);
    issues.push(issue.body);
  }
});
afterAll(() => kiln?.close());

const issueOf = async (issue: any) => (await kiln.api('GET', `/projects/${issue.project_id}/issues/${issue.iid}`, { token: alice.token })).body;

describe('PUT /projects/:id/labels/:label_id/promote', () => {
  it('needs admin_label on the group too: a project Reporter outside the private group gets 403', async () => {
    // bob reads the group through its project (GitLab's has_projects) but holds no role there.
    expect((await kiln.api('PUT', `/projects/${one.id}/labels/bug/promote`, { token: bob.token })).status).toBe(403);
  });

  it('makes the group label and moves every project label of that title onto it', async () => {
    const promoted = await kiln.api('PUT', `/projects/${one.id}/labels/bug/promote`, { token: alice.token });
    expect(promoted).toMatchObject({ status: 200, body: { name: 'bug', color: '#ff0000' } });
    expect(promoted.body.is_project_label).toBeUndefined();
    const groupLabels = (await kiln.api('GET', `/groups/${group.id}/labels`, { token: alice.token })).body;
    expect(groupLabels.map((label: any) => [label.id, label.name])).toEqual([[promoted.body.id, 'bug']]);
    for (const project of [one, two]) {
      const labels = (await kiln.api('GET', `/projects/${project.id}/labels`, { token: alice.token })).body;
      expect(labels.map((label: any) => [label.id, label.is_project_label])).toEqual([[promoted.body.id, false]]);
    }
    for (const issue of issues) expect((await issueOf(issue)).labels).toEqual(['bug']);
    const filtered = await kiln.api('GET', `/groups/${group.id}/issues?labels=bug`, { token: alice.token });
    expect(filtered.body).toHaveLength(2);
    expect((await kiln.api('PUT', `/projects/${one.id}/labels/bug/promote`, { token: alice.token })).status).toBe(404);
  });

  it("refuses a personal project's label: there is no group", async () => {
    const own = await kiln.createProject(alice, 'own');
    await kiln.api('POST', `/projects/${own.id}/labels`, { token: alice.token, body: { name: 'x', color: '#000000' } });
    expect(await kiln.api('PUT', `/projects/${own.id}/labels/x/promote`, { token: alice.token })).toMatchObject({ status: 400, body: { message: 'Failed to promote project label to group label' } });
  });
});

describe('POST /projects/:id/milestones/:milestone_id/promote', () => {
  it('makes the group milestone and moves every project milestone of that title onto it (200)', async () => {
    const milestone = (await kiln.api('GET', `/projects/${one.id}/milestones?title=v1`, { token: alice.token })).body[0];
    expect((await kiln.api('POST', `/projects/${one.id}/milestones/${milestone.id}/promote`, { token: bob.token })).status).toBe(403);
    const promoted = await kiln.api('POST', `/projects/${one.id}/milestones/${milestone.id}/promote`, { token: alice.token });
    expect(promoted.status).toBe(200);
    const groupMilestones = (await kiln.api('GET', `/groups/${group.id}/milestones`, { token: alice.token })).body;
    expect(groupMilestones.map((row: any) => [row.title, row.due_date, row.group_id])).toEqual([['v1', '2027-01-31', group.id]]);
    for (const project of [one, two]) {
      expect((await kiln.api('GET', `/projects/${project.id}/milestones?include_ancestors=false`, { token: alice.token })).body.filter((row: any) => row.project_id)).toEqual([]);
    }
    for (const issue of issues) expect((await issueOf(issue)).milestone).toMatchObject({ id: groupMilestones[0].id, group_id: group.id });
    expect((await kiln.api('POST', `/projects/${one.id}/milestones/${milestone.id}/promote`, { token: alice.token })).status).toBe(404);
  });

  it('refuses when the group has a milestone of that title, and for a personal project', async () => {
    const again = await kiln.api('POST', `/projects/${two.id}/milestones`, { token: alice.token, body: { title: 'v2' } });
    await kiln.api('POST', `/groups/${group.id}/milestones`, { token: alice.token, body: { title: 'v3' } });
    // The group's v3 keeps projects from making a v3 of their own, so the clash is made by the group after the project's v2.
    await kiln.deps.db.updateTable('milestones').set({ title: 'v2' }).where('group_id', '=', group.id).where('title', '=', 'v3').execute();
    expect(await kiln.api('POST', `/projects/${two.id}/milestones/${again.body.id}/promote`, { token: alice.token }))
      .toMatchObject({ status: 400, body: { message: 'Title already being used for another group or project milestone.' } });
    const own = await kiln.createProject(alice, 'own-m');
    const mine = await kiln.api('POST', `/projects/${own.id}/milestones`, { token: alice.token, body: { title: 'm' } });
    expect((await kiln.api('POST', `/projects/${own.id}/milestones/${mine.body.id}/promote`, { token: alice.token })).status).toBe(403);
  });
});
