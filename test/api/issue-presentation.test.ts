// An issue's associations as its entity shows them, read for a page in one statement
// (src/issues/issue-presentation-queries.ts): assignees, labels, the closer and author, user notes
// (system notes not counted) and votes, each on its own issue and not on its neighbour's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let guest: TestUser;
let project: any;
let busy: any;
let bare: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('developer');
  guest = await kiln.createUser('guest');
  project = await kiln.createProject(owner, 'app', { visibility: 'private' });
  await kiln.addMember(owner, 'projects', project.id, developer, ACCESS.developer);
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
  bare = await kiln.apiAs(guest, 'POST', `/projects/${project.id}/issues`, { title: 'Bare' });
  busy = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Busy', labels: 'zeta,alpha,beta', assignee_ids: [developer.id, owner.id] });
  const path = `/projects/${project.id}/issues/${busy.iid}`;
  await kiln.apiAs(developer, 'POST', `${path}/notes`, { body: 'First' });
  await kiln.apiAs(guest, 'POST', `${path}/notes`, { body: 'Second' });
  await kiln.apiAs(developer, 'PUT', path, { state_event: 'close' });
  await kiln.apiAs(guest, 'POST', `${path}/award_emoji`, { name: 'thumbsup' });
  await kiln.apiAs(owner, 'POST', `${path}/award_emoji`, { name: 'thumbsup' });
  await kiln.apiAs(developer, 'POST', `${path}/award_emoji`, { name: 'thumbsdown' });
  await kiln.apiAs(developer, 'POST', `${path}/award_emoji`, { name: 'tada' });
}, 120_000);
afterAll(async () => {
  await kiln.close();
});

const usernames = (users: any[]) => users.map((user) => user.username);

function expectBusy(issue: any) {
  expect(issue).toMatchObject({ title: 'Busy', state: 'closed', user_notes_count: 2, upvotes: 2, downvotes: 1, labels: ['alpha', 'beta', 'zeta'] });
  expect(usernames(issue.assignees).sort()).toEqual(['developer', 'owner']);
  expect(issue.assignee.username).toBe(issue.assignees[0].username);
  expect(issue.author).toMatchObject({ id: owner.id, username: 'owner', state: 'active' });
  expect(issue.closed_by).toMatchObject({ id: developer.id, username: 'developer' });
}

function expectBare(issue: any) {
  expect(issue).toMatchObject({ title: 'Bare', state: 'opened', user_notes_count: 0, upvotes: 0, downvotes: 0, labels: [], assignees: [], assignee: null, closed_by: null });
  expect(issue.author).toMatchObject({ id: guest.id, username: 'guest' });
}

describe('issue presentation', () => {
  it('a page of issues shows each issue its own links', async () => {
    const page = await kiln.apiAs(guest, 'GET', `/projects/${project.id}/issues?state=all`);
    expect(page.map((issue: any) => issue.title)).toEqual(['Busy', 'Bare']);
    expectBusy(page[0]);
    expectBare(page[1]);
  });

  it('one issue shows the same links, and labels in detail when asked', async () => {
    expectBusy(await kiln.apiAs(developer, 'GET', `/projects/${project.id}/issues/${busy.iid}`));
    expectBare(await kiln.apiAs(developer, 'GET', `/projects/${project.id}/issues/${bare.iid}`));
    const [detailed] = await kiln.apiAs(owner, 'GET', `/projects/${project.id}/issues?state=closed&with_labels_details=true`);
    expect(detailed.labels.map((label: any) => label.name)).toEqual(['alpha', 'beta', 'zeta']);
    expect(detailed.labels[0]).toEqual({ id: expect.any(Number), name: 'alpha', color: expect.stringMatching(/^#/), description: null, description_html: '', text_color: expect.any(String), remove_on_close: false, archived: false });
  });

  it('all issues across projects (scope=all) present the issue of a project not named by the route', async () => {
    const page = await kiln.apiAs(owner, 'GET', '/issues?scope=all&state=all');
    const shown = page.find((issue: any) => issue.id === busy.id);
    expectBusy(shown);
    expect(shown.references.full).toBe(`${project.path_with_namespace}#${busy.iid}`);
  });

  it('someone who cannot see the project gets 404, not the issue', async () => {
    const stranger = await kiln.createUser('stranger');
    expect((await kiln.api('GET', `/projects/${project.id}/issues/${busy.iid}`, { token: stranger.token })).status).toBe(404);
  });
});
