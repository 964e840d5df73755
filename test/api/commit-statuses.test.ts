// Commit statuses (issue 34): POST /projects/:id/statuses/:sha and GET …/repository/commits/:sha/statuses
// with GitLab's transitions and messages, the `external` pipeline they live in, and merge requests
// following their head pipeline (head_pipeline, detailed_merge_status, only_allow_merge_if_pipeline_succeeds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let mainSha: string;

const post = (sha: string, body: Record<string, unknown>, token = w.developer.token) => kiln.api('POST', `/projects/${w.project.id}/statuses/${sha}`, { token, body });
const list = (sha: string, query: Record<string, string> = {}, token = w.reporter.token) => kiln.api('GET', `/projects/${w.project.id}/repository/commits/${sha}/statuses`, { token, query });

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  mainSha = (await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/repository/branches/main`)).commit.id;
});

afterAll(async () => {
  await kiln?.close();
});

describe('POST /projects/:id/statuses/:sha', () => {
  it('creates a status in a new external pipeline, then moves it pending → running → success', async () => {
    const pending = await post(mainSha, { state: 'pending', name: 'build', target_url: 'https://ci.example.com/1', description: 'queued' });
    expect(pending.status, JSON.stringify(pending.body)).toBe(201);
    expect(pending.body).toMatchObject({ sha: mainSha, ref: 'main', status: 'pending', name: 'build', target_url: 'https://ci.example.com/1', description: 'queued', allow_failure: false, coverage: null, started_at: null, finished_at: null, author: { username: w.developer.username } });
    const running = await post(mainSha, { state: 'running', name: 'build' });
    expect(running.body).toMatchObject({ id: pending.body.id, status: 'running', description: 'queued' });
    expect(running.body.started_at).not.toBeNull();
    const done = await post(mainSha, { state: 'success', name: 'build', coverage: 87.5, description: 'all good' });
    expect(done.body).toMatchObject({ id: pending.body.id, status: 'success', coverage: 87.5, description: 'all good', pipeline_id: pending.body.pipeline_id });
    expect(done.body.finished_at).not.toBeNull();
    const pipelines = await kiln.deps.db.selectFrom('ci_pipelines').selectAll().where('project_id', '=', w.project.id).execute();
    expect(pipelines).toHaveLength(1);
    expect(pipelines[0]).toMatchObject({ sha: mainSha, ref: 'main', source: 'external', status: 'success', iid: 1 });
  });

  it("refuses GitLab's illegal transitions with its 400 message", async () => {
    await post(mainSha, { state: 'running', context: 'lint' });
    const again = await post(mainSha, { state: 'running', context: 'lint' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")' });
    await post(mainSha, { state: 'pending', name: 'queue' });
    expect((await post(mainSha, { state: 'pending', name: 'queue' })).body).toEqual({ message: 'Cannot transition status via :enqueue from :pending (Reason(s): Status cannot transition via "enqueue")' });
    // A finished status is not reused: posting again starts a new one, and the old one is retried.
    const first = await post(mainSha, { state: 'failed', name: 'flaky' });
    const second = await post(mainSha, { state: 'pending', name: 'flaky' });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    const latest = await list(mainSha, { name: 'flaky' });
    expect(latest.body.map((status: any) => status.status)).toEqual(['pending']);
    const all = await list(mainSha, { name: 'flaky', all: 'true' });
    expect(all.body.map((status: any) => status.status)).toEqual(['failed', 'pending']);
  });

  it('refuses bad input with a 400 naming it, unknown commits and refs with 404', async () => {
    expect((await post(mainSha, { state: 'done' })).body).toEqual({ error: 'state does not have a valid value' });
    expect((await post(mainSha, {})).body).toEqual({ error: 'state is missing' });
    expect((await post(mainSha, { state: 'success', name: 'x', coverage: 'lots' })).body).toEqual({ error: 'coverage is invalid' });
    expect((await post(mainSha, { state: 'success', name: 'x', coverage: 120 })).body).toEqual({ message: { coverage: ['must be in the range 0..100'] } });
    expect((await post(mainSha, { state: 'success', name: 'x', target_url: 'javascript:alert(1)' })).body).toEqual({ message: { target_url: ['is blocked: Only allowed schemes are http, https'] } });
    expect((await post(mainSha, { state: 'success', name: 'x', target_url: 'not a url' })).body).toEqual({ message: { target_url: ['must be a valid URL'] } });
    expect((await post(mainSha, { state: 'success', name: 'n'.repeat(256) })).body).toEqual({ message: { name: ['is too long (maximum is 255 characters)'] } });
    const unknown = await post('0123456789012345678901234567890123456789', { state: 'success' });
    expect(unknown).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    expect((await post(mainSha, { state: 'success', pipeline_id: 'first' })).body).toEqual({ error: 'pipeline_id is invalid' });
  });

  it('is for Developers; Reporters read, strangers of a private project do not', async () => {
    expect((await post(mainSha, { state: 'success', name: 'r' }, w.reporter.token)).status).toBe(403);
    expect((await list(mainSha, {}, w.reporter.token)).status).toBe(200);
    expect((await list(mainSha, {}, w.guest.token)).status).toBe(403);
    expect((await list(mainSha, {}, w.stranger.token)).status).toBe(404);
  });

  it('files a status under the ref it names, in that ref’s own pipeline', async () => {
    await branchWith(kiln, w.developer, w.project.id, 'side', [create('side.txt', 'x\n')]);
    const sideSha = (await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/repository/branches/side`)).commit.id;
    const onSide = await post(sideSha, { state: 'success', name: 'build', ref: 'side' });
    expect(onSide.body).toMatchObject({ ref: 'side', status: 'success' });
    const filtered = await list(sideSha, { ref: 'side' });
    expect(filtered.body).toHaveLength(1);
    expect((await list(sideSha, { ref: 'other' })).body).toEqual([]);
    expect((await list(sideSha, { stage: 'external' })).body).toHaveLength(1);
  });
});

describe('a merge request follows its head pipeline', () => {
  it('shows head_pipeline and, when the project requires it, merges only once the pipeline succeeded', async () => {
    await branchWith(kiln, w.developer, w.project.id, 'ci-topic', [create('ci.txt', 'one\n')]);
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'ci-topic' });
    await kiln.worker.drain();
    const base = `/projects/${w.project.id}/merge_requests/${mr.iid}`;
    expect(await kiln.apiAs(w.developer, 'GET', base)).toMatchObject({ head_pipeline: null, pipeline: null, detailed_merge_status: 'mergeable' });
    await kiln.deps.db.updateTable('projects').set({ only_allow_merge_if_pipeline_succeeds: 1 }).where('id', '=', w.project.id).execute();
    expect((await kiln.apiAs(w.developer, 'GET', base)).detailed_merge_status).toBe('ci_must_pass');
    expect((await kiln.api('PUT', `${base}/merge`, { token: w.maintainer.token, body: {} })).status).toBe(405);

    const running = await post(mr.sha, { state: 'running', name: 'test', ref: 'ci-topic', coverage: '50' });
    expect(running.status, JSON.stringify(running.body)).toBe(201);
    const during = await kiln.apiAs(w.developer, 'GET', base);
    expect(during.detailed_merge_status).toBe('ci_still_running');
    expect(during.head_pipeline).toMatchObject({ id: running.body.pipeline_id, sha: mr.sha, ref: 'ci-topic', status: 'running', source: 'external', coverage: '50.00', user: { username: w.developer.username }, detailed_status: { group: 'running' } });
    expect(during.pipeline).toEqual({ id: running.body.pipeline_id, iid: expect.any(Number), project_id: w.project.id, sha: mr.sha, ref: 'ci-topic', status: 'running', source: 'external', created_at: expect.any(String), updated_at: expect.any(String), web_url: expect.stringMatching(/\/-\/pipelines\/\d+$/) });
    // merge_when_pipeline_succeeds while it runs arms an automatic merge (merge-requests-auto-merge.test.ts); cancelled here.
    expect((await kiln.apiAs(w.maintainer, 'PUT', `${base}/merge`, { merge_when_pipeline_succeeds: true })).merge_when_pipeline_succeeds).toBe(true);
    expect((await kiln.apiAs(w.maintainer, 'POST', `${base}/cancel_merge_when_pipeline_succeeds`)).merge_when_pipeline_succeeds).toBe(false);

    await post(mr.sha, { state: 'failed', name: 'test', ref: 'ci-topic' });
    expect((await kiln.apiAs(w.developer, 'GET', base)).detailed_merge_status).toBe('ci_must_pass');
    expect((await kiln.api('PUT', `${base}/merge`, { token: w.maintainer.token, body: {} })).status).toBe(405);

    // A skipped pipeline passes only where the project allows it.
    await post(mr.sha, { state: 'skipped', name: 'test', ref: 'ci-topic' });
    expect((await kiln.apiAs(w.developer, 'GET', base)).detailed_merge_status).toBe('ci_must_pass');
    await kiln.deps.db.updateTable('projects').set({ allow_merge_on_skipped_pipeline: 1 }).where('id', '=', w.project.id).execute();
    expect((await kiln.apiAs(w.developer, 'GET', base)).detailed_merge_status).toBe('mergeable');
    await kiln.deps.db.updateTable('projects').set({ allow_merge_on_skipped_pipeline: 0 }).where('id', '=', w.project.id).execute();

    await post(mr.sha, { state: 'success', name: 'test', ref: 'ci-topic' });
    const green = await kiln.apiAs(w.developer, 'GET', base);
    expect(green).toMatchObject({ detailed_merge_status: 'mergeable', head_pipeline: { status: 'success', detailed_status: { text: 'passed', group: 'success' } } });
    const list = await kiln.apiAs(w.developer, 'GET', `/projects/${w.project.id}/merge_requests`, { query: { source_branch: 'ci-topic' } });
    expect(list[0].detailed_merge_status).toBe('mergeable');
    const merged = await kiln.api('PUT', `${base}/merge`, { token: w.maintainer.token, body: { merge_when_pipeline_succeeds: true } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.state).toBe('merged');
    await kiln.deps.db.updateTable('projects').set({ only_allow_merge_if_pipeline_succeeds: 0 }).where('id', '=', w.project.id).execute();
  });

  it('leaves a pipeline of an older head behind after a push', async () => {
    await branchWith(kiln, w.developer, w.project.id, 'moving', [create('moving.txt', 'one\n')]);
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'moving' });
    await kiln.worker.drain();
    await post(mr.sha, { state: 'success', name: 'test', ref: 'moving' });
    const base = `/projects/${w.project.id}/merge_requests/${mr.iid}`;
    expect((await kiln.apiAs(w.developer, 'GET', base)).head_pipeline.status).toBe('success');
    await branchWith(kiln, w.developer, w.project.id, 'moving', [create('moving2.txt', 'two\n')]);
    await kiln.worker.drain();
    expect((await kiln.apiAs(w.developer, 'GET', base)).head_pipeline).toBeNull();
  });
});
