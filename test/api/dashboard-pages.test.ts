// The dashboard pages GitLab has beside "your work" (issue 36): /dashboard/groups (Shift+G),
// /dashboard/milestones (Shift+L), /dashboard/snippets (Shift+S) and the review requests behind
// Shift+R (/dashboard/merge_requests?reviewer_username=<you>); the user menu's links carrying those
// keys, and a project sidebar's `i` (new issue) for those who may create one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let owner: TestUser;
let ana: TestUser;
let stranger: TestUser;
let group: any;
let project: any;
const XSS = '<img src=x onerror=alert(1)>';

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  ana = await kiln.createUser('ana');
  stranger = await kiln.createUser('stranger');
  group = await kiln.createGroup(owner, 'team', { visibility: 'private' });
  await kiln.addMember(owner, 'groups', group.id, ana, 10);
  project = await kiln.createProject(owner, 'app', { namespace_id: group.id, visibility: 'private' });
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('GET /dashboard/groups', () => {
  it('lists the groups the reader is a member of and the subgroups under them, with their role', async () => {
    const sub = await kiln.api('POST', '/groups', { token: owner.token, body: { name: `Sub ${XSS}`, path: 'sub', parent_id: group.id, visibility: 'private' } });
    expect(sub.status).toBe(201);
    await kiln.createGroup(owner, 'elsewhere', { visibility: 'public' });
    const page = await (await signedIn(ana)).get('/dashboard/groups');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<tr data-group="team"><td><a href="/groups/team">team</a>');
    expect(page.body).toContain('<tr data-group="team/sub"><td><a href="/groups/team/sub">Sub &lt;img src=x onerror=alert(1)&gt;</a>');
    expect(page.body.indexOf('data-group="team"')).toBeLessThan(page.body.indexOf('data-group="team/sub"'));
    expect(page.body).toMatch(/data-group="team">.*<td>Guest<\/td>/);
    expect(page.body).not.toContain('data-group="elsewhere"');
  });

  it('shows an administrator the role their membership gives, not Owner, and not the groups they only administer', async () => {
    const admin = await kiln.createUser('boss', { admin: true });
    await kiln.addMember(owner, 'groups', group.id, admin, 30);
    await kiln.createGroup(owner, 'unjoined', { visibility: 'private' });
    const page = await (await signedIn(admin)).get('/dashboard/groups');
    expect(page.body).toMatch(/data-group="team">.*?<td>Developer<\/td><\/tr>/);
    expect(page.body).toMatch(/data-group="team\/sub">.*?<td>Developer<\/td><\/tr>/);
    expect(page.body).not.toContain('<td>Owner</td>');
    expect(page.body).not.toContain('data-group="unjoined"');
  });

  it("filters by a name or path the group's contains, keeping what was typed", async () => {
    const web = await signedIn(ana);
    const page = await web.get('/dashboard/groups?filter=SUB');
    expect(page.body).toContain('data-group="team/sub"');
    expect(page.body).not.toContain('data-group="team"');
    expect(page.body).toContain('name="filter" value="SUB"');
    const none = await web.get(`/dashboard/groups?filter=${encodeURIComponent('<b>none</b>')}`);
    expect(none.body).toContain('None of your groups matches "&lt;b&gt;none&lt;/b&gt;".');
  });

  it('explains how to get a group when the reader has none, and asks visitors to sign in', async () => {
    const page = await (await signedIn(stranger)).get('/dashboard/groups');
    expect(page.body).toContain('You are not a member of any group yet.');
    expect(page.body).toContain('href="/groups/new">Create a group</a>');
    expect(page.body).toContain('href="/explore/groups">explore the groups</a>');
    const visitor = await kiln.request('GET', '/dashboard/groups');
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toMatch(/^\/users\/sign_in\?return_to=/);
  });
});

describe('GET /dashboard/milestones', () => {
  it('lists the milestones of the reader’s projects and groups by state, with the progress of the issues they may read', async () => {
    const groupMilestone = await kiln.api('POST', `/groups/${group.id}/milestones`, { token: owner.token, body: { title: `Launch ${XSS}`, due_date: '2027-01-10' } });
    const projectMilestone = await kiln.api('POST', `/projects/${project.id}/milestones`, { token: owner.token, body: { title: 'Beta' } });
    const done = await kiln.api('POST', `/projects/${project.id}/milestones`, { token: owner.token, body: { title: 'Alpha' } });
    await kiln.api('PUT', `/projects/${project.id}/milestones/${done.body.id}`, { token: owner.token, body: { state_event: 'close' } });
    const other = await kiln.createProject(stranger, 'theirs', { visibility: 'public' });
    await kiln.api('POST', `/projects/${other.id}/milestones`, { token: stranger.token, body: { title: 'Not ours' } });
    for (const [title, extra] of [['one', {}], ['two', {}], ['secret', { confidential: true }]] as const) {
      const issue = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title, milestone_id: groupMilestone.body.id, ...extra } });
      expect(issue.status).toBe(201);
      if (title !== 'two') await kiln.api('PUT', `/projects/${project.id}/issues/${issue.body.iid}`, { token: owner.token, body: { state_event: 'close' } });
    }
    const web = await signedIn(ana);
    const page = await web.get('/dashboard/milestones');
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/data-tab="active" aria-current="page">Open <span class="badge">2<\/span>/);
    expect(page.body).toContain('data-tab="closed">Closed <span class="badge">1</span>');
    expect(page.body).toContain('data-tab="all">All <span class="badge">3</span>');
    expect(page.body).toContain(`<a href="/groups/team/-/milestones/${groupMilestone.body.iid}">Launch &lt;img src=x onerror=alert(1)&gt;</a> <span class="muted">team</span>`);
    expect(page.body).toContain(`<a href="/team/app/-/milestones/${projectMilestone.body.iid}">Beta</a> <span class="muted">team/app</span>`);
    // A guest reads one closed and one open issue on it; the confidential one is not theirs to count.
    expect(page.body).toContain('value="50" aria-label="Launch &lt;img src=x onerror=alert(1)&gt;: 50% complete"');
    expect(page.body).toContain('50% · 1 of 2 issues closed');
    expect(page.body.indexOf('Launch')).toBeLessThan(page.body.indexOf('>Beta<')); // a due date first
    expect(page.body).not.toContain('Not ours');
    expect(page.body).not.toContain('>Alpha<');
    const closed = await web.get('/dashboard/milestones?state=closed');
    expect(closed.body).toContain('>Alpha</a>');
    expect(closed.body).not.toContain('>Beta</a>');
    // The owner (a Reporter and above) counts the confidential issue too.
    expect((await (await signedIn(owner)).get('/dashboard/milestones')).body).toContain('66% · 2 of 3 issues closed');
    expect((await web.get('/dashboard/milestones?state=%3Cx%3E&page=abc')).statusCode).toBe(200);
  });

  it('explains where milestones come from when there are none', async () => {
    const page = await (await signedIn(stranger)).get('/dashboard/milestones?state=closed');
    expect(page.body).toContain('No closed milestones in your projects and groups.');
    const none = await kiln.createUser('nobody');
    expect((await (await signedIn(none)).get('/dashboard/milestones')).body).toContain('they appear here for every member');
  });
});

describe('GET /dashboard/snippets', () => {
  it('lists the reader’s own snippets and none of anyone else’s', async () => {
    const mine = await kiln.api('POST', '/snippets', { token: ana.token, body: { title: `Mine ${XSS}`, visibility: 'private', files: [{ file_path: 'a.txt', content: 'a' }] } });
    expect(mine.status).toBe(201);
    await kiln.api('POST', '/snippets', { token: owner.token, body: { title: 'Owner’s', visibility: 'public', files: [{ file_path: 'b.txt', content: 'b' }] } });
    const page = await (await signedIn(ana)).get('/dashboard/snippets');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Your snippets</h1>');
    expect(page.body).toContain('Mine &lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).not.toContain('Owner’s');
    expect((await kiln.request('GET', '/dashboard/snippets')).statusCode).toBe(302);
  });
});

describe('GET /dashboard/merge_requests?reviewer_username=<you> (Shift+R)', () => {
  it('is the review requests of the reader; another user’s name picks no scope of theirs', async () => {
    await kiln.addMember(owner, 'groups', group.id, stranger, 30);
    await seedRepository(kiln, owner, project.id);
    await branchWith(kiln, owner, project.id, 'review', [create('b.txt', 'b\n')]);
    const mr = await openMergeRequest(kiln, owner, project.id, { source_branch: 'review', title: 'Please look', reviewer_ids: [stranger.id] });
    const web = await signedIn(stranger);
    const reviews = await web.get('/dashboard/merge_requests?reviewer_username=stranger');
    expect(reviews.body).toContain(`href="/team/app/-/merge_requests/${mr.iid}">Please look</a>`);
    expect(reviews.body).toContain('aria-current="page">Review requests for you</a>');
    expect((await web.get('/dashboard/merge_requests?reviewer_username=STRANGER')).body).toContain('Please look');
    const assigned = await web.get('/dashboard/merge_requests?reviewer_username=owner');
    expect(assigned.body).toContain('aria-current="page">Assigned to you</a>');
    expect(assigned.body).not.toContain('Please look');
    await kiln.api('DELETE', `/groups/${group.id}/members/${stranger.id}`, { token: owner.token });
  });
});

describe('the keyboard shortcuts of these pages', () => {
  it('the user menu links them with GitLab’s keys; a project’s sidebar offers i to those who may create issues', async () => {
    const web = await signedIn(ana);
    const home = (await web.get('/')).body;
    expect(home).toContain('<a data-shortcut="G" data-shortcut-label="Go to your groups" href="/dashboard/groups">Your groups</a>');
    expect(home).toContain('<a data-shortcut="L" data-shortcut-label="Go to your milestones" href="/dashboard/milestones">Your milestones</a>');
    expect(home).toContain('<a data-shortcut="S" data-shortcut-label="Go to your snippets" href="/dashboard/snippets">Your snippets</a>');
    expect(home).toContain('data-shortcut="R" data-shortcut-label="Go to the merge requests waiting for your review" href="/dashboard/merge_requests?reviewer_username=ana">Review requests</a>');
    expect((await web.get('/team/app')).body).toContain('data-new-issue="/team/app/-/issues/new"');
    const quiet = await kiln.createProject(owner, 'no-issues', { namespace_id: group.id, visibility: 'private' });
    expect((await kiln.api('PUT', `/projects/${quiet.id}`, { token: owner.token, body: { issues_access_level: 'disabled' } })).status).toBe(200);
    expect((await web.get('/team/no-issues')).body).not.toContain('data-new-issue');
    const visitor = await kiln.request('GET', '/explore');
    expect(visitor.body).not.toContain('/dashboard/groups');
  });
});
