// Project CI settings that act on pipelines: restrict_user_defined_variables with
// ci_pipeline_variables_minimum_override_role (who may pass pipeline variables: the API, a trigger's
// owner, a schedule's variables), keep_latest_artifact (a ref's latest successful artifacts outlive
// their expiry) and ci_separated_caches (the -protected / -non_protected cache key suffix).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { expireArtifacts } from '../../src/ci/jobs/expire-artifacts.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let runnerToken: string;

const CONFIG = 'build:\n  script: make\n  cache: { key: deps, paths: [vendor/] }\n  artifacts: { paths: [out/] }\n';
const DENIED = { message: { base: ['Insufficient permissions to set pipeline variables'] } };
const VARIABLES = [{ key: 'DEPLOY', value: 'yes' }];

const settings = (body: Record<string, unknown>) => kiln.api('PUT', `/projects/${w.project.id}`, { token: w.owner.token, body });
const runPipeline = (token: string, ref: string, variables?: unknown) =>
  kiln.api('POST', `/projects/${w.project.id}/pipeline`, { token, body: { ref, ...(variables ? { variables } : {}) } });

/** Takes the one pending job, uploads an archive expiring in an hour if asked, and finishes it as a success. */
async function runJob(options: { artifact?: boolean } = {}): Promise<any> {
  const response = await kiln.request('POST', '/api/v4/jobs/request', { body: { token: runnerToken } });
  expect(response.statusCode).toBe(201);
  const job = response.json();
  if (options.artifact) {
    const boundary = '----kilnboundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="artifacts.zip"\r\nContent-Type: application/zip\r\n\r\n`),
      Buffer.from(zipSync({ 'out/report.txt': Buffer.from(`job ${job.id}`) })),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await kiln.app.inject({ method: 'POST', url: `/api/v4/jobs/${job.id}/artifacts?artifact_type=archive&artifact_format=zip&expire_in=1%20hour`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'job-token': job.token } });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
  }
  expect((await kiln.request('PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state: 'success' } })).statusCode).toBe(200);
  await kiln.worker.drain();
  return job;
}

async function drainJobs(): Promise<void> {
  while ((await kiln.request('POST', '/api/v4/jobs/request', { body: { token: runnerToken } })).statusCode === 201) {
    // Taken and left: only the next pipeline's job matters to the test after this.
  }
}

beforeAll(async () => {
  kiln = await testKiln({ ciLongPollMs: 0 });
  w = await repositoryWorld(kiln);
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', CONFIG)] });
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'topic', start_branch: 'main', commit_message: 'topic', actions: [create('topic.txt')] });
  await kiln.worker.drain();
  const runner = await kiln.api('POST', '/user/runners', { token: w.maintainer.token, body: { runner_type: 'project_type', project_id: w.project.id, run_untagged: true } });
  runnerToken = runner.body.token;
  await drainJobs();
}, 60_000);

afterAll(async () => {
  await kiln?.close();
});

describe('restrict_user_defined_variables and ci_pipeline_variables_minimum_override_role', () => {
  it('lets anyone who may run a pipeline pass variables while not restricted', async () => {
    const created = await runPipeline(w.developer.token, 'topic', VARIABLES);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });

  it("refuses a Developer's variables below a Maintainer minimum, with GitLab's 400; a Maintainer's pass", async () => {
    expect((await settings({ restrict_user_defined_variables: true, ci_pipeline_variables_minimum_override_role: 'maintainer' })).status).toBe(200);
    const refused = await runPipeline(w.developer.token, 'topic', VARIABLES);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(DENIED);
    expect((await runPipeline(w.developer.token, 'topic')).status).toBe(201);
    const allowed = await runPipeline(w.maintainer.token, 'topic', VARIABLES);
    expect(allowed.status).toBe(201);
    const stored = await kiln.api('GET', `/projects/${w.project.id}/pipelines/${allowed.body.id}/variables`, { token: w.maintainer.token });
    expect(stored.body).toEqual([{ key: 'DEPLOY', value: 'yes', variable_type: 'env_var' }]);
  });

  it("checks a trigger token's owner: a Maintainer's token with variables is refused when the minimum is Owner", async () => {
    const trigger = await kiln.api('POST', `/projects/${w.project.id}/triggers`, { token: w.maintainer.token, body: { description: 'deploy' } });
    const fire = (body: Record<string, unknown>) => kiln.request('POST', `/api/v4/projects/${w.project.id}/trigger/pipeline`, { body: { token: trigger.body.token, ref: 'topic', ...body } });
    expect((await fire({ variables: { DEPLOY: 'yes' } })).statusCode).toBe(201);
    expect((await settings({ ci_pipeline_variables_minimum_override_role: 'owner' })).status).toBe(200);
    const refused = await fire({ variables: { DEPLOY: 'yes' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(DENIED);
    expect((await fire({})).statusCode).toBe(201);
    expect((await runPipeline(w.owner.token, 'topic', VARIABLES)).status).toBe(201);
  });

  it('refuses everyone, the Owner too, with no_one_allowed; a pipeline without variables still runs', async () => {
    expect((await settings({ ci_pipeline_variables_minimum_override_role: 'no_one_allowed' })).status).toBe(200);
    expect((await runPipeline(w.owner.token, 'topic', VARIABLES)).body).toEqual(DENIED);
    expect((await runPipeline(w.owner.token, 'topic')).status).toBe(201);
  });

  it("refuses changing a schedule's variables (403) to whom may not set pipeline variables", async () => {
    expect((await settings({ ci_pipeline_variables_minimum_override_role: 'maintainer' })).status).toBe(200);
    const schedules = `/projects/${w.project.id}/pipeline_schedules`;
    const mine = await kiln.api('POST', schedules, { token: w.developer.token, body: { description: 'nightly', ref: 'topic', cron: '0 1 * * *' } });
    const refused = await kiln.api('POST', `${schedules}/${mine.body.id}/variables`, { token: w.developer.token, body: { key: 'DEPLOY', value: 'yes' } });
    expect(refused.status).toBe(403);
    const theirs = await kiln.api('POST', schedules, { token: w.maintainer.token, body: { description: 'weekly', ref: 'topic', cron: '0 1 * * 1' } });
    expect((await kiln.api('POST', `${schedules}/${theirs.body.id}/variables`, { token: w.maintainer.token, body: { key: 'DEPLOY', value: 'yes' } })).status).toBe(201);
    expect((await settings({ restrict_user_defined_variables: false })).status).toBe(200);
    expect((await kiln.api('POST', `${schedules}/${mine.body.id}/variables`, { token: w.developer.token, body: { key: 'DEPLOY', value: 'yes' } })).status).toBe(201);
    await drainJobs();
  });
});

describe('keep_latest_artifact', () => {
  const download = (jobId: number) => kiln.app.inject({ method: 'GET', url: `/api/v4/projects/${w.project.id}/jobs/${jobId}/artifacts`, headers: { 'private-token': w.maintainer.token } });
  const archiveRows = async (jobId: number) => (await kiln.deps.db.selectFrom('ci_job_artifacts').select('id').where('build_id', '=', jobId).execute()).length;

  it("keeps the artifacts of a ref's latest successful pipeline past their expiry, until a newer one succeeds", async () => {
    expect((await runPipeline(w.maintainer.token, 'main')).status).toBe(201);
    const first = await runJob({ artifact: true });
    kiln.clock.advance(2 * 3600_000);
    expect((await download(first.id)).statusCode).toBe(200);
    await expireArtifacts(kiln.deps);
    expect(await archiveRows(first.id)).toBe(1);

    expect((await runPipeline(w.maintainer.token, 'main')).status).toBe(201);
    const second = await runJob({ artifact: true });
    expect((await download(first.id)).statusCode).toBe(404);
    await expireArtifacts(kiln.deps);
    expect(await archiveRows(first.id)).toBe(0);
    expect(await archiveRows(second.id)).toBe(1);

    kiln.clock.advance(2 * 3600_000);
    expect((await download(second.id)).statusCode).toBe(200);
    expect((await settings({ keep_latest_artifact: false })).status).toBe(200);
    expect((await download(second.id)).statusCode).toBe(404);
    await expireArtifacts(kiln.deps);
    expect(await archiveRows(second.id)).toBe(0);
  });
});

describe('ci_separated_caches', () => {
  it('suffixes cache keys after the ref by default, and leaves them as written when off', async () => {
    expect((await runPipeline(w.maintainer.token, 'main')).status).toBe(201);
    expect((await runJob()).cache[0].key).toBe('deps-protected');
    expect((await settings({ ci_separated_caches: false })).status).toBe(200);
    expect((await runPipeline(w.maintainer.token, 'main')).status).toBe(201);
    expect((await runJob()).cache[0].key).toBe('deps');
    expect((await runPipeline(w.maintainer.token, 'topic')).status).toBe(201);
    expect((await runJob()).cache[0].key).toBe('deps');
  });
});
