// What CI feeds to webhooks (issue 39), against a loopback receiver: Pipeline Hooks on each status
// change of a pipeline, Job Hooks when a job is created, queued, started and ended (never for manual
// or skipped), Deployment Hooks naming the job behind the deployment (deployable_id/url), the hooks
// API's pipeline_events/job_events and their test triggers. A runner drives the jobs over the
// runner protocol.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let receiver: HookReceiver;
let received: Received[] = [];
let hook: any;
let runnerToken: string;
let runnerId: number;
let sha: string;

const CONFIG = `
stages: [build, deploy]
build:
  stage: build
  script: make
  artifacts: { paths: [out/] }
deploy:
  stage: deploy
  script: ./deploy
  environment: { name: staging, url: "https://staging.example.com" }
production:
  stage: deploy
  script: ./prod
  environment: { name: production, deployment_tier: production }
  when: manual
`;

const api = (method: string, path: string, body?: unknown, token = w.maintainer.token) => kiln.api(method, `/projects/${w.project.id}${path}`, { token, body });
const runnerCall = (method: string, path: string, body: unknown) => kiln.request(method, `/api/v4${path}`, { body });
const of = (event: string) => received.filter((r) => r.headers['x-gitlab-event'] === event).map((r) => r.body);
const jobMoves = () => of('Job Hook').map((body) => `${body.build_name}:${body.build_status}`);

/** The pending job a runner takes; it is then running. */
async function takeJob(): Promise<{ id: number; token: string }> {
  const response = await runnerCall('POST', '/jobs/request', { token: runnerToken, info: { name: 'gitlab-runner', version: '17.0.0', executor: 'shell' } });
  expect(response.statusCode).toBe(201);
  const job = response.json();
  // Each delivery is a job of its own: the running one goes out before the job finishes, or the two
  // could reach the receiver in either order.
  await kiln.worker.drain();
  return { id: job.id, token: job.token };
}

async function finish(job: { id: number; token: string }, state: 'success' | 'failed') {
  const response = await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state, ...(state === 'failed' ? { failure_reason: 'script_failure' } : {}) });
  expect(response.statusCode).toBe(200);
}

beforeAll(async () => {
  receiver = await startHookReceiver((request) => received.push(request));
  kiln = await testKiln({ ciLongPollMs: 0 });
  w = await repositoryWorld(kiln);
  expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
  const created = await api('POST', '/hooks', { url: `${receiver.url}/ci`, push_events: false, pipeline_events: true, job_events: true, deployment_events: true });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  hook = created.body;
  const runner = await kiln.api('POST', '/user/runners', { token: w.maintainer.token, body: { runner_type: 'project_type', project_id: w.project.id, description: 'hooks runner', tag_list: ['linux'], run_untagged: true } });
  expect(runner.status, JSON.stringify(runner.body)).toBe(201);
  runnerToken = runner.body.token;
  runnerId = runner.body.id;
  sha = (await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'Add CI', actions: [create('.gitlab-ci.yml', CONFIG)] })).id;
  await kiln.worker.drain();
}, 120_000);

afterAll(async () => {
  await kiln?.close();
  await receiver?.close();
});

describe('the hooks API', () => {
  it('answers pipeline_events and job_events as saved, and refuses a non-boolean with 400', async () => {
    expect(hook).toMatchObject({ pipeline_events: true, job_events: true, push_events: false });
    const edited = await api('PUT', `/hooks/${hook.id}`, { url: `${receiver.url}/ci`, job_events: false });
    expect(edited.body).toMatchObject({ pipeline_events: true, job_events: false });
    expect((await api('PUT', `/hooks/${hook.id}`, { url: `${receiver.url}/ci`, job_events: true })).body.job_events).toBe(true);
    const bad = await api('POST', '/hooks', { url: `${receiver.url}/bad`, pipeline_events: 'sometimes' });
    expect(bad.status).toBe(400);
  });
});

describe('a pipeline run by a runner', () => {
  beforeEach(() => {
    received = [];
  });

  it('the push made a pending pipeline: one Pipeline Hook, and a Job Hook per job created and the first queued', async () => {
    // Sent before this file's beforeEach ran: the push in beforeAll. Re-read from the delivery log instead.
    const logs = await kiln.deps.db.selectFrom('web_hook_logs').select(['trigger', 'request_data']).where('web_hook_id', '=', hook.id).orderBy('id').execute();
    const bodies = logs.map((log) => ({ trigger: log.trigger, body: JSON.parse(String(log.request_data)) }));
    const pipelines = bodies.filter((entry) => entry.trigger === 'pipeline_hooks').map((entry) => entry.body);
    expect(pipelines.map((body) => body.object_attributes.status)).toEqual(['pending']);
    const [pipeline] = pipelines;
    expect(pipeline).toMatchObject({
      object_kind: 'pipeline',
      object_attributes: {
        iid: 1, ref: 'main', tag: false, sha, source: 'push', status: 'pending', detailed_status: 'pending', stages: ['build', 'deploy'],
        finished_at: null, duration: null, protected_ref: true, variables: [],
        url: `${kiln.config.baseUrl}/${w.project.path_with_namespace}/-/pipelines/${pipeline.object_attributes.id}`,
      },
      merge_request: null,
      user: { id: w.maintainer.id, username: w.maintainer.username },
      project: { id: w.project.id, path_with_namespace: w.project.path_with_namespace },
      commit: { id: sha, title: 'Add CI', url: `${kiln.config.baseUrl}/${w.project.path_with_namespace}/-/commit/${sha}` },
    });
    expect(pipeline.object_attributes.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(pipeline.builds.map((build: any) => [build.name, build.stage, build.status, build.when, build.manual])).toEqual([
      ['build', 'build', 'pending', 'on_success', false],
      ['deploy', 'deploy', 'created', 'on_success', false],
      ['production', 'deploy', 'created', 'manual', true],
    ]);
    expect(pipeline.builds[1].environment).toEqual({ name: 'staging', action: 'start', deployment_tier: 'staging' });
    expect(pipeline.builds[2].environment).toEqual({ name: 'production', action: 'start', deployment_tier: 'production' });
    expect(pipeline.builds[0]).toMatchObject({ environment: null, runner: null, artifacts_file: { filename: null, size: null }, user: { id: w.maintainer.id } });
    const jobs = bodies.filter((entry) => entry.trigger === 'job_hooks').map((entry) => `${entry.body.build_name}:${entry.body.build_status}`);
    expect(jobs.sort()).toEqual(['build:created', 'build:pending', 'deploy:created', 'production:created']);
  });

  it('a runner taking the job: Job Hook running with the runner, Pipeline Hook running', async () => {
    const job = await takeJob();
    await kiln.worker.drain();
    expect(jobMoves()).toEqual(['build:running']);
    const [body] = of('Job Hook');
    expect(body).toMatchObject({
      object_kind: 'build', ref: 'main', tag: false, sha, before_sha: expect.any(String), build_id: job.id, build_name: 'build', build_stage: 'build',
      build_status: 'running', build_allow_failure: false, build_failure_reason: null, build_finished_at: null, retries_count: 0,
      runner: { id: runnerId, description: 'hooks runner', runner_type: 'project_type', active: true, is_shared: false, tags: ['linux'] },
      project_id: w.project.id, project_name: `${w.group.name} / ${w.project.name}`,
      user: { id: w.maintainer.id, username: w.maintainer.username, email: expect.any(String) },
      commit: { sha, message: 'Add CI', author_name: expect.any(String), status: 'running', finished_at: null },
      repository: { name: w.project.name, homepage: `${kiln.config.baseUrl}/${w.project.path_with_namespace}`, visibility_level: 0 },
      environment: null,
    });
    expect(body.build_started_at).toMatch(/ UTC$/);
    expect(typeof body.build_duration).toBe('number');
    expect(of('Pipeline Hook').map((pipeline) => pipeline.object_attributes.status)).toEqual(['running']);
    await finish(job, 'success');
    await kiln.worker.drain();
    expect(jobMoves().sort()).toEqual(['build:running', 'build:success', 'deploy:pending']);
    const success = of('Job Hook').find((move) => move.build_status === 'success');
    expect(success).toMatchObject({ build_id: job.id, build_failure_reason: null });
    expect(success.build_finished_at).toMatch(/ UTC$/);
    // The pipeline stays running: no Pipeline Hook without a change.
    expect(of('Pipeline Hook').map((pipeline) => pipeline.object_attributes.status)).toEqual(['running']);
  });

  it('the deploy job: Deployment Hooks name it (deployable_id, deployable_url); the pipeline passes with the manual job left', async () => {
    const job = await takeJob();
    await finish(job, 'success');
    await kiln.worker.drain();
    const jobUrl = `${kiln.config.baseUrl}/${w.project.path_with_namespace}/-/jobs/${job.id}`;
    expect(of('Deployment Hook').map((body) => [body.status, body.deployable_id, body.deployable_url, body.environment, body.commit_title])).toEqual([
      ['running', job.id, jobUrl, 'staging', 'Add CI'],
      ['success', job.id, jobUrl, 'staging', 'Add CI'],
    ]);
    // production turned manual: no Job Hook for that.
    expect(jobMoves()).toEqual(['deploy:running', 'deploy:success']);
    expect(of('Job Hook')[0].environment).toEqual({ name: 'staging', action: 'start' });
    const pipelines = of('Pipeline Hook');
    expect(pipelines.map((body) => [body.object_attributes.status, body.object_attributes.detailed_status])).toEqual([['success', 'passed']]);
    const [pipeline] = pipelines;
    expect(pipeline.object_attributes.finished_at).toMatch(/ UTC$/);
    expect(typeof pipeline.object_attributes.duration).toBe('number');
    expect(pipeline.builds.map((build: any) => [build.name, build.status])).toEqual([['build', 'success'], ['deploy', 'success'], ['production', 'manual']]);
    expect(pipeline.builds[1].runner).toMatchObject({ id: runnerId, tags: ['linux'] });
    // The environment's last deployment answers the job behind it.
    const environments = (await api('GET', '/environments')).body as any[];
    const staging = environments.find((environment) => environment.name === 'staging');
    const detail = (await api('GET', `/environments/${staging.id}`)).body;
    expect(detail.last_deployment.deployable).toMatchObject({ id: job.id, name: 'deploy', status: 'success', stage: 'deploy' });
  });

  it('a failed job: Job Hook failed with its reason, Pipeline Hook failed', async () => {
    const next = await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'Break it', actions: [create('broken.txt', 'x\n')] });
    await kiln.worker.drain();
    received = [];
    const job = await takeJob();
    await finish(job, 'failed');
    await kiln.worker.drain();
    const failed = of('Job Hook').find((move) => move.build_status === 'failed');
    expect(failed).toMatchObject({ build_id: job.id, build_failure_reason: 'script_failure', sha: next.id });
    expect(jobMoves()).toEqual(['build:running', 'build:failed']);
    expect(of('Pipeline Hook').map((body) => [body.object_attributes.status, body.object_attributes.sha])).toEqual([['running', next.id], ['failed', next.id]]);
    expect(of('Pipeline Hook')[1].builds.map((build: any) => [build.name, build.status, build.failure_reason])).toEqual([
      ['build', 'failed', 'script_failure'], ['deploy', 'skipped', null], ['production', 'skipped', null],
    ]);
  });
});

describe('retrying and cancelling', () => {
  beforeEach(() => {
    received = [];
  });

  it('a retried job: Job Hooks for the new job created and queued; a cancelled pipeline: canceled hooks for its active jobs and itself', async () => {
    const failed = await kiln.deps.db.selectFrom('ci_builds').select(['id', 'commit_id']).where('project_id', '=', w.project.id).where('status', '=', 'failed').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const retried = await api('POST', `/jobs/${failed.id}/retry`);
    expect(retried.status).toBe(201);
    await kiln.worker.drain();
    expect(of('Job Hook').map((body) => [body.build_id, body.build_status])).toEqual([[retried.body.id, 'created'], [retried.body.id, 'pending']]);
    expect(of('Pipeline Hook').map((body) => body.object_attributes.status)).toEqual(['pending']);
    received = [];
    expect((await api('POST', `/pipelines/${failed.commit_id}/cancel`)).status).toBe(200);
    await kiln.worker.drain();
    expect(jobMoves()).toEqual(['build:canceled']);
    const [pipeline] = of('Pipeline Hook');
    expect(pipeline.object_attributes).toMatchObject({ id: Number(failed.commit_id), status: 'canceled', detailed_status: 'canceled' });
    expect(pipeline.builds.map((build: any) => [build.name, build.status])).toEqual([['build', 'canceled'], ['deploy', 'skipped'], ['production', 'skipped']]);
  });
});

describe('commit statuses', () => {
  beforeEach(() => {
    received = [];
  });

  it('an external status moves the pipeline it joins: a Pipeline Hook listing its stage but only CI jobs in builds[], and no Job Hook', async () => {
    const posted = await api('POST', `/statuses/${sha}`, { state: 'running', name: 'external-ci', ref: 'main' });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    await kiln.worker.drain();
    expect(of('Job Hook')).toEqual([]);
    const pipelines = of('Pipeline Hook');
    expect(pipelines.map((body) => [body.object_attributes.id, body.object_attributes.status])).toEqual([[posted.body.pipeline_id, 'running']]);
    expect(pipelines[0].object_attributes.stages).toContain('external');
    expect(pipelines[0].builds.map((build: any) => build.name)).not.toContain('external-ci');
  });
});

describe('playing a manual job', () => {
  beforeEach(() => {
    received = [];
  });

  it('on the protected main a Developer gets GitLab\'s 403; a Maintainer\'s play sends the Job Hook as them', async () => {
    const first = await kiln.deps.db.selectFrom('ci_pipelines').select('id').where('project_id', '=', w.project.id).orderBy('id').executeTakeFirstOrThrow();
    const production = await kiln.deps.db.selectFrom('ci_builds').select(['id', 'status']).where('commit_id', '=', first.id).where('name', '=', 'production').executeTakeFirstOrThrow();
    expect(production.status).toBe('manual');
    const refused = await api('POST', `/jobs/${production.id}/play`, undefined, w.developer.token);
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await api('POST', `/jobs/not-a-number/play`)).status).toBe(400);
    // The job page's Play button asks the same.
    const web = new WebSession(kiln);
    await web.signIn(w.developer.username, w.developer.password);
    const jobPage = `/${w.project.path_with_namespace}/-/jobs/${production.id}`;
    expect((await web.post(`${jobPage}/play`, {}, { csrfFrom: jobPage })).statusCode).toBe(403);
    expect((await kiln.deps.db.selectFrom('ci_builds').select('status').where('id', '=', production.id).executeTakeFirstOrThrow()).status).toBe('manual');
    const played = await api('POST', `/jobs/${production.id}/play`);
    expect(played.status).toBe(200);
    await kiln.worker.drain();
    expect(of('Job Hook').map((body) => [body.build_name, body.build_status, body.user.username, body.environment])).toEqual([
      ['production', 'pending', w.maintainer.username, { name: 'production', action: 'start' }],
    ]);
  });
});

describe('testing a hook', () => {
  beforeEach(() => {
    received = [];
  });

  it('POST …/test/pipeline_events and …/test/job_events send the latest pipeline and job', async () => {
    const pipeline = await api('POST', `/hooks/${hook.id}/test/pipeline_events`);
    expect([pipeline.status, pipeline.body]).toEqual([201, { message: '201 Created' }]);
    const job = await api('POST', `/hooks/${hook.id}/test/job_events`);
    expect([job.status, job.body]).toEqual([201, { message: '201 Created' }]);
    const latest = await kiln.deps.db.selectFrom('ci_pipelines').select(['id', 'status']).where('project_id', '=', w.project.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(of('Pipeline Hook').map((body) => [body.object_attributes.id, body.object_attributes.status])).toEqual([[Number(latest.id), latest.status]]);
    expect(of('Job Hook').map((body) => body.pipeline_id)).toEqual([Number(latest.id)]);
  });

  it('answers GitLab\'s 422 for a project without pipelines or jobs', async () => {
    const empty = await kiln.createProject(w.owner, 'empty', { namespace_id: w.group.id });
    const other = await kiln.api('POST', `/projects/${empty.id}/hooks`, { token: w.owner.token, body: { url: `${receiver.url}/empty`, pipeline_events: true } });
    expect(other.status).toBe(201);
    const pipeline = await kiln.api('POST', `/projects/${empty.id}/hooks/${other.body.id}/test/pipeline_events`, { token: w.owner.token });
    expect([pipeline.status, pipeline.body]).toEqual([422, { message: 'Ensure the project has CI pipelines.' }]);
    const job = await kiln.api('POST', `/projects/${empty.id}/hooks/${other.body.id}/test/job_events`, { token: w.owner.token });
    expect([job.status, job.body]).toEqual([422, { message: 'Ensure the project has CI jobs.' }]);
  });
});
