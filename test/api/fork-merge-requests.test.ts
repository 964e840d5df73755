// Merge requests from a fork that write to the fork (issue 34): `allow_collaboration` lets the
// upstream's maintainers push to the fork's source branch with real git over HTTP (and nothing else
// of the fork), the server rebase replays the fork's branch in the fork's repository, and
// `should_remove_source_branch` deletes the fork's branch after the merge when the merger may.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let work: string;
let base: string;
/** The developer's fork of the upstream (the developer owns it; the upstream's maintainer is no member). */
let fork: any;
const { run: gitRun, ok } = gitCommands(() => work);

const branchOf = async (projectId: number, branch: string) => kiln.api('GET', `/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`, { token: w.developer.token });

async function openFromFork(branch: string, allowCollaboration: boolean): Promise<{ iid: number; path: string }> {
  await branchWith(kiln, w.developer, fork.id, branch, [create(`${branch}.txt`, `${branch}\n`)], `Work on ${branch}`);
  const opened = await kiln.api('POST', `/projects/${fork.id}/merge_requests`, {
    token: w.developer.token,
    body: { source_branch: branch, target_branch: 'main', target_project_id: w.project.id, title: `From the fork: ${branch}`, allow_collaboration: allowCollaboration },
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  await kiln.worker.drain();
  return { iid: opened.body.iid, path: `/projects/${w.project.id}/merge_requests/${opened.body.iid}` };
}

/** A clone of the fork as `user` over HTTP, with one new commit on `branch`; git's result of pushing it. */
async function pushToFork(user: TestUser, branch: string, pushAs = branch) {
  const dir = mkdtempSync(join(work, 'clone-'));
  await ok(['clone', '-q', '--branch', branch, `${base.replace('http://', `http://${user.username}:${user.token}@`)}/${fork.path_with_namespace}.git`, dir]);
  writeFileSync(join(dir, `${user.username}-${pushAs}.txt`), 'pushed\n');
  await ok(['add', '.'], dir);
  await ok(['commit', '-q', '-m', `Pushed by ${user.username}`], dir);
  return gitRun(['push', 'origin', `HEAD:refs/heads/${pushAs}`], dir);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-fork-mrs-'));
  kiln = await testKiln();
  base = await listenOnLoopback(kiln.app);
  // Collaboration needs both projects visible beyond their members (GitLab's collaborative_push_possible?).
  w = await repositoryWorld(kiln, { visibility: 'public' });
  await seedRepository(kiln, w.owner, w.project.id);
  const forked = await kiln.api('POST', `/projects/${w.project.id}/fork`, { token: w.developer.token });
  expect(forked.status, JSON.stringify(forked.body)).toBe(201);
  fork = forked.body;
}, 120_000);

afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('allow_collaboration: git push into the fork by an upstream maintainer', { timeout: 120_000 }, () => {
  it('accepts a push to the source branch of a merge request that allows it, and shows allow_maintainer_to_push', async () => {
    const mr = await openFromFork('collab', true);
    expect((await kiln.api('GET', mr.path, { token: w.maintainer.token })).body).toMatchObject({ allow_collaboration: true, allow_maintainer_to_push: true });
    const pushed = await pushToFork(w.maintainer, 'collab');
    expect(pushed.code, pushed.stderr).toBe(0);
    await kiln.worker.drain();
    expect((await kiln.api('GET', `${mr.path}/versions`, { token: w.maintainer.token })).body).toHaveLength(2);
  });

  it('refuses other branches of the fork, and everything to a user who may not merge upstream', async () => {
    await openFromFork('collab-only', true);
    const other = await pushToFork(w.maintainer, 'collab-only', 'elsewhere');
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain('You are not allowed to push code to this project.');
    expect((await branchOf(fork.id, 'elsewhere')).status).toBe(404);
    // A Reporter upstream may not merge into main: no collaboration for them.
    const reporter = await pushToFork(w.reporter, 'collab-only');
    expect(reporter.code).not.toBe(0);
    expect(reporter.stderr).toContain('You are not allowed to push code to this project.');
  });

  it('shows allow_collaboration false while the fork\'s source branch is protected, in the entity and the list', async () => {
    const mr = await openFromFork('guarded', true);
    const guard = await kiln.api('POST', `/projects/${fork.id}/protected_branches`, { token: w.developer.token, body: { name: 'guard*' } });
    expect(guard.status, JSON.stringify(guard.body)).toBe(201);
    expect((await kiln.api('GET', mr.path, { token: w.maintainer.token })).body).toMatchObject({ allow_collaboration: false, allow_maintainer_to_push: false });
    const listed = (await kiln.api('GET', `/projects/${w.project.id}/merge_requests?source_branch=guarded`, { token: w.maintainer.token })).body;
    expect(listed).toMatchObject([{ iid: mr.iid, allow_collaboration: false }]);
    expect((await kiln.api('DELETE', `/projects/${fork.id}/protected_branches/${encodeURIComponent('guard*')}`, { token: w.developer.token })).status).toBe(204);
    expect((await kiln.api('GET', mr.path, { token: w.maintainer.token })).body).toMatchObject({ allow_collaboration: true, allow_maintainer_to_push: true });
  });

  it('refuses the maintainer once the merge request no longer allows it', async () => {
    const mr = await openFromFork('withdrawn', true);
    const updated = await kiln.api('PUT', mr.path, { token: w.developer.token, body: { allow_maintainer_to_push: false } });
    expect(updated.body.allow_collaboration).toBe(false);
    const refused = await pushToFork(w.maintainer, 'withdrawn');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('You are not allowed to push code to this project.');
  });
});

describe('PUT /projects/:id/merge_requests/:iid/rebase from a fork', { timeout: 120_000 }, () => {
  it('replays the fork\'s branch onto the upstream in the fork\'s repository, by the author or a collaborating maintainer', async () => {
    const mr = await openFromFork('to-rebase', true);
    await branchWith(kiln, w.owner, w.project.id, 'main', [create('upstream.txt', 'upstream\n')], 'Upstream moved');
    const upstreamHead = (await branchOf(w.project.id, 'main')).body.commit.id;
    const started = await kiln.api('PUT', `${mr.path}/rebase`, { token: w.maintainer.token });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await kiln.worker.drain();
    const rebased = (await branchOf(fork.id, 'to-rebase')).body.commit;
    expect(rebased.parent_ids).toEqual([upstreamHead]);
    expect(rebased.title).toBe('Work on to-rebase');
    const shown = (await kiln.api('GET', mr.path, { token: w.maintainer.token, query: { include_rebase_in_progress: true } })).body;
    expect(shown).toMatchObject({ sha: rebased.id, rebase_in_progress: false, merge_error: null });
    // The upstream got no branch of that name: only the fork's moved.
    expect((await branchOf(w.project.id, 'to-rebase')).status).toBe(404);
    expect((await kiln.api('PUT', `${mr.path}/rebase`, { token: w.developer.token })).status).toBe(202);
  });

  it('is 403 to an upstream maintainer when the merge request does not allow collaboration', async () => {
    const mr = await openFromFork('closed-to-others', false);
    const refused = await kiln.api('PUT', `${mr.path}/rebase`, { token: w.maintainer.token });
    expect(refused).toMatchObject({ status: 403, body: { message: '403 Forbidden - Cannot push to source branch' } });
  });
});

describe('PUT /projects/:id/merge_requests/:iid/merge with should_remove_source_branch from a fork', { timeout: 120_000 }, () => {
  it('deletes the fork\'s branch when the merger may write to it (collaboration), with the system note', async () => {
    const mr = await openFromFork('merged-away', true);
    const merged = await kiln.api('PUT', `${mr.path}/merge`, { token: w.maintainer.token, body: { should_remove_source_branch: true } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect((await branchOf(fork.id, 'merged-away')).status).toBe(404);
    const notes = (await kiln.api('GET', `${mr.path}/notes`, { token: w.maintainer.token })).body.map((note: any) => note.body);
    expect(notes).toContain('deleted source branch `merged-away`');
  });

  it('keeps the fork\'s branch when the merger may not write to the fork', async () => {
    const mr = await openFromFork('kept', false);
    const merged = await kiln.api('PUT', `${mr.path}/merge`, { token: w.maintainer.token, body: { should_remove_source_branch: true } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect((await branchOf(fork.id, 'kept')).status).toBe(200);
  });

  it('deletes it for the fork\'s owner merging with force_remove_source_branch set', async () => {
    // The fork's owner becomes a Maintainer upstream, so may merge into the protected main.
    expect((await kiln.api('PUT', `/projects/${w.project.id}/members/${w.developer.id}`, { token: w.owner.token, body: { access_level: 40 } })).status).toBe(200);
    const mr = await openFromFork('forced', false);
    await kiln.api('PUT', mr.path, { token: w.developer.token, body: { remove_source_branch: true } });
    const merged = await kiln.api('PUT', `${mr.path}/merge`, { token: w.developer.token });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.force_remove_source_branch).toBe(true);
    expect((await branchOf(fork.id, 'forced')).status).toBe(404);
  });
});

describe('the pages of a fork', { timeout: 120_000 }, () => {
  const newPage = (query: Record<string, string>) => `/${fork.path_with_namespace}/-/merge_requests/new?${new URLSearchParams(query).toString()}`;

  it('says "Forked from" the upstream on the fork\'s overview', async () => {
    const web = new WebSession(kiln);
    await web.signIn(w.developer.username, w.developer.password);
    const overview = await web.get(`/${fork.path_with_namespace}`);
    expect(overview.body).toContain(`<p class="forked-from">Forked from <a href="/${w.project.path_with_namespace}">${w.project.path_with_namespace}</a></p>`);
    expect((await web.get(`/${w.project.path_with_namespace}`)).body).not.toContain('Forked from');
  });

  it('offers the upstream as the target of a new merge request, by default, and opens it there', async () => {
    await branchWith(kiln, w.developer, fork.id, 'from-page', [create('page.txt', 'page\n')], 'Change from the page');
    // The upstream gains a commit the fork lacks: the comparison must still work.
    await branchWith(kiln, w.owner, w.project.id, 'main', [create('later.txt', 'later\n')], 'Upstream later');
    const web = new WebSession(kiln);
    await web.signIn(w.developer.username, w.developer.password);
    const picker = await web.get(newPage({}));
    expect(picker.body).toContain(`<option value="${w.project.id}" selected>${w.project.path_with_namespace}</option>`);
    expect(picker.body).toContain(`<option value="${fork.id}">${fork.path_with_namespace}</option>`);
    const form = await web.get(newPage({ 'merge_request[source_branch]': 'from-page' }));
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`into <code>${w.project.path_with_namespace}:main</code>`);
    expect(form.body).toContain(`<input type="hidden" name="target_project_id" value="${w.project.id}">`);
    expect(form.body).toContain('id="mr-allow-collaboration" name="allow_collaboration" value="1" checked');
    expect(form.body).toContain('page.txt');
    expect(form.body).not.toContain('later.txt');
    const created = await web.post(`/${fork.path_with_namespace}/-/merge_requests/new`, { source_branch: 'from-page', target_branch: 'main', target_project_id: String(w.project.id), title: 'From the page', allow_collaboration: '1' }, { csrfFrom: newPage({ 'merge_request[source_branch]': 'from-page' }) });
    expect(created.statusCode, created.body).toBe(303);
    expect(created.headers.location).toMatch(new RegExp(`/${w.project.path_with_namespace}/-/merge_requests/\\d+$`));
    const iid = Number(/(\d+)$/.exec(created.headers.location as string)![1]);
    const api = (await kiln.api('GET', `/projects/${w.project.id}/merge_requests/${iid}`, { token: w.developer.token })).body;
    expect(api).toMatchObject({ title: 'From the page', source_project_id: fork.id, target_project_id: w.project.id, allow_collaboration: true });
  });

  it('targets the fork itself by default when mr_default_target_self is set, and refuses a target outside the network', async () => {
    expect((await kiln.api('PUT', `/projects/${fork.id}`, { token: w.developer.token, body: { mr_default_target_self: true } })).status).toBe(200);
    const web = new WebSession(kiln);
    await web.signIn(w.developer.username, w.developer.password);
    expect((await web.get(newPage({}))).body).toContain(`<option value="${fork.id}" selected>${fork.path_with_namespace}</option>`);
    const form = await web.get(newPage({ 'merge_request[source_branch]': 'from-page' }));
    expect(form.body).toContain('into <code>main</code>');
    expect(form.body).not.toContain('name="target_project_id"');
    // Asked for by id, the upstream is still offered.
    const upstream = await web.get(newPage({ 'merge_request[source_branch]': 'from-page', 'merge_request[target_project_id]': String(w.project.id) }));
    expect(upstream.body).toContain(`into <code>${w.project.path_with_namespace}:main</code>`);
    const other = await kiln.createProject(w.developer, 'unrelated', { visibility: 'public' });
    const refused = await web.post(`/${fork.path_with_namespace}/-/merge_requests/new`, { source_branch: 'from-page', target_branch: 'main', target_project_id: String(other.id), title: 'Nope' }, { csrfFrom: newPage({}) });
    expect(refused.statusCode).toBe(404);
  });
});

describe('collaboration with a private fork', { timeout: 120_000 }, () => {
  it('is not possible: the rebase is 403 to the upstream maintainer, the push refused', async () => {
    const mr = await openFromFork('private-later', true);
    expect((await kiln.api('PUT', `/projects/${fork.id}`, { token: w.developer.token, body: { visibility: 'private' } })).status).toBe(200);
    expect((await kiln.api('PUT', `${mr.path}/rebase`, { token: w.maintainer.token })).status).toBe(403);
    expect((await kiln.api('GET', mr.path, { token: w.maintainer.token })).body).toMatchObject({ allow_collaboration: false, allow_maintainer_to_push: false });
    const clone = await gitRun(['ls-remote', `${base.replace('http://', `http://${w.maintainer.username}:${w.maintainer.token}@`)}/${fork.path_with_namespace}.git`]);
    expect(clone.code).not.toBe(0);
  });
});
