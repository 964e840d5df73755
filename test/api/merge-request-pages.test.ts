// The merge request pages (issue 34): the list with tabs, counts and filters; the new merge request
// form; one merge request with its tabs and the forms that act on it, each asking the ability GitLab
// asks. Through inject with a browser-like session (CSRF tokens as a browser sends them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let guest: TestUser;
let reporter: TestUser;
let stranger: TestUser;
let project: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('dev');
  guest = await kiln.createUser('guest');
  reporter = await kiln.createUser('reporter');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'shop');
  await kiln.addMember(owner, 'projects', project.id, developer, 30);
  await kiln.addMember(owner, 'projects', project.id, guest, 10);
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
  await seedRepository(kiln, owner, project.id);
  await branchWith(kiln, developer, project.id, 'feature-one', [create('one.txt', 'one\n')], 'Add one');
  await branchWith(kiln, developer, project.id, 'feature-two', [create('two.txt', 'two\n')], 'Add two');
  await branchWith(kiln, developer, project.id, 'feature-three', [create('three.txt', 'three\n')], 'Add three');
  await openMergeRequest(kiln, developer, project.id, { source_branch: 'feature-one', title: 'First <b>change</b>' });
  const second = await openMergeRequest(kiln, owner, project.id, { source_branch: 'feature-two', title: 'Draft: second change' });
  await kiln.api('PUT', `/projects/${project.id}/merge_requests/${second.iid}`, { token: owner.token, body: { state_event: 'close' } });
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('GET /:project/-/merge_requests', () => {
  it('lists open merge requests with the counts of every tab, titles escaped, and the sidebar count', async () => {
    const response = await (await signedIn(reporter)).get('/owner/shop/-/merge_requests');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('First &lt;b&gt;change&lt;/b&gt;');
    expect(response.body).not.toContain('second change');
    expect(response.body).toMatch(/data-tab="opened"[^>]*>Open <span class="badge">1</);
    expect(response.body).toMatch(/data-tab="closed"[^>]*>Closed <span class="badge">1</);
    expect(response.body).toMatch(/data-tab="all"[^>]*>All <span class="badge">2</);
    expect(response.body).toMatch(/Merge requests <span class="badge" data-count="1">1</);
    // A Reporter reads but does not open merge requests.
    expect(response.body).not.toContain('id="new-merge-request"');
  });

  it('filters by author, searches and sorts', async () => {
    const web = await signedIn(developer);
    const byOwner = await web.get('/owner/shop/-/merge_requests?state=all&author_username=owner');
    expect(byOwner.body).toContain('second change');
    expect(byOwner.body).not.toContain('First &lt;b&gt;');
    const found = await web.get('/owner/shop/-/merge_requests?state=all&search=First');
    expect(found.body).toContain('First &lt;b&gt;');
    expect(found.body).not.toContain('second change');
    const oldest = await web.get('/owner/shop/-/merge_requests?state=all&sort=created_asc');
    expect(oldest.body.indexOf('First &lt;b&gt;')).toBeLessThan(oldest.body.indexOf('second change'));
    expect(oldest.body).toContain('id="new-merge-request"');
  });

  it('is refused to Guests of a private project (Reporters read merge requests) and 404 to strangers', async () => {
    expect((await (await signedIn(guest)).get('/owner/shop/-/merge_requests')).statusCode).toBe(403);
    expect((await (await signedIn(stranger)).get('/owner/shop/-/merge_requests')).statusCode).toBe(404);
    expect((await new WebSession(kiln).get('/owner/shop/-/merge_requests')).statusCode).not.toBe(200);
  });
});
