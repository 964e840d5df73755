// The merge request pages (issue 34): the list with tabs, counts and filters; the new merge request
// form; one merge request with its tabs and the forms that act on it, each asking the ability GitLab
// asks. Through inject with a browser-like session (CSRF tokens as a browser sends them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession, csrfTokenOf } from '../helpers/browser-session.js';
import { toggleNoteReaction } from '../helpers/note-reactions.js';
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
}, 120_000);
afterAll(() => kiln?.close());

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

// The diff view highlights code in a worker: its first start is slow on a loaded machine.
describe('a merge request from the pages', { timeout: 60_000 }, () => {
  it('opens one from two branches with the only commit as the default title, then shows it', async () => {
    const web = await signedIn(developer);
    const form = await web.get('/owner/shop/-/merge_requests/new?merge_request%5Bsource_branch%5D=feature-three&merge_request%5Btarget_branch%5D=main');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('value="Add three"');
    expect(form.body).toContain('three.txt');
    const created = await web.post('/owner/shop/-/merge_requests/new', { source_branch: 'feature-three', target_branch: 'main', title: 'Add three', description: 'Adds **three**', draft: '1', assignees: 'dev', reviewers: 'owner', labels: 'backend, ui' }, { csrfFrom: '/owner/shop/-/merge_requests/new?merge_request%5Bsource_branch%5D=feature-three' });
    expect(created.statusCode).toBe(303);
    const location = created.headers.location as string;
    expect(location).toMatch(/\/owner\/shop\/-\/merge_requests\/3$/);
    const api = await kiln.api('GET', `/projects/${project.id}/merge_requests/3`, { token: owner.token });
    expect(api.body).toMatchObject({ title: 'Draft: Add three', draft: true, labels: ['backend', 'ui'], assignees: [{ username: 'dev' }], reviewers: [{ username: 'owner' }] });
    const shown = await web.get(location);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<strong>three</strong>');
    expect(shown.body).toContain('id="draft-badge"');
    // A second one for the same branches is refused with GitLab's sentence.
    const again = await web.post('/owner/shop/-/merge_requests/new', { source_branch: 'feature-three', target_branch: 'main', title: 'Again' }, { csrfFrom: location });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('Another open merge request already exists for this source branch: !3');
  });

  it('marks ready, comments, starts a diff thread, resolves it, approves and merges', async () => {
    const web = await signedIn(owner);
    const self = '/owner/shop/-/merge_requests/3';
    expect((await web.post(`${self}/state`, { event: 'ready' }, { csrfFrom: self })).statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${project.id}/merge_requests/3`, { token: owner.token })).body.draft).toBe(false);
    const changes = await web.get(`${self}/diffs`);
    expect(changes.statusCode).toBe(200);
    const formUrl = /hx-get="([^"]*diff_note_form[^"]*)"/.exec(changes.body)![1].replace(/&amp;/g, '&');
    const noteForm = await web.get(formUrl);
    expect(noteForm.statusCode).toBe(200);
    const fields = Object.fromEntries([...noteForm.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1], match[2]]));
    expect(fields.position_new_line).toBe('1');
    const posted = await web.post(`${self}/notes`, { ...fields, note: 'Why **three**?' }, { csrfFrom: self });
    expect(posted.statusCode).toBe(303);
    const discussions = await kiln.api('GET', `/projects/${project.id}/merge_requests/3/discussions`, { token: owner.token });
    const thread = discussions.body.find((discussion: any) => discussion.notes[0].type === 'DiffNote');
    expect(thread.notes[0].position).toMatchObject({ new_path: 'three.txt', new_line: 1 });
    const withThread = await web.get(`${self}/diffs`);
    expect(withThread.body).toContain('Why <strong>three</strong>?');
    expect((await web.post(`${self}/notes`, { discussion_id: thread.id, note: 'Because.' }, { csrfFrom: self })).statusCode).toBe(303);
    expect((await web.post(`${self}/discussions/${thread.id}/resolve`, { resolved: '1' }, { csrfFrom: self })).statusCode).toBe(303);
    const after = await kiln.api('GET', `/projects/${project.id}/merge_requests/3/discussions/${thread.id}`, { token: owner.token });
    expect(after.body.notes.map((note: any) => [note.body, note.resolved])).toEqual([['Why **three**?', true], ['Because.', true]]);
    expect((await web.post(`${self}/approve`, {}, { csrfFrom: self })).statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${project.id}/merge_requests/3/approvals`, { token: owner.token })).body.approved_by).toMatchObject([{ user: { username: 'owner' } }]);
    // The mergeability check runs in the background: wait for its answer.
    await kiln.worker.drain();
    const widget = (await web.get(`${self}/widget`)).body;
    expect(widget).toContain('Ready to merge!');
    const sha = /name="sha" value="([0-9a-f]{40})"/.exec(widget)![1];
    const merged = await web.post(`${self}/merge`, { sha, squash: '1', should_remove_source_branch: '1' }, { csrfFrom: self });
    expect(merged.statusCode).toBe(303);
    const api = await kiln.api('GET', `/projects/${project.id}/merge_requests/3`, { token: owner.token });
    expect(api.body).toMatchObject({ state: 'merged', merged_by: { username: 'owner' } });
    expect(api.body.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect((await kiln.api('GET', `/projects/${project.id}/repository/branches/feature-three`, { token: owner.token })).status).toBe(404);
    expect((await web.get(self)).body).toContain('data-status="merged"');
  });

  it('shows a long diff a page of files at a time, the changed files list linking to each file\'s page', async () => {
    await branchWith(kiln, developer, project.id, 'feature-wide', Array.from({ length: 25 }, (_, index) => create(`wide/file-${String(index).padStart(2, '0')}.txt`, `line ${index}\n`)), 'Add 25 files');
    const mr = await openMergeRequest(kiln, developer, project.id, { source_branch: 'feature-wide', title: 'Wide change' });
    const web = await signedIn(developer);
    const self = `/owner/shop/-/merge_requests/${mr.iid}`;
    const sections = (body: string) => [...body.matchAll(/<section class="diff-file"[^>]*data-path="([^"]+)"/g)].map((match) => match[1]);
    const first = await web.get(`${self}/diffs`);
    expect(first.statusCode).toBe(200);
    expect(sections(first.body)).toEqual(Array.from({ length: 20 }, (_, index) => `wide/file-${String(index).padStart(2, '0')}.txt`));
    expect(first.body).toContain('25 changed files');
    expect(first.body).toContain('Files 1–20 of 25');
    expect(first.body).toContain(`href="${self}/diffs?page=2" rel="next"`);
    // Every file is in the list; those of another page link there.
    expect(first.body).toMatch(new RegExp(`<a href="${self}/diffs\\?page=2#file-[0-9a-f]{40}">wide/file-24.txt</a>`));
    const second = await web.get(`${self}/diffs?page=2&view=parallel`);
    expect(sections(second.body)).toEqual(['wide/file-20.txt', 'wide/file-21.txt', 'wide/file-22.txt', 'wide/file-23.txt', 'wide/file-24.txt']);
    expect(second.body).toContain('Files 21–25 of 25');
    expect(second.body).toContain(`href="${self}/diffs?page=1&amp;view=parallel" rel="prev"`);
    // Past the last page: the last page.
    expect(sections((await web.get(`${self}/diffs?page=99`)).body)).toHaveLength(5);
    expect(sections((await web.get(`${self}/diffs?page=abc`)).body)).toHaveLength(20);
  });

  it('refuses merging to a Reporter, writes without a CSRF token, and every page to strangers', async () => {
    const self = '/owner/shop/-/merge_requests/1';
    const web = await signedIn(reporter);
    const page = await web.get(self);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('id="merge-button"');
    expect((await web.post(`${self}/merge`, {}, { csrfFrom: self })).statusCode).toBe(403);
    expect((await web.post(`${self}/state`, { event: 'close' }, { csrfFrom: self })).statusCode).toBe(403);
    expect((await web.post(`${self}/approve`, {}, { csrfFrom: self })).statusCode).toBe(403);
    expect((await kiln.api('GET', `/projects/${project.id}/merge_requests/1`, { token: owner.token })).body.state).toBe('opened');
    const dev = await signedIn(developer);
    expect((await dev.post(`${self}/state`, { event: 'close', authenticity_token: 'forged' })).statusCode).toBe(422);
    expect((await kiln.api('GET', `/projects/${project.id}/merge_requests/1`, { token: owner.token })).body.state).toBe('opened');
    const outsider = await signedIn(stranger);
    for (const path of [self, `${self}/commits`, `${self}/diffs`, '/owner/shop/-/merge_requests/new']) expect((await outsider.get(path)).statusCode).toBe(404);
    expect((await outsider.post(`${self}/notes`, { note: 'hi' }, { csrfFrom: '/' })).statusCode).toBe(404);
  });

  it('shows award emoji and toggles the viewer\'s own, with htmx in place; a Reporter awards, a stranger cannot', async () => {
    const self = '/owner/shop/-/merge_requests/1';
    const web = await signedIn(reporter);
    const page = (await web.get(self)).body;
    expect(page).toMatch(/<button type="submit" class="award secondary small" aria-pressed="false" aria-label="thumbsup: 0"/);
    expect((await web.post(`${self}/award`, { name: 'thumbsup' }, { csrfFrom: self })).statusCode).toBe(303);
    const mr = () => kiln.api('GET', `/projects/${project.id}/merge_requests/1`, { token: owner.token }).then((response) => response.body);
    expect((await mr()).upvotes).toBe(1);
    expect((await web.get(self)).body).toContain('aria-pressed="true" aria-label="thumbsup: 1, yours" title="You"');
    // htmx: the block alone comes back, the award taken back.
    const token = csrfTokenOf((await web.get(self)).body);
    const swapped = await kiln.app.inject({ method: 'POST', url: `${self}/award`, headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded', 'hx-request': 'true' }, payload: new URLSearchParams({ authenticity_token: token, name: 'thumbsup' }).toString() });
    expect(swapped.statusCode).toBe(200);
    expect(swapped.body).toMatch(/^<div class="awards actions" id="awards-merge-request-\d+"/);
    expect(swapped.body).toContain('aria-label="thumbsup: 0"');
    expect((await mr()).upvotes).toBe(0);
    expect((await web.post(`${self}/award`, { name: 'not-an-emoji' }, { csrfFrom: self })).statusCode).toBe(303);
    const awards = await kiln.api('GET', `/projects/${project.id}/merge_requests/1/award_emoji`, { token: owner.token });
    expect(awards.body).toEqual([]);
    expect((await (await signedIn(stranger)).post(`${self}/award`, { name: 'thumbsup' }, { csrfFrom: '/' })).statusCode).toBe(404);
    // A Guest of this private project reads no merge requests, so awards none.
    expect((await (await signedIn(guest)).post(`${self}/award`, { name: 'thumbsup' }, { csrfFrom: '/' })).statusCode).toBe(403);
  });

  it('gives each comment its reactions: awarded from the picker, toggled in place, 404 for a note that is not its own', async () => {
    const self = '/owner/shop/-/merge_requests/1';
    const note = (await kiln.api('POST', `/projects/${project.id}/merge_requests/1/notes`, { token: owner.token, body: { body: 'Looks right' } })).body;
    const web = await signedIn(reporter);
    const awarded = () => kiln.api('GET', `/projects/${project.id}/merge_requests/1/notes/${note.id}/award_emoji`, { token: owner.token }).then((response) => response.body.map((entry: any) => entry.name));
    await toggleNoteReaction(kiln, web, self, note.id, awarded);
    // A note of another merge request is not this one's to award.
    expect((await web.post(`${self}/notes/999999/award`, { name: 'rocket' }, { csrfFrom: self })).statusCode).toBe(404);
  });
});
