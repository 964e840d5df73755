// The `subscribed` field of the issue entity, for the caller: an explicit subscription wins, and
// otherwise the issue's participants (author, assignees, commenters, mentioned users) are subscribed
// (GitLab's Subscribable), on one issue. Listings leave the field out, as GitLab's do
// (`include_subscribed: false` on every issue list: deciding it reads comments and mentions).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let project: { id: number };
const iids: Record<string, number> = {};

async function open(title: string, by: TestUser, body: Record<string, unknown> = {}): Promise<number> {
  const { status, body: issue } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: by.token, body: { title, ...body } });
  expect(status).toBe(201);
  return issue.iid;
}

async function subscribedOf(user: TestUser | null, iid: number): Promise<boolean> {
  const { status, body } = await kiln.api('GET', `/projects/${project.id}/issues/${iid}`, user ? { token: user.token } : {});
  expect(status).toBe(200);
  return body.subscribed;
}

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  carol = await kiln.createUser('carol');
  project = await kiln.createProject(alice, 'watched', { visibility: 'public' });
  await kiln.addMember(alice, 'projects', project.id, bob, 30);
  await kiln.addMember(alice, 'projects', project.id, carol, 20);
  iids.byAlice = await open('by alice', alice);
  iids.assignedToBob = await open('assigned to bob', alice, { assignee_ids: [bob.id] });
  iids.mentionsBob = await open('mentions bob', alice, { description: 'cc @bob, please look' });
  iids.codeMentionsBob = await open('quotes bob in code', alice, { description: 'run `@bob` literally' });
  iids.bobCommented = await open('bob commented', alice);
  await kiln.api('POST', `/projects/${project.id}/issues/${iids.bobCommented}/notes`, { token: bob.token, body: { body: 'me too' } });
  iids.othersCommented = await open('carol commented', alice);
  await kiln.api('POST', `/projects/${project.id}/issues/${iids.othersCommented}/notes`, { token: carol.token, body: { body: 'looks fine to me' } });
  iids.noteMentionsBob = await open('a comment mentions bob', alice);
  await kiln.api('POST', `/projects/${project.id}/issues/${iids.noteMentionsBob}/notes`, { token: carol.token, body: { body: 'asking @bob' } });
  iids.bobSubscribed = await open('bob subscribed', alice);
  expect((await kiln.api('POST', `/projects/${project.id}/issues/${iids.bobSubscribed}/subscribe`, { token: bob.token })).status).toBe(201);
  iids.bobUnsubscribed = await open('bob left', bob);
  expect((await kiln.api('POST', `/projects/${project.id}/issues/${iids.bobUnsubscribed}/unsubscribe`, { token: bob.token })).status).toBe(201);
});
afterAll(() => kiln.close());

const EXPECTED_FOR_BOB: Record<string, boolean> = {
  byAlice: false,
  assignedToBob: true,
  mentionsBob: true,
  codeMentionsBob: false,
  bobCommented: true,
  othersCommented: false,
  noteMentionsBob: true,
  bobSubscribed: true,
  bobUnsubscribed: false,
};

describe('GET /api/v4/projects/:id/issues/:issue_iid', () => {
  describe('as a developer', () => {
    it('shows subscribed for an issue they take part in or subscribed to, and not for others', async () => {
      const seen: Record<string, boolean> = {};
      for (const name of Object.keys(EXPECTED_FOR_BOB)) seen[name] = await subscribedOf(bob, iids[name]);
      expect(seen).toEqual(EXPECTED_FOR_BOB);
    });
  });

  describe('as the author', () => {
    it('is subscribed to their own issue', async () => {
      expect(await subscribedOf(alice, iids.byAlice)).toBe(true);
    });
  });

  describe('anonymous, on a public project', () => {
    it('is subscribed to nothing', async () => {
      expect(await subscribedOf(null, iids.byAlice)).toBe(false);
    });
  });
});

describe('POST /api/v4/projects/:id/issues', () => {
  it('answers subscribed: true to the author', async () => {
    const { body } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: carol.token, body: { title: 'new by carol' } });
    expect(body.subscribed).toBe(true);
  });
});

describe('PUT /api/v4/projects/:id/issues/:issue_iid', () => {
  it('answers the caller\'s subscribed', async () => {
    const { body } = await kiln.api('PUT', `/projects/${project.id}/issues/${iids.byAlice}`, { token: bob.token, body: { title: 'by alice, retitled by bob' } });
    expect(body.subscribed).toBe(false);
  });
});

describe('issue listings', () => {
  it('leave subscribed out, for a caller subscribed or not', async () => {
    const group = await kiln.createGroup(alice, 'watchers');
    const grouped = await kiln.createProject(alice, 'watched-in-group', { namespace_id: group.id });
    await kiln.api('POST', `/projects/${grouped.id}/issues`, { token: alice.token, body: { title: 'by alice in a group' } });
    const milestone = await kiln.api('POST', `/projects/${project.id}/milestones`, { token: alice.token, body: { title: 'listed' } });
    expect(milestone.status).toBe(201);
    expect((await kiln.api('PUT', `/projects/${project.id}/issues/${iids.byAlice}`, { token: alice.token, body: { milestone_id: milestone.body.id } })).status).toBe(200);
    const link = await kiln.api('POST', `/projects/${project.id}/issues/${iids.byAlice}/links`, { token: alice.token, body: { target_project_id: project.id, target_issue_iid: iids.bobSubscribed } });
    expect(link.status).toBe(201);
    for (const entity of [link.body.source_issue, link.body.target_issue]) expect('subscribed' in entity).toBe(false);
    const lists = [
      `/projects/${project.id}/issues?per_page=100`, '/issues?scope=all&per_page=100', `/groups/${group.id}/issues`,
      `/projects/${project.id}/milestones/${milestone.body.id}/issues`, `/projects/${project.id}/issues/${iids.byAlice}/links`,
    ];
    for (const path of lists) {
      const { status, body } = await kiln.api('GET', path, { token: alice.token });
      expect([path, status]).toEqual([path, 200]);
      expect(body.length, path).toBeGreaterThan(0);
      for (const issue of body) expect([path, issue.iid, 'subscribed' in issue]).toEqual([path, issue.iid, false]);
    }
    // The same issue read alone says it.
    expect(await subscribedOf(alice, iids.byAlice)).toBe(true);
  });
});
