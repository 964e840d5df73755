// Who sees CI (GitLab's project_policy.rb): builds_access_level (`jobs_enabled`) takes pipelines,
// jobs and schedules from everyone when `disabled` (administrators and Maintainers too, pages and
// sidebar alike, and no pipeline is made: "Pipelines are disabled!") and from non-members when
// `private`; while CI/CD is hidden so, its pages answer 404 as GitLab's check_builds_available! does
// (anonymous visitors too: nothing to sign in for), while a visitor who has CI/CD but not the page's
// ability gets Kiln's 403 page; public_jobs (`public_builds`) off keeps pipelines, jobs, logs and
// artifacts of a public project from non-members and Guests while Reporters read them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, commit, create, update, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let base: string;
let pipelineId: number;
let jobId: number;

const CONFIG = 'build:\n  script: make\n  artifacts: { paths: [out/] }\n';
const runnerCall = (method: string, path: string, body: unknown) => kiln.request(method, `/api/v4${path}`, { body });
const api = (method: string, path: string, token?: string, body?: unknown) => kiln.api(method, `/projects/${w.project.id}${path}`, { token, body });
const settle = async (body: Record<string, unknown>) => expect((await api('PUT', '', w.owner.token, body)).status).toBe(200);
const pipelineCount = async () => (await kiln.deps.db.selectFrom('ci_pipelines').select('id').where('project_id', '=', w.project.id).execute()).length;

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

/** What a caller (a token, or nobody) gets from the job's routes: the job, its log, a file of its artifacts. */
async function jobStatuses(token?: string) {
  return Promise.all([`/jobs/${jobId}`, `/jobs/${jobId}/trace`, `/jobs/${jobId}/artifacts/out/app.bin`, `/jobs/${jobId}/artifacts`, '/jobs', `/pipelines/${pipelineId}/jobs`].map(async (path) => (await api('GET', path, token)).status));
}

beforeAll(async () => {
  kiln = await testKiln({ ciLongPollMs: 0 });
  w = await repositoryWorld(kiln, { visibility: 'public' });
  base = `/${w.project.path_with_namespace}`;
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', actions: [create('.gitlab-ci.yml', CONFIG)] });
  await kiln.worker.drain();
  const reset = await kiln.api('POST', `/projects/${w.project.id}/runners/reset_registration_token`, { token: w.maintainer.token });
  const runnerToken = (await runnerCall('POST', '/runners', { token: reset.body.token, description: 'access runner' })).json().token;
  const requested = await runnerCall('POST', '/jobs/request', { token: runnerToken });
  expect(requested.statusCode).toBe(201);
  const job = { id: requested.json().id, token: requested.json().token };
  jobId = job.id;
  pipelineId = requested.json().job_info.pipeline_id;
  const boundary = '----kilnboundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="artifacts.zip"\r\nContent-Type: application/zip\r\n\r\n`),
    Buffer.from(zipSync({ 'out/app.bin': Buffer.from('binary') })),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const uploaded = await kiln.app.inject({ method: 'POST', url: `/api/v4/jobs/${job.id}/artifacts?artifact_type=archive&artifact_format=zip`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'job-token': job.token } });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  expect((await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state: 'success' })).statusCode).toBe(200);
  await kiln.worker.drain();
});

afterAll(async () => {
  await kiln?.close();
});

describe('the defaults', () => {
  it('let anyone read the pipelines and jobs of a public project', async () => {
    expect((await api('GET', '/pipelines')).status).toBe(200);
    expect(await jobStatuses()).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await jobStatuses(w.guest.token)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});

describe('public_jobs', () => {
  it('off: non-members and Guests read no pipeline, job, log or artifact; Reporters do', async () => {
    await settle({ public_jobs: false });
    for (const token of [undefined, w.stranger.token, w.guest.token]) {
      expect(await jobStatuses(token)).toEqual([403, 403, 403, 403, 403, 403]);
      expect((await api('GET', '/pipelines', token)).status).toBe(403);
      expect((await api('GET', `/pipelines/${pipelineId}`, token)).status).toBe(403);
    }
    expect(await jobStatuses(w.reporter.token)).toEqual([200, 200, 200, 200, 200, 200]);
    expect((await api('GET', '/pipelines', w.reporter.token)).body.map((pipeline: any) => pipeline.id)).toEqual([pipelineId]);
    // The commit's status stays public (GitLab shows it on commits and merge requests).
    expect((await api('GET', '/repository/commits/main/statuses', w.stranger.token)).status).toBe(200);
    const stranger = await signedIn(w.stranger);
    // Kiln's pages answer a readable project's missing ability with the 403 page.
    expect((await stranger.get(`${base}/-/jobs/${jobId}`)).statusCode).toBe(403);
    expect((await stranger.get(`${base}/-/jobs/${jobId}/raw`)).statusCode).toBe(403);
    const project = await stranger.get(base);
    expect(project.statusCode).toBe(200);
    expect(project.body).not.toContain(`${base}/-/pipelines`);
    expect((await (await signedIn(w.reporter)).get(`${base}/-/jobs/${jobId}`)).statusCode).toBe(200);
  });

  it('back on (as public_builds): they read them again', async () => {
    await settle({ public_builds: true });
    expect((await api('GET', '')).body.public_jobs).toBe(true);
    expect(await jobStatuses(w.stranger.token)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});

describe('builds_access_level', () => {
  it('private: non-members read no pipeline or job of the public project; members do', async () => {
    await settle({ builds_access_level: 'private' });
    for (const token of [undefined, w.stranger.token]) {
      expect((await api('GET', '/pipelines', token)).status).toBe(403);
      expect(await jobStatuses(token)).toEqual([403, 403, 403, 403, 403, 403]);
    }
    const stranger = await signedIn(w.stranger);
    for (const path of ['/-/pipelines', `/-/pipelines/${pipelineId}`, `/-/jobs/${jobId}`, `/-/jobs/${jobId}/raw`, '/-/jobs', '/-/pipeline_schedules']) {
      expect((await stranger.get(`${base}${path}`)).statusCode, path).toBe(404);
    }
    // Anonymous visitors of the pages that take them (the schedules page asks them to sign in first).
    for (const path of ['/-/pipelines', `/-/pipelines/${pipelineId}`, `/-/jobs/${jobId}`, `/-/jobs/${jobId}/raw`, '/-/jobs']) {
      expect((await new WebSession(kiln).get(`${base}${path}`)).statusCode, path).toBe(404);
    }
    expect((await api('GET', '/pipelines', w.reporter.token)).status).toBe(200);
    expect(await jobStatuses(w.reporter.token)).toEqual([200, 200, 200, 200, 200, 200]);
    // A Guest is a member: the public project's jobs are theirs to read while public_jobs is on.
    expect((await api('GET', '/pipelines', w.guest.token)).status).toBe(200);
    expect((await (await signedIn(w.reporter)).get(`${base}/-/pipelines`)).statusCode).toBe(200);
  });

  it('disabled (as jobs_enabled false): nobody reads or runs CI, Maintainers and the Owner neither, and a push makes no pipeline', async () => {
    await settle({ jobs_enabled: false });
    expect((await api('GET', '')).body.builds_access_level).toBe('disabled');
    for (const token of [w.owner.token, w.maintainer.token, w.reporter.token, undefined]) {
      expect((await api('GET', '/pipelines', token)).status).toBe(403);
      expect((await api('GET', `/pipelines/${pipelineId}`, token)).status).toBe(403);
      expect(await jobStatuses(token)).toEqual([403, 403, 403, 403, 403, 403]);
    }
    expect((await api('GET', '/pipeline_schedules', w.maintainer.token)).status).toBe(403);
    expect((await api('POST', `/jobs/${jobId}/retry`, w.maintainer.token)).status).toBe(403);
    // GitLab asks create_pipeline and then refuses in the pipeline service.
    const run = await api('POST', '/pipeline', w.maintainer.token, { ref: 'main' });
    expect(run.status).toBe(400);
    expect(run.body).toEqual({ message: { base: ['Pipelines are disabled!'] } });
    const before = await pipelineCount();
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', actions: [update('.gitlab-ci.yml', `${CONFIG}# again\n`)] });
    await kiln.worker.drain();
    expect(await pipelineCount()).toBe(before);

    const maintainer = await signedIn(w.maintainer);
    for (const path of ['/-/pipelines', `/-/pipelines/${pipelineId}`, '/-/pipelines/new', `/-/jobs/${jobId}`, '/-/jobs', '/-/pipeline_schedules', '/-/settings/ci_cd']) {
      expect((await maintainer.get(`${base}${path}`)).statusCode, path).toBe(404);
    }
    expect((await maintainer.post(`${base}/-/jobs/${jobId}/retry`, {}, { csrfFrom: base })).statusCode).toBe(404);
    const project = await maintainer.get(base);
    expect(project.statusCode).toBe(200);
    expect(project.body).not.toContain(`${base}/-/pipelines`);
    expect(project.body).not.toContain(`${base}/-/jobs`);
  });

  it('enabled again: pushes make pipelines and everyone reads them', async () => {
    await settle({ builds_access_level: 'enabled' });
    const before = await pipelineCount();
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', actions: [update('.gitlab-ci.yml', `${CONFIG}# third\n`)] });
    await kiln.worker.drain();
    expect(await pipelineCount()).toBe(before + 1);
    expect((await api('GET', '/pipelines')).body).toHaveLength(before + 1);
  });
});
