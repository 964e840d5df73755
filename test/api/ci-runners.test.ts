// The runner protocol (issue 39) driven over HTTP as GitLab Runner drives it: registration with a
// legacy registration token and with a `glrt-` token, verify, jobs/request (each job to exactly one
// runner, also with concurrent requests; long polling on X-GitLab-Last-Update), the job payload, job
// updates, the log with Content-Range, artifacts up and down, and the runners API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let runnerToken: string;
let runnerId: number;

const CONFIG = `
stages: [build, test]
variables: { GREETING: hello }
build:
  stage: build
  tags: [docker]
  image: node:20
  services: [postgres:16]
  script: [echo build > out.txt]
  artifacts: { paths: [out.txt], expire_in: 1 day }
${Array.from({ length: 4 }, (_, i) => `par${i}:\n  stage: build\n  script: echo ${i}\n`).join('')}
test:
  stage: test
  script: cat out.txt
  after_script: [echo done]
  environment: { name: review/$CI_COMMIT_REF_SLUG }
`;

const raw = (method: string, url: string, payload: Buffer, headers: Record<string, string>) => kiln.app.inject({ method: method as 'POST', url, payload, headers });
const runnerCall = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => kiln.request(method, `/api/v4${path}`, { body, headers });
const requestJob = (token = runnerToken, extra: Record<string, unknown> = {}) => runnerCall('POST', '/jobs/request', { token, info: { name: 'gitlab-runner', version: '17.0.0', executor: 'shell' }, ...extra });

function multipart(fields: Record<string, string>, file: { name: string; filename: string; data: Buffer }) {
  const parts: Buffer[] = [];
  const boundary = '----kilnboundary';
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: application/zip\r\n\r\n`), file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

beforeAll(async () => {
  kiln = await testKiln({ ciLongPollMs: 20_000 });
  w = await repositoryWorld(kiln);
});

afterAll(async () => {
  await kiln?.close();
});

describe('registration', () => {
  it('registers with a registration token and keeps only digests', async () => {
    const reset = await kiln.api('POST', `/projects/${w.project.id}/runners/reset_registration_token`, { token: w.maintainer.token });
    expect(reset.status).toBe(201);
    expect((await runnerCall('POST', '/runners', { token: 'nope' })).statusCode).toBe(403);
    const registered = await runnerCall('POST', '/runners', { token: reset.body.token, description: 'laptop', tag_list: 'docker,linux', info: { version: '17.0.0', platform: 'linux' } });
    expect(registered.statusCode).toBe(201);
    const body = registered.json();
    runnerToken = body.token;
    runnerId = body.id;
    expect(body).toMatchObject({ id: expect.any(Number), token: expect.any(String), token_expires_at: null });
    expect((await runnerCall('POST', '/runners/verify', { token: runnerToken })).statusCode).toBe(200);
    expect((await runnerCall('POST', '/runners/verify', { token: 'wrong' })).statusCode).toBe(403);
    const stored = await kiln.deps.db.selectFrom('ci_runners').select('token_digest').execute();
    expect(stored.map((row) => row.token_digest)).not.toContain(runnerToken);
    expect((await runnerCall('POST', '/runners', { token: reset.body.token, run_untagged: false })).json()).toEqual({ message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } });
    expect((await runnerCall('POST', '/runners', { token: reset.body.token, maximum_timeout: 60 })).json()).toEqual({ message: { maximum_timeout: ['needs to be at least 10 minutes'] } });
  });

  it('creates glrt- runners for users who may, and answers the runners API', async () => {
    const created = await kiln.api('POST', '/user/runners', { token: w.maintainer.token, body: { runner_type: 'project_type', project_id: w.project.id, description: 'second', tag_list: ['docker'] } });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^glrt-/);
    expect((await kiln.api('POST', '/user/runners', { token: w.developer.token, body: { runner_type: 'project_type', project_id: w.project.id } })).status).toBe(403);
    expect((await kiln.api('POST', '/user/runners', { token: w.maintainer.token, body: { runner_type: 'instance_type' } })).status).toBe(403);
    const verified = await runnerCall('POST', '/runners/verify', { token: created.body.token });
    expect(verified.json()).toMatchObject({ id: created.body.id });
    const one = await kiln.api('GET', `/runners/${runnerId}`, { token: w.maintainer.token });
    expect(one.body).toMatchObject({ id: runnerId, description: 'laptop', tag_list: ['docker', 'linux'], runner_type: 'project_type', is_shared: false, paused: false, status: 'online', version: '17.0.0', projects: [{ id: w.project.id }] });
    expect((await kiln.api('GET', `/runners/${runnerId}`, { token: w.developer.token })).status).toBe(403);
    const listed = await kiln.api('GET', `/projects/${w.project.id}/runners`, { token: w.maintainer.token });
    expect(listed.body.map((runner: any) => runner.id).sort()).toEqual([runnerId, created.body.id].sort());
    expect((await kiln.api('GET', '/runners', { token: w.maintainer.token })).body.map((runner: any) => runner.id)).toEqual([created.body.id]);
    const deleted = await runnerCall('DELETE', '/runners', { token: created.body.token });
    expect(deleted.statusCode).toBe(204);
  });
});

describe('jobs', () => {
  let pipelineId: number;
  let build: any;
  let taken: any[];

  it('hands each pending job to exactly one runner, also to concurrent requests', async () => {
    const empty = await requestJob();
    expect(empty.statusCode).toBe(204);
    const lastUpdate = String(empty.headers['x-gitlab-last-update']);
    // A long poll with the current value waits until a job may be pending, then looks for one: the
    // oldest, `build`, which needs the docker tag this runner has.
    const polling = requestJob(runnerToken, { last_update: lastUpdate });
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'ci', actions: [create('.gitlab-ci.yml', CONFIG)] });
    await kiln.worker.drain();
    const woken = await polling;
    expect(woken.statusCode).toBe(201);
    build = woken.json();
    expect(build.job_info.name).toBe('build');
    pipelineId = (await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/pipelines`))[0].id;

    const other = (await runnerCall('POST', '/runners', { token: (await kiln.apiAs(w.maintainer, 'POST', `/projects/${w.project.id}/runners/reset_registration_token`)).token })).json().token;
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => requestJob(i % 2 ? other : runnerToken)));
    taken = [build, ...answers.filter((answer) => answer.statusCode === 201).map((answer) => answer.json())];
    // Five build-stage jobs, each handed out once.
    expect(taken.map((job) => job.job_info.name).sort()).toEqual(['build', 'par0', 'par1', 'par2', 'par3']);
    expect(new Set(taken.map((job) => job.id)).size).toBe(5);
    expect(answers.filter((answer) => answer.statusCode === 204)).toHaveLength(4);
    // A 204 carries the queue value to long-poll on next.
    const idle = answers.find((answer) => answer.statusCode === 204)!;
    expect(idle.headers['x-gitlab-last-update']).not.toBe(lastUpdate);
  });

  it('gives the runner the payload GitLab Runner expects', async () => {
    expect(build).toMatchObject({
      allow_git_fetch: true,
      job_info: { name: 'build', stage: 'build', project_id: w.project.id, pipeline_id: pipelineId },
      git_info: { ref: 'main', ref_type: 'branch', refspecs: ['+refs/heads/main:refs/remotes/origin/main'], depth: 20 },
      runner_info: { timeout: 3600, runner_session_url: null },
      steps: [{ name: 'script', script: ['echo build > out.txt'], timeout: 3600, when: 'on_success', allow_failure: false }],
      image: { name: 'node:20' },
      services: [{ name: 'postgres:16' }],
      artifacts: [{ name: 'artifacts', paths: ['out.txt'], when: 'on_success', expire_in: '1 day', artifact_type: 'archive', artifact_format: 'zip' }],
      dependencies: [],
      features: { trace_sections: true },
    });
    expect(build.token).toMatch(/^glcbt-/);
    expect(build.git_info.repo_url).toBe(`http://gitlab-ci-token:${build.token}@kiln.test/${w.project.path_with_namespace}.git`);
    const variables = Object.fromEntries(build.variables.map((variable: any) => [variable.key, variable]));
    expect(variables.CI_JOB_TOKEN).toMatchObject({ value: build.token, public: false, masked: true });
    expect(variables.CI_COMMIT_REF_NAME.value).toBe('main');
    expect(variables.CI_PROJECT_PATH.value).toBe(w.project.path_with_namespace);
    expect(variables.CI_JOB_ID.value).toBe(String(build.id));
    expect(variables.CI_PIPELINE_ID.value).toBe(String(pipelineId));
    expect(variables.GREETING.value).toBe('hello');
    expect(variables.GITLAB_USER_LOGIN.value).toBe(w.maintainer.username);
    const stored = await kiln.deps.db.selectFrom('ci_builds').select('token_digest').where('id', '=', build.id).executeTakeFirstOrThrow();
    expect(stored.token_digest).not.toBe(build.token);
    expect((await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/jobs/${build.id}`))).toMatchObject({ status: 'running', runner: { id: runnerId } });
  });

  it('appends the log by Content-Range, with 416 on a mismatch', async () => {
    const patch = (start: number, text: string, headers: Record<string, string> = {}) =>
      raw('PATCH', `/api/v4/jobs/${build.id}/trace`, Buffer.from(text), { 'content-type': 'text/plain', 'job-token': build.token, 'content-range': `${start}-${start + text.length - 1}`, ...headers });
    const first = await patch(0, 'hello ');
    expect(first.statusCode).toBe(202);
    expect(first.headers.range).toBe('0-6');
    const wrong = await patch(3, 'again');
    expect(wrong.statusCode).toBe(416);
    expect(wrong.headers.range).toBe('0-6');
    expect(wrong.json()).toEqual({ message: '416 Range Not Satisfiable' });
    expect((await patch(6, 'world\n')).headers.range).toBe('0-12');
    const missing = await raw('PATCH', `/api/v4/jobs/${build.id}/trace`, Buffer.from('x'), { 'content-type': 'text/plain', 'job-token': build.token });
    expect(missing.json()).toEqual({ message: '400 Missing header Content-Range' });
    expect((await patch(12, 'x', { 'job-token': 'forged' })).statusCode).toBe(403);
    const trace = await kiln.request('GET', `/api/v4/projects/${w.project.id}/jobs/${build.id}/trace`, { token: w.reporter.token });
    expect(trace.body).toBe('hello world\n');
  });

  it('takes artifacts and passes them to the next stage; finishes jobs with GitLab states', async () => {
    const upload = multipart({ artifact_type: 'archive', artifact_format: 'zip', expire_in: '1 day' }, { name: 'file', filename: 'artifacts.zip', data: Buffer.from('PK-zip-bytes') });
    const uploaded = await raw('POST', `/api/v4/jobs/${build.id}/artifacts`, upload.body, { 'content-type': upload.contentType, 'job-token': build.token });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const finished = await runnerCall('PUT', `/jobs/${build.id}`, { token: build.token, state: 'success' });
    expect(finished.statusCode).toBe(200);
    const again = await runnerCall('PUT', `/jobs/${build.id}`, { token: build.token, state: 'success' });
    expect(again.statusCode).toBe(403);
    expect(again.headers['job-status']).toBe('success');
    for (const job of taken.filter((other) => other.id !== build.id)) {
      expect((await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state: 'success' })).statusCode).toBe(200);
    }
    const test = await requestJob();
    expect(test.statusCode).toBe(201);
    const job = test.json();
    expect(job.job_info.name).toBe('test');
    expect(job.steps[1]).toEqual({ name: 'after_script', script: ['echo done'], timeout: 3600, when: 'always', allow_failure: true });
    expect(job.dependencies.find((dependency: any) => dependency.name === 'build')).toEqual({ id: build.id, name: 'build', token: job.token, artifacts_file: { filename: 'artifacts.zip', size: 12 } });
    const download = await kiln.request('GET', `/api/v4/jobs/${build.id}/artifacts`, { headers: { 'job-token': job.token } });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.toString()).toBe('PK-zip-bytes');
    expect((await kiln.request('GET', `/api/v4/jobs/${build.id}/artifacts`, { headers: { 'job-token': build.token } })).statusCode).toBe(403);
    const variables = Object.fromEntries(job.variables.map((variable: any) => [variable.key, variable.value]));
    expect(variables.CI_ENVIRONMENT_NAME).toBe('review/main');
    // CI_JOB_TOKEN: git over HTTP reads the (private) project as the job's user, and GET /job answers the job.
    const basic = (token: string) => `Basic ${Buffer.from(`gitlab-ci-token:${token}`).toString('base64')}`;
    const refs = `/${w.project.path_with_namespace}.git/info/refs?service=git-upload-pack`;
    expect((await kiln.app.inject({ method: 'GET', url: refs, headers: { authorization: basic(job.token) } })).statusCode).toBe(200);
    expect((await kiln.app.inject({ method: 'GET', url: refs, headers: { authorization: basic('glcbt-forged') } })).statusCode).toBe(401);
    expect((await kiln.app.inject({ method: 'GET', url: '/api/v4/job', headers: { 'job-token': job.token } })).json()).toMatchObject({ id: job.id, name: 'test', status: 'running' });
    const failed = await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state: 'failed', failure_reason: 'script_failure', exit_code: 1 });
    expect(failed.statusCode).toBe(200);
    const shown = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/jobs/${job.id}`);
    expect(shown).toMatchObject({ status: 'failed', failure_reason: 'script_failure' });
    expect((await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/pipelines/${pipelineId}`)).status).toBe('failed');
    const deployments = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/deployments`);
    expect(deployments[0]).toMatchObject({ status: 'failed', deployable: { id: job.id, name: 'test', status: 'failed' } });
    // The job token ends with the job.
    expect((await kiln.app.inject({ method: 'GET', url: refs, headers: { authorization: basic(job.token) } })).statusCode).toBe(401);
    expect((await kiln.app.inject({ method: 'GET', url: '/api/v4/job', headers: { 'job-token': job.token } })).json()).toEqual({ message: '401 Unauthorized' });
    expect((await kiln.app.inject({ method: 'POST', url: `/${w.project.path_with_namespace}.git/git-receive-pack`, headers: { authorization: basic(build.token) } })).statusCode).toBe(401);
    expect((await raw('PATCH', `/api/v4/jobs/${job.id}/trace`, Buffer.from('x'), { 'content-type': 'text/plain', 'job-token': job.token, 'content-range': '0-0' })).statusCode).toBe(403);
  });

  it('gives a paused runner nothing, and forgets a runner that unregisters', async () => {
    await kiln.api('POST', `/projects/${w.project.id}/pipelines/${pipelineId}/retry`, { token: w.maintainer.token });
    await kiln.apiAs(w.maintainer, 'PUT', `/runners/${runnerId}`, { paused: true });
    expect((await requestJob()).statusCode).toBe(204);
    await kiln.apiAs(w.maintainer, 'PUT', `/runners/${runnerId}`, { paused: false });
    const retried = await requestJob();
    expect(retried.statusCode).toBe(201);
    expect(retried.json().job_info.name).toBe('test');
    expect((await runnerCall('DELETE', '/runners', { token: runnerToken })).statusCode).toBe(204);
    expect((await requestJob()).statusCode).toBe(403);
  });
});

describe('pre-assign checks', () => {
  it("fails a blocked user's pending job with user_blocked instead of handing it out, and retries none of it", async () => {
    const pusher = await kiln.createUser('blocked-pusher');
    const project = await kiln.apiAs(pusher, 'POST', '/projects', { name: 'blocked-ci', initialize_with_readme: true });
    const registration = (await kiln.apiAs(pusher, 'POST', `/projects/${project.id}/runners/reset_registration_token`)).token;
    const runner = (await runnerCall('POST', '/runners', { token: registration })).json().token;
    await commit(kiln, pusher.token, project.id, { branch: 'main', commit_message: 'ci', actions: [create('.gitlab-ci.yml', 'job:\n  script: echo hi\n  retry: 2\n')] });
    await kiln.worker.drain();
    const root = { token: kiln.root.token };
    expect((await kiln.api('POST', `/users/${pusher.id}/block`, root)).status).toBe(201);

    expect((await requestJob(runner)).statusCode).toBe(204);
    await kiln.worker.drain();
    // Failed once, with GitLab's reason, and not retried (`retry: 2` does not repeat it).
    const jobs = (await kiln.api('GET', `/projects/${project.id}/jobs?include_retried=true`, root)).body;
    expect(jobs.map((job: any) => [job.name, job.status, job.failure_reason])).toEqual([['job', 'failed', 'user_blocked']]);
    const pipeline = (await kiln.api('GET', `/projects/${project.id}/pipelines`, root)).body[0];
    expect(pipeline.status).toBe('failed');

    // Unblocked, the user's next pipeline runs.
    await kiln.api('POST', `/users/${pusher.id}/unblock`, root);
    await kiln.api('POST', `/projects/${project.id}/pipeline`, { ...root, body: { ref: 'main' } });
    await kiln.worker.drain();
    const handed = await requestJob(runner);
    expect(handed.statusCode).toBe(201);
    expect(handed.json().job_info.name).toBe('job');
  });
});
