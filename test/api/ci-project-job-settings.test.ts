// The project CI/CD settings a job is handed and held to: `build_timeout` (the timeout of a job
// without `timeout:`, also the stuck-job check's), `ci_default_git_depth` (git_info.depth, which a
// GIT_DEPTH variable overrides; 0 fetches every branch and tag), `build_git_strategy`
// (allow_git_fetch) and `max_artifacts_size` (an upload over it is refused with GitLab's 413), which
// only an administrator sets: PUT /projects/:id drops it from anyone else, still answering 200.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { dropStuckJobs } from '../../src/ci/jobs/drop-stuck-jobs.js';

let kiln: TestKiln;
let w: RepositoryWorld;
const jobs: Record<string, any> = {};

const CONFIG = `
plain:
  script: [make]
timed:
  timeout: 30m
  script: [make]
deep:
  variables: { GIT_DEPTH: '0' }
  script: [make]
`;

const MEGABYTE = 1024 * 1024;

function multipart(file: Buffer) {
  const boundary = '----kilnboundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="artifact_type"\r\n\r\narchive\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="artifacts.zip"\r\nContent-Type: application/zip\r\n\r\n`;
  return { body: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

const jobStatus = async (id: number) => (await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/jobs/${id}`)).status;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  const settings = await kiln.api('PUT', `/projects/${w.project.id}`, { token: w.owner.token, body: { build_timeout: 7200, ci_default_git_depth: 5, build_git_strategy: 'clone' } });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  const admin = await kiln.createUser('job-settings-admin', { admin: true });
  const limited = await kiln.api('PUT', `/projects/${w.project.id}`, { token: admin.token, body: { max_artifacts_size: 1 } });
  expect([limited.status, limited.body.max_artifacts_size]).toEqual([200, 1]);
  const runner = await kiln.api('POST', '/user/runners', { token: w.maintainer.token, body: { runner_type: 'project_type', project_id: w.project.id, run_untagged: true } });
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'ci', actions: [create('.gitlab-ci.yml', CONFIG)] });
  await kiln.worker.drain();
  for (let i = 0; i < 3; i += 1) {
    const claimed = await kiln.request('POST', '/api/v4/jobs/request', { body: { token: runner.body.token } });
    expect(claimed.statusCode).toBe(201);
    jobs[claimed.json().job_info.name] = claimed.json();
  }
});

afterAll(async () => {
  await kiln?.close();
});

describe('the job payload', () => {
  it("times a job by its project's build_timeout unless it has a timeout: of its own", () => {
    expect(jobs.plain.runner_info.timeout).toBe(7200);
    expect(jobs.plain.steps[0].timeout).toBe(7200);
    expect(jobs.timed.runner_info.timeout).toBe(1800);
  });

  it("fetches at the project's ci_default_git_depth, the whole history when GIT_DEPTH is 0, and clones as build_git_strategy says", () => {
    expect(jobs.plain.git_info).toMatchObject({ depth: 5, refspecs: ['+refs/heads/main:refs/remotes/origin/main'] });
    expect(jobs.deep.git_info).toMatchObject({ depth: 0, refspecs: ['+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'] });
    expect(jobs.plain.allow_git_fetch).toBe(false);
  });
});

describe('max_artifacts_size', () => {
  it("is an administrator's to set: an Owner's or a Maintainer's value is dropped, the rest of the change kept (200)", async () => {
    for (const user of [w.owner, w.maintainer]) {
      const alone = await kiln.api('PUT', `/projects/${w.project.id}`, { token: user.token, body: { max_artifacts_size: 500 } });
      expect([alone.status, alone.body.max_artifacts_size]).toEqual([200, 1]);
      const mixed = await kiln.api('PUT', `/projects/${w.project.id}`, { token: user.token, body: { max_artifacts_size: 0, description: `by ${user.username}` } });
      expect([mixed.status, mixed.body.max_artifacts_size, mixed.body.description]).toEqual([200, 1, `by ${user.username}`]);
    }
  });

  const upload = (job: any, size: number) => {
    const form = multipart(Buffer.alloc(size, 1));
    return kiln.app.inject({ method: 'POST', url: `/api/v4/jobs/${job.id}/artifacts`, payload: form.body, headers: { 'content-type': form.contentType, 'job-token': job.token } });
  };
  const authorize = (job: any, size: number) => kiln.request('POST', `/api/v4/jobs/${job.id}/artifacts/authorize`, { body: { token: job.token, filesize: size } });

  it('refuses an artifact over the project limit with 413, and takes one within it', async () => {
    const over = await authorize(jobs.deep, MEGABYTE + 1);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ message: '413 Request Entity Too Large' });
    expect((await authorize(jobs.deep, MEGABYTE)).json()).toEqual({ TempPath: null, MaximumSize: MEGABYTE });
    const refused = await upload(jobs.deep, MEGABYTE + 1);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({ message: '413 Request Entity Too Large' });
    expect((await upload(jobs.deep, MEGABYTE)).statusCode).toBe(201);
  });
});

describe('the stuck-job check', () => {
  it("lets a silent job run for its project's build_timeout, not an hour", async () => {
    kiln.clock.advance(90 * 60_000);
    await dropStuckJobs(kiln.deps);
    expect(await jobStatus(jobs.timed.id)).toBe('failed');
    expect(await jobStatus(jobs.plain.id)).toBe('running');
    kiln.clock.advance(40 * 60_000);
    await dropStuckJobs(kiln.deps);
    expect(await jobStatus(jobs.plain.id)).toBe('failed');
  });
});
