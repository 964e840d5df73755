// GET /projects/:id/issues/:issue_iid/participants (issue 38, python-gitlab's issue.participants()) and
// the merge request's: the author, assignees (reviewers), the authors of the notes (system notes too,
// as GitLab's Participable walks them), then the users mentioned in the title, description or a note,
// each once, in order of first appearance; only users who may read the project, and only the notes the
// caller may see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let owner: TestUser;
let dev: TestUser;
let guest: TestUser;
let outsider: TestUser;
let projectId: number;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  dev = await kiln.createUser('dev');
  guest = await kiln.createUser('guest');
  outsider = await kiln.createUser('outsider');
  projectId = (await kiln.createProject(owner, 'tracked', { visibility: 'private' })).id;
  await kiln.addMember(owner, 'projects', projectId, dev, ACCESS.developer);
  await kiln.addMember(owner, 'projects', projectId, guest, ACCESS.guest);
});
afterAll(() => kiln.close());

describe('GET /api/v4/projects/:id/issues/:issue_iid/participants', () => {
  it('lists the author, the assignees and the commenters once each', async () => {
    const issue = await kiln.apiAs(owner, 'POST', `/projects/${projectId}/issues`, { title: 'Broken', assignee_ids: [dev.id] });
    await kiln.apiAs(guest, 'POST', `/projects/${projectId}/issues/${issue.iid}/notes`, { body: 'Me too' });
    await kiln.apiAs(dev, 'POST', `/projects/${projectId}/issues/${issue.iid}/notes`, { body: 'Looking' });
    await kiln.apiAs(owner, 'PUT', `/projects/${projectId}/issues/${issue.iid}`, { labels: 'bug' });
    const participants = await kiln.apiAs(guest, 'GET', `/projects/${projectId}/issues/${issue.iid}/participants`);
    expect(participants.map((user: { username: string }) => user.username)).toEqual(['owner', 'dev', 'guest']);
    expect(participants[0]).toEqual(expect.objectContaining({ id: owner.id, username: 'owner', name: 'User owner', state: 'active', web_url: 'http://kiln.test/owner' }));
  });

  it('adds the users mentioned in the title, the description and the comments, and only those who may read the project', async () => {
    const reader = await kiln.createUser('reader');
    await kiln.addMember(owner, 'projects', projectId, reader, ACCESS.reporter);
    const issue = await kiln.apiAs(owner, 'POST', `/projects/${projectId}/issues`, { title: 'Ask @guest', description: 'cc @outsider and @nobody-here, not `@reader`' });
    await kiln.apiAs(dev, 'POST', `/projects/${projectId}/issues/${issue.iid}/notes`, { body: 'Pinging @Reader and @dev.' });
    const participants = await kiln.apiAs(guest, 'GET', `/projects/${projectId}/issues/${issue.iid}/participants`);
    // The outsider cannot read the private project: mentioned, but left out (as GitLab's read_project filter).
    expect(participants.map((user: { username: string }) => user.username)).toEqual(['owner', 'dev', 'guest', 'reader']);
  });

  it('counts the authors of system notes and the users they name: a Reporter who only changed a label, a user unassigned', async () => {
    const labeller = await kiln.createUser('labeller');
    await kiln.addMember(owner, 'projects', projectId, labeller, ACCESS.reporter);
    const issue = await kiln.apiAs(owner, 'POST', `/projects/${projectId}/issues`, { title: 'Triage me' });
    await kiln.apiAs(labeller, 'PUT', `/projects/${projectId}/issues/${issue.iid}`, { labels: 'triaged' });
    await kiln.apiAs(owner, 'PUT', `/projects/${projectId}/issues/${issue.iid}`, { assignee_ids: [guest.id] });
    await kiln.apiAs(owner, 'PUT', `/projects/${projectId}/issues/${issue.iid}`, { assignee_ids: [] });
    const participants = await kiln.apiAs(dev, 'GET', `/projects/${projectId}/issues/${issue.iid}/participants`);
    // guest is no longer assigned: named by "unassigned @guest", as GitLab extracts the users a system note names.
    expect(participants.map((user: { username: string }) => user.username)).toEqual(['owner', 'labeller', 'guest']);
  });

  it('leaves out the author of a "mentioned in" note the caller may not see', async () => {
    const insider = await kiln.createUser('insider');
    await kiln.addMember(owner, 'projects', projectId, insider, ACCESS.developer);
    const secret = await kiln.createProject(insider, 'secret', { visibility: 'private' });
    const issue = await kiln.apiAs(owner, 'POST', `/projects/${projectId}/issues`, { title: 'Referenced' });
    await kiln.apiAs(insider, 'POST', `/projects/${secret.id}/issues`, { title: 'Elsewhere', description: `See owner/tracked#${issue.iid}` });
    await kiln.worker.drain();
    const seenBy = async (user: TestUser) => (await kiln.apiAs(user, 'GET', `/projects/${projectId}/issues/${issue.iid}/participants`)).map((row: { username: string }) => row.username);
    expect(await seenBy(insider)).toEqual(['owner', 'insider']);
    expect(await seenBy(dev)).toEqual(['owner']);
  });

  it('lists those mentioned in a merge request after its author, assignees, reviewers and commenters', async () => {
    await seedRepository(kiln, owner, projectId);
    await branchWith(kiln, dev, projectId, 'feature', [create('feature.txt', 'one\n')]);
    const mr = await openMergeRequest(kiln, dev, projectId, { source_branch: 'feature', title: 'Feature', description: 'For @guest and @outsider', reviewer_ids: [owner.id] });
    await kiln.apiAs(owner, 'POST', `/projects/${projectId}/merge_requests/${mr.iid}/notes`, { body: 'Fine' });
    const participants = await kiln.apiAs(dev, 'GET', `/projects/${projectId}/merge_requests/${mr.iid}/participants`);
    expect(participants.map((user: { username: string }) => user.username)).toEqual(['dev', 'owner', 'guest']);
  }, 60_000);

  it('is 404 for an outsider of a private project and for an unknown issue', async () => {
    const issue = await kiln.apiAs(owner, 'POST', `/projects/${projectId}/issues`, { title: 'Hidden' });
    expect((await kiln.api('GET', `/projects/${projectId}/issues/${issue.iid}/participants`, { token: outsider.token })).status).toBe(404);
    expect((await kiln.api('GET', `/projects/${projectId}/issues/9999/participants`, { token: owner.token })).status).toBe(404);
  });
});
