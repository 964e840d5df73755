// Merge request pipelines (issue 39): opening a merge request and pushing its source branch run a
// `merge_request_event` pipeline on refs/merge-requests/<iid>/head with the jobs that ask for one
// (rules on $CI_PIPELINE_SOURCE, only: [merge_requests]) and GitLab's CI_MERGE_REQUEST_* variables;
// the merge request lists its pipelines and runs one on request, its head pipeline follows the
// newest, the Pipeline Hook names it (loopback receiver), and an armed automatic merge happens when
// that pipeline succeeds, under only_allow_merge_if_pipeline_succeeds. A runner drives the jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, openMergeRequest } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let receiver: HookReceiver;
const received: Received[] = [];
let runnerToken: string;

const CONFIG = `
mr-test:
  script: make test
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event" && $CI_MERGE_REQUEST_TARGET_BRANCH_NAME == "main"
legacy:
  script: make lint
  only: [merge_requests]
branch-only:
  script: make all
`;

const api = (method: string, path: string, body?: unknown, token = w.maintainer.token) => kiln.api(method, `/projects/${w.project.id}${path}`, { token, body });
const runnerCall = (method: string, path: string, body: unknown) => kiln.request(method, `/api/v4${path}`, { body });
const jobNames = async (pipelineId: number) => ((await api('GET', `/pipelines/${pipelineId}/jobs`)).body as any[]).map((job) => job.name).sort();

beforeAll(async () => {
  receiver = await startHookReceiver((request) => received.push(request));
  kiln = await testKiln({ ciLongPollMs: 0 });
  w = await repositoryWorld(kiln);
  expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
  expect((await api('POST', '/hooks', { url: `${receiver.url}/ci`, push_events: false, pipeline_events: true })).status).toBe(201);
  const runner = await kiln.api('POST', '/user/runners', { token: w.maintainer.token, body: { runner_type: 'project_type', project_id: w.project.id, run_untagged: true } });
  expect(runner.status, JSON.stringify(runner.body)).toBe(201);
  runnerToken = runner.body.token;
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'Add CI', actions: [create('.gitlab-ci.yml', CONFIG)] });
  await kiln.worker.drain();
  // The branch pipeline of main ran branch-only; finish it so the runner's queue is the merge request's.
  for (;;) {
    const job = await runnerCall('POST', '/jobs/request', { token: runnerToken });
    if (job.statusCode !== 201) break;
    await runnerCall('PUT', `/jobs/${job.json().id}`, { token: job.json().token, state: 'success' });
  }
  await kiln.worker.drain();
}, 120_000);

afterAll(async () => {
  await kiln?.close();
  await receiver?.close();
});

describe('merge request pipelines', () => {
  let mr: any;
  let mrPipeline: any;

  it('runs a merge_request_event pipeline when the merge request is opened, beside the branch pipeline', async () => {
    await branchWith(kiln, w.developer, w.project.id, 'topic', [create('topic.txt', 'one\n')]);
    mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'topic', title: 'Topic', labels: 'ci,backend' });
    await kiln.worker.drain();
    const list = await api('GET', `/merge_requests/${mr.iid}/pipelines`, undefined, w.reporter.token);
    expect(list.status).toBe(200);
    expect(list.body.map((row: any) => [row.source, row.ref])).toEqual([['merge_request_event', `refs/merge-requests/${mr.iid}/head`], ['push', 'topic']]);
    mrPipeline = list.body[0];
    expect(mrPipeline).toMatchObject({ sha: mr.sha, status: 'pending' });
    expect(Object.keys(mrPipeline)).toEqual(['id', 'iid', 'project_id', 'sha', 'ref', 'status', 'source', 'created_at', 'updated_at', 'web_url']);
    expect(await jobNames(mrPipeline.id)).toEqual(['legacy', 'mr-test']);
    expect(await jobNames(list.body[1].id)).toEqual(['branch-only']);
    const shown = (await api('GET', `/merge_requests/${mr.iid}`)).body;
    expect(shown.head_pipeline).toMatchObject({ id: mrPipeline.id, source: 'merge_request_event' });
    expect((await api('GET', `/merge_requests/${mr.iid}/pipelines`, undefined, w.stranger.token)).status).toBe(404);
    expect((await api('GET', `/merge_requests/999/pipelines`)).body).toEqual({ message: '404 Merge Request Not Found' });
  });

  it("hands the runner GitLab's merge request variables and the merge request's ref", async () => {
    // The branch pipeline's job is older: passed on the way.
    let job: any;
    for (;;) {
      const response = await runnerCall('POST', '/jobs/request', { token: runnerToken });
      expect(response.statusCode).toBe(201);
      job = response.json();
      if (job.job_info.pipeline_id === mrPipeline.id) break;
      await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state: 'success' });
    }
    const variables = Object.fromEntries(job.variables.map((variable: any) => [variable.key, variable.value]));
    expect(variables).toMatchObject({
      CI_PIPELINE_SOURCE: 'merge_request_event', CI_COMMIT_REF_NAME: 'topic', CI_COMMIT_REF_SLUG: 'topic', CI_COMMIT_SHA: mr.sha,
      CI_MERGE_REQUEST_IID: String(mr.iid), CI_MERGE_REQUEST_ID: String(mr.id), CI_MERGE_REQUEST_REF_PATH: `refs/merge-requests/${mr.iid}/head`,
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'topic', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_MERGE_REQUEST_TITLE: 'Topic',
      CI_MERGE_REQUEST_PROJECT_PATH: w.project.path_with_namespace, CI_MERGE_REQUEST_LABELS: 'backend,ci', CI_MERGE_REQUEST_EVENT_TYPE: 'detached',
      CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED: 'true', CI_MERGE_REQUEST_SOURCE_BRANCH_PROTECTED: 'false',
    });
    expect(variables.CI_MERGE_REQUEST_DIFF_BASE_SHA).toMatch(/^[0-9a-f]{40}$/);
    expect(variables.CI_COMMIT_BRANCH).toBeUndefined();
    expect(job.git_info).toMatchObject({ ref: `refs/merge-requests/${mr.iid}/head`, sha: mr.sha, refspecs: [`+refs/merge-requests/${mr.iid}/head:refs/merge-requests/${mr.iid}/head`] });
    await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state: 'failed', failure_reason: 'script_failure' });
    await kiln.worker.drain();
    // The Pipeline Hook of a merge request pipeline carries its merge request.
    const hooks = received.map((request) => request.body).filter((body) => body.object_kind === 'pipeline' && body.object_attributes.id === mrPipeline.id);
    expect(hooks.length).toBeGreaterThan(0);
    expect(hooks.at(-1).merge_request).toMatchObject({ id: mr.id, iid: mr.iid, title: 'Topic', source_branch: 'topic', target_branch: 'main', state: 'opened' });
  });

  it('runs a new one when the source branch is pushed, and on request through the API', async () => {
    const pushed = await branchWith(kiln, w.developer, w.project.id, 'topic', [create('two.txt', 'two\n')]);
    await kiln.worker.drain();
    const list = (await api('GET', `/merge_requests/${mr.iid}/pipelines`)).body;
    expect(list.filter((row: any) => row.source === 'merge_request_event').map((row: any) => row.sha)).toEqual([pushed.id, mr.sha]);
    const requested = await api('POST', `/merge_requests/${mr.iid}/pipelines`, undefined, w.developer.token);
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    expect(requested.body).toMatchObject({ sha: pushed.id, ref: `refs/merge-requests/${mr.iid}/head`, source: 'merge_request_event', status: 'pending', user: { username: w.developer.username } });
    expect((await api('POST', `/merge_requests/${mr.iid}/pipelines`, undefined, w.reporter.token)).body).toEqual({ message: '405 Method Not Allowed' });
    mrPipeline = requested.body;
  });

  it('merges an armed merge request when its pipeline succeeds, pipelines being required', async () => {
    await kiln.deps.db.updateTable('projects').set({ only_allow_merge_if_pipeline_succeeds: 1 }).where('id', '=', w.project.id).execute();
    const base = `/merge_requests/${mr.iid}`;
    expect((await api('PUT', `${base}/merge`, {})).status).toBe(405);
    const armed = await api('PUT', `${base}/merge`, { merge_when_pipeline_succeeds: true });
    expect(armed.status, JSON.stringify(armed.body)).toBe(200);
    expect(armed.body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true });
    // The runner passes every pending job; the newest merge request pipeline (the head pipeline) succeeds.
    for (;;) {
      const job = await runnerCall('POST', '/jobs/request', { token: runnerToken });
      if (job.statusCode !== 201) break;
      await runnerCall('PUT', `/jobs/${job.json().id}`, { token: job.json().token, state: 'success' });
      await kiln.worker.drain();
    }
    expect((await api('GET', `/pipelines/${mrPipeline.id}`)).body.status).toBe('success');
    expect((await api('GET', base)).body).toMatchObject({ state: 'merged', head_pipeline: { id: mrPipeline.id, status: 'success' } });
  });

  it('makes no pipeline when the configuration has no job for merge requests, and answers 400 on request', async () => {
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'Branch jobs only', actions: [{ action: 'update', file_path: '.gitlab-ci.yml', content: 'only-branches:\n  script: make\n' }] });
    await branchWith(kiln, w.developer, w.project.id, 'plain', [create('plain.txt', 'x\n')]);
    const plain = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'plain' });
    await kiln.worker.drain();
    expect(((await api('GET', `/merge_requests/${plain.iid}/pipelines`)).body as any[]).map((row) => row.source)).toEqual(['push']);
    expect((await api('POST', `/merge_requests/${plain.iid}/pipelines`, undefined, w.developer.token)).body).toEqual({ message: { base: ['No stages / jobs for this pipeline.'] } });
  });
});
