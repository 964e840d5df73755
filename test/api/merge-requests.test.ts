// The merge request API (issue 34): opening, reading, listing with GitLab's filters, changing,
// closing, reopening and deleting merge requests, with GitLab's errors, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository, update } from './merge-requests-helpers.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let w: RepositoryWorld;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  await branchWith(kiln, w.developer, w.project.id, 'feature', [create('feature.txt', 'one\n')]);
  await branchWith(kiln, w.developer, w.project.id, 'other', [create('other.txt', 'two\n')]);
});

afterAll(async () => {
  await kiln?.close();
});

describe('POST /projects/:id/merge_requests', () => {
  it('as a Developer opens a merge request with the next iid, its first version and GitLab fields', async () => {
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'feature', title: 'Draft: Add feature', description: '- [x] done\n- [ ] todo', labels: 'backend,ui', assignee_ids: [w.maintainer.id], reviewer_ids: [w.owner.id] });
    expect(mr).toMatchObject({
      iid: 1, project_id: w.project.id, source_project_id: w.project.id, target_project_id: w.project.id, state: 'opened',
      source_branch: 'feature', target_branch: 'main', draft: true, work_in_progress: true, labels: ['backend', 'ui'],
      author: { username: w.developer.username }, assignee: { username: w.maintainer.username }, reviewers: [{ username: w.owner.username }],
      task_completion_status: { count: 2, completed_count: 1 }, references: { short: '!1', relative: '!1', full: `${w.group.path}/app!1` },
      web_url: `http://kiln.test/${w.group.path}/app/-/merge_requests/1`, has_conflicts: false, blocking_discussions_resolved: true,
      changes_count: '1', merge_status: 'unchecked', detailed_merge_status: 'unchecked', force_remove_source_branch: true, squash: false,
      // `main` is protected (the default branch protection): Maintainers merge there, not Developers.
      // The author takes part in it, so is subscribed (GitLab's Subscribable without a row).
      user: { can_merge: false }, subscribed: true, merge_error: null, first_contribution: false,
    });
    expect(mr.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(mr.diff_refs).toEqual({ base_sha: expect.stringMatching(/^[0-9a-f]{40}$/), head_sha: mr.sha, start_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    await kiln.worker.drain();
    const read = await kiln.api('GET', `/projects/${w.project.id}/merge_requests/1`, { token: w.reporter.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ merge_status: 'can_be_merged', detailed_merge_status: 'draft_status', user: { can_merge: false } });
    expect((await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/merge_requests/1`)).user).toEqual({ can_merge: true });
  });

  it('as a Developer opening the same branches again gets GitLab\'s 409', async () => {
    const again = await kiln.api('POST', `/projects/${w.project.id}/merge_requests`, { token: w.developer.token, body: { source_branch: 'feature', target_branch: 'main', title: 'again' } });
    expect(again).toMatchObject({ status: 409, body: { message: ['Another open merge request already exists for this source branch: !1'] } });
  });

  it('refuses missing and equal branches with 422 and missing parameters with 400', async () => {
    const missing = await kiln.api('POST', `/projects/${w.project.id}/merge_requests`, { token: w.developer.token, body: { source_branch: 'nope', target_branch: 'gone', title: 'x' } });
    expect(missing).toMatchObject({ status: 422, body: { message: ['Source branch "nope" does not exist', 'Target branch "gone" does not exist'] } });
    const same = await kiln.api('POST', `/projects/${w.project.id}/merge_requests`, { token: w.developer.token, body: { source_branch: 'main', target_branch: 'main', title: 'x' } });
    expect(same).toMatchObject({ status: 422, body: { message: ["You can't use same project/branch for source and target"] } });
    const bare = await kiln.api('POST', `/projects/${w.project.id}/merge_requests`, { token: w.developer.token, body: {} });
    expect(bare).toMatchObject({ status: 400, body: { error: 'title is missing, source_branch is missing, target_branch is missing' } });
    const typed = await kiln.api('POST', `/projects/${w.project.id}/merge_requests`, { token: w.developer.token, body: { source_branch: 'other', target_branch: 'main', title: 'x', assignee_ids: 'abc', squash: 'maybe' } });
    expect(typed).toMatchObject({ status: 400, body: { error: 'assignee_ids is invalid, squash is invalid' } });
  });

  it('as a Reporter is 403, as a stranger 404', async () => {
    const body = { source_branch: 'other', target_branch: 'main', title: 'x' };
    expect((await kiln.api('POST', `/projects/${w.project.id}/merge_requests`, { token: w.reporter.token, body })).status).toBe(403);
    expect((await kiln.api('POST', `/projects/${w.project.id}/merge_requests`, { token: w.stranger.token, body })).status).toBe(404);
  });
});

describe('PUT /projects/:id/merge_requests/:merge_request_iid', () => {
  it('as a Developer marks it ready, relabels, reassigns, closes and reopens it, with system notes', async () => {
    const ready = await kiln.apiAs(w.developer, 'PUT', `/projects/${w.project.id}/merge_requests/1`, { title: 'Add feature', add_labels: 'docs', remove_labels: 'ui', assignee_ids: [] });
    expect(ready).toMatchObject({ title: 'Add feature', draft: false, labels: ['backend', 'docs'], assignees: [] });
    const closed = await kiln.apiAs(w.developer, 'PUT', `/projects/${w.project.id}/merge_requests/1`, { state_event: 'close' });
    expect(closed).toMatchObject({ state: 'closed', closed_by: { username: w.developer.username }, detailed_merge_status: 'not_open' });
    expect(closed.closed_at).not.toBeNull();
    const reopened = await kiln.apiAs(w.developer, 'PUT', `/projects/${w.project.id}/merge_requests/1`, { state_event: 'reopen' });
    expect(reopened).toMatchObject({ state: 'opened', closed_by: null, closed_at: null });
    const notes = await kiln.deps.db.selectFrom('notes').select('body').where('noteable_type', '=', 'MergeRequest').where('system', '=', 1).orderBy('id').execute();
    expect(notes.map((note: { body: string }) => note.body)).toEqual(['marked this merge request as **ready**', `unassigned @${w.maintainer.username}`]);
    const events = await kiln.api('GET', `/projects/${w.project.id}/events`, { token: w.owner.token, query: { target_type: 'merge_request' } });
    expect(events.body.map((event: any) => event.action_name)).toEqual(['opened', 'closed', 'opened']);
  });

  it('needs at least one parameter, and refuses a blank title', async () => {
    const none = await kiln.api('PUT', `/projects/${w.project.id}/merge_requests/1`, { token: w.developer.token, body: {} });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/are missing, at least one parameter must be provided$/);
    expect(await kiln.api('PUT', `/projects/${w.project.id}/merge_requests/1`, { token: w.developer.token, body: { title: ' ' } })).toMatchObject({ status: 400, body: { error: 'title is empty' } });
  });

  it('retargets onto another branch with a new version and a note, and refuses a missing one', async () => {
    const retargeted = await kiln.apiAs(w.developer, 'PUT', `/projects/${w.project.id}/merge_requests/1`, { target_branch: 'other' });
    expect(retargeted).toMatchObject({ target_branch: 'other', merge_status: 'unchecked' });
    const missing = await kiln.api('PUT', `/projects/${w.project.id}/merge_requests/1`, { token: w.developer.token, body: { target_branch: 'gone' } });
    expect(missing).toMatchObject({ status: 422, body: { message: ['Target branch "gone" does not exist'] } });
    await kiln.apiAs(w.developer, 'PUT', `/projects/${w.project.id}/merge_requests/1`, { target_branch: 'main' });
    const versions = await kiln.deps.db.selectFrom('merge_request_diffs').select('id').execute();
    expect(versions.length).toBe(3);
  });
});

describe('GET /projects/:id/merge_requests and the other lists', () => {
  it('filters by state, labels, not[labels], iids, wip, source branch and search, and pages', async () => {
    await openMergeRequest(kiln, w.maintainer, w.project.id, { source_branch: 'other', title: 'Other work', labels: 'ui' });
    const list = async (query: Record<string, string | number | boolean>) => (await kiln.api('GET', `/projects/${w.project.id}/merge_requests`, { token: w.reporter.token, query })).body.map((mr: any) => mr.iid);
    expect(await list({})).toEqual([2, 1]);
    expect(await list({ state: 'opened', labels: 'backend' })).toEqual([1]);
    expect(await list({ 'not[labels]': 'backend' })).toEqual([2]);
    expect(await list({ 'iids[]': 2 })).toEqual([2]);
    expect(await list({ wip: 'no', source_branch: 'other' })).toEqual([2]);
    expect(await list({ search: 'OTHER' })).toEqual([2]);
    expect(await list({ author_username: w.developer.username })).toEqual([1]);
    expect(await list({ order_by: 'title', sort: 'asc' })).toEqual([1, 2]);
    const simple = await kiln.api('GET', `/projects/${w.project.id}/merge_requests`, { token: w.reporter.token, query: { view: 'simple', per_page: 1 } });
    expect(Object.keys(simple.body[0]).sort()).toEqual(['created_at', 'description', 'id', 'iid', 'project_id', 'state', 'title', 'updated_at', 'web_url']);
    expect(simple.headers['x-total']).toBe('2');
    const detailed = await kiln.api('GET', `/projects/${w.project.id}/merge_requests`, { token: w.reporter.token, query: { with_labels_details: true, iids: '2' } });
    expect(detailed.body[0].labels[0]).toMatchObject({ name: 'ui', color: expect.any(String) });
    expect((await kiln.api('GET', `/projects/${w.project.id}/merge_requests`, { token: w.reporter.token, query: { state: 'nope' } })).status).toBe(400);
  });

  it('GET /merge_requests lists the caller\'s own by default and everything readable with scope=all', async () => {
    const mine = await kiln.api('GET', '/merge_requests', { token: w.developer.token });
    expect(mine.body.map((mr: any) => mr.references.relative)).toEqual([`${w.group.path}/app!1`]);
    const all = await kiln.api('GET', '/merge_requests', { token: w.stranger.token, query: { scope: 'all' } });
    expect(all.body).toEqual([]);
    expect((await kiln.api('GET', '/merge_requests')).status).toBe(401);
    const reviews = await kiln.api('GET', '/merge_requests', { token: w.owner.token, query: { scope: 'reviews_for_me' } });
    expect(reviews.body.map((mr: any) => mr.iid)).toEqual([1]);
  });

  it('GET /groups/:id/merge_requests lists the group\'s projects\' merge requests', async () => {
    const group = await kiln.api('GET', `/groups/${w.group.id}/merge_requests`, { token: w.owner.token, query: { state: 'opened' } });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    expect(group.body.map((mr: any) => mr.iid)).toEqual([2, 1]);
    expect((await kiln.api('GET', `/groups/${w.group.id}/merge_requests`, { token: w.stranger.token })).status).toBe(404);
  });

  it('GET /projects/:id/repository/commits/:sha/merge_requests finds the merge request of a head', async () => {
    const mr = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/2`);
    const found = await kiln.api('GET', `/projects/${w.project.id}/repository/commits/${mr.sha}/merge_requests`, { token: w.reporter.token });
    expect(found.body.map((item: any) => item.iid)).toEqual([2]);
  });
});

describe('mergeability', () => {
  it('a conflicting merge request reports cannot_be_merged, has_conflicts and detailed_merge_status conflict', async () => {
    await branchWith(kiln, w.developer, w.project.id, 'clash', [update('README.md', 'mine\n')]);
    await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/repository/commits`, { branch: 'main', commit_message: 'theirs', actions: [update('README.md', 'theirs\n')] });
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'clash', title: 'Clash' });
    await kiln.worker.drain();
    const read = await kiln.apiAs(w.developer, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}`);
    expect(read).toMatchObject({ merge_status: 'cannot_be_merged', has_conflicts: true, detailed_merge_status: 'conflict' });
    // The merge widget names the conflicting files (the clean one is not among them).
    await branchWith(kiln, w.developer, w.project.id, 'clash', [create('clean.txt', 'fine\n')]);
    await kiln.worker.drain();
    const web = new WebSession(kiln);
    await web.signIn(w.reporter.username, w.reporter.password);
    const widget = (await web.get(`/${w.project.path_with_namespace}/-/merge_requests/${mr.iid}/widget`)).body;
    expect(widget).toContain('data-status="conflict"');
    expect(widget).toContain('<div id="conflicts"><p>Conflicts in 1 file:</p><ul><li><code>README.md</code></li></ul></div>');
  });
});

describe('system notes and time tracking', () => {
  it('notes a changed title and description, a review request, an approval and its withdrawal, as GitLab words them', async () => {
    await branchWith(kiln, w.developer, w.project.id, 'notes-topic', [create('notes.txt', 'n\n')]);
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'notes-topic', title: 'Tidy the cart', description: 'first' });
    const base = `/projects/${w.project.id}/merge_requests/${mr.iid}`;
    await kiln.apiAs(w.developer, 'PUT', base, { title: 'Tidy the basket' });
    await kiln.apiAs(w.developer, 'PUT', base, { description: 'second' });
    await kiln.apiAs(w.developer, 'PUT', base, { reviewer_ids: [w.maintainer.id] });
    await kiln.apiAs(w.maintainer, 'POST', `${base}/approve`);
    await kiln.apiAs(w.maintainer, 'POST', `${base}/unapprove`);
    const notes = (await kiln.apiAs(w.reporter, 'GET', `${base}/notes?sort=asc`)).filter((note: any) => note.system);
    expect(notes.map((note: any) => [note.author.username, note.body])).toEqual([
      [w.developer.username, 'changed title from **Tidy the cart** to **Tidy the basket**'],
      [w.developer.username, 'changed the description'],
      [w.developer.username, `requested review from @${w.maintainer.username}`],
      [w.maintainer.username, 'approved this merge request'],
      [w.maintainer.username, 'unapproved this merge request'],
    ]);
    expect(notes.every((note: any) => note.noteable_type === 'MergeRequest' && note.noteable_iid === mr.iid)).toBe(true);
  });

  it('answers time_stats as GitLab returns them for a merge request without tracked time', async () => {
    const [mr] = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests?source_branch=notes-topic`);
    expect(mr.time_stats).toEqual({ time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null });
    const one = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}`);
    expect(one.time_stats).toEqual(mr.time_stats);
  });

  it('sets and resets the time estimate in GitLab\'s units (1w = 5d, 1d = 8h, a bare number is hours), with system notes', async () => {
    const [mr] = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests?source_branch=notes-topic`);
    const base = `/projects/${w.project.id}/merge_requests/${mr.iid}`;
    const estimate = (duration: unknown, user = w.developer) => kiln.api('POST', `${base}/time_estimate`, { token: user.token, body: { duration } });
    expect(await estimate('1w 2d 3h 30m')).toMatchObject({ status: 200, body: { time_estimate: (40 + 16 + 3.5) * 3600, total_time_spent: 0, human_time_estimate: '1w 2d 3h 30m', human_total_time_spent: null } });
    expect((await estimate('3')).body).toMatchObject({ time_estimate: 3 * 3600, human_time_estimate: '3h' });
    expect((await kiln.apiAs(w.reporter, 'GET', `${base}/time_stats`))).toMatchObject({ time_estimate: 3 * 3600, human_time_estimate: '3h' });
    expect((await kiln.apiAs(w.reporter, 'GET', base)).time_stats.human_time_estimate).toBe('3h');
    for (const bad of ['soon', '-1h', '3 parsecs', '']) {
      expect(await estimate(bad), bad).toMatchObject({ status: 400 });
    }
    expect((await estimate('soon')).body).toEqual({ message: { time_estimate: ['must have a valid format and be greater than or equal to zero.'] } });
    expect((await kiln.api('POST', `${base}/time_estimate`, { token: w.developer.token, body: {} })).body).toEqual({ error: 'duration is missing' });
    expect((await estimate('1h', w.reporter)).status).toBe(403);
    expect(await kiln.api('POST', `${base}/reset_time_estimate`, { token: w.developer.token })).toMatchObject({ status: 200, body: { time_estimate: 0, human_time_estimate: null } });
    const notes = (await kiln.apiAs(w.reporter, 'GET', `${base}/notes?sort=asc`)).filter((note: any) => note.system).map((note: any) => note.body);
    expect(notes.slice(-3)).toEqual(['changed time estimate to 1w 2d 3h 30m', 'changed time estimate to 3h', 'removed time estimate']);
  });
});

describe('DELETE /projects/:id/merge_requests/:merge_request_iid', () => {
  it('as a Maintainer is 403; as the Owner deletes it with its notes and refs', async () => {
    expect((await kiln.api('DELETE', `/projects/${w.project.id}/merge_requests/1`, { token: w.maintainer.token })).status).toBe(403);
    expect((await kiln.api('DELETE', `/projects/${w.project.id}/merge_requests/1`, { token: w.owner.token })).status).toBe(204);
    expect(await kiln.api('GET', `/projects/${w.project.id}/merge_requests/1`, { token: w.owner.token })).toMatchObject({ status: 404, body: { message: '404 Merge Request Not Found' } });
    expect(await kiln.deps.db.selectFrom('notes').select('id').where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', 1).execute()).toEqual([]);
  });
});
