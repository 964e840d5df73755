// The job payload a runner is handed (POST /jobs/request, 201), compared whole: every key and value of
// jobs of one pipeline, the first and later ones (the commit's CI_COMMIT_* variables are the same for
// each), with dependencies chosen by stage, by `needs` with artifacts and by `dependencies:`, and an
// archive to download where the dependency uploaded one. Hand-out may change how it reads what it
// sends (issue 39), never what it sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryWorld, commit, create, update, type RepositoryWorld } from '../api/repository-api-driver.js';
import { findProjectRow } from '../../src/accounts/api.js';
import { readableRepository } from '../../src/repositories/api.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let runnerToken: string;
let runnerId: number;

const CONFIG = `
stages: [build, test, deploy]
variables: { GREETING: hello }
build:
  stage: build
  tags: [docker]
  script: [make]
  artifacts: { paths: [out/] }
lint:
  stage: build
  script: [lint]
test:
  stage: test
  image: { name: 'node:20', entrypoint: [''] }
  services: [{ name: 'postgres:16', alias: db }]
  before_script: [setup]
  script: [make test]
  after_script: [cleanup]
  timeout: 3h
  variables: { LEVEL: '2' }
  cache: { key: deps, paths: [node_modules/] }
  artifacts: { paths: [report.xml], exclude: ['tmp/*'], when: always, expire_in: 1 week }
  environment: { name: review/$CI_COMMIT_REF_SLUG, url: 'https://review.example.com' }
picky:
  stage: test
  needs: [{ job: build, artifacts: true }, { job: lint, artifacts: false }]
  script: [check]
chosen:
  stage: deploy
  dependencies: [lint]
  script: [deploy]
`;

const runnerCall = (method: string, path: string, body: unknown) => kiln.request(method, `/api/v4${path}`, { body });
const requestJob = () => runnerCall('POST', '/jobs/request', { token: runnerToken, info: { name: 'gitlab-runner', version: '17.0.0', executor: 'shell' } });
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const open = (key: string, value: string) => ({ key, value, public: true, file: false, masked: false, raw: false });

async function take(): Promise<any> {
  const answer = await requestJob();
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json();
}

async function finish(job: any): Promise<void> {
  expect((await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state: 'success' })).statusCode).toBe(200);
}

/** What every job of the pipeline is handed, with the job's own parts from `job`. */
function expected(job: any, pipeline: any, commitDetail: any, own: { name: string; stage: string; startedAt: number; queuedAt: number; variables: object[]; rest: object }) {
  const projectUrl = `http://kiln.test/${w.project.path_with_namespace}`;
  const repoUrl = `http://gitlab-ci-token:${job.token}@kiln.test/${w.project.path_with_namespace}.git`;
  const timeout = own.stage === 'test' && own.name === 'test' ? 7200 : 3600;
  return {
    id: job.id,
    token: job.token,
    allow_git_fetch: true,
    job_info: {
      id: job.id, name: own.name, stage: own.stage, project_id: w.project.id, project_name: 'app', pipeline_id: pipeline.id,
      project_full_path: w.project.path_with_namespace, namespace_id: w.group.id, user_id: w.maintainer.id,
      time_in_queue_seconds: Math.round((own.startedAt - own.queuedAt) / 1000),
    },
    git_info: {
      repo_url: repoUrl, ref: 'main', sha: pipeline.sha, before_sha: pipeline.before_sha, ref_type: 'branch',
      refspecs: ['+refs/heads/main:refs/remotes/origin/main'], depth: 20, repo_object_format: 'sha1',
    },
    runner_info: { timeout, runner_session_url: null },
    variables: [
      open('CI', 'true'),
      open('GITLAB_CI', 'true'),
      open('CI_SERVER_URL', 'http://kiln.test'),
      open('CI_SERVER_HOST', 'kiln.test'),
      open('CI_SERVER_FQDN', 'kiln.test'),
      open('CI_SERVER_PORT', '80'),
      open('CI_SERVER_PROTOCOL', 'http'),
      open('CI_SERVER_NAME', 'GitLab'),
      open('CI_API_V4_URL', 'http://kiln.test/api/v4'),
      open('CI_PROJECT_ID', String(w.project.id)),
      open('CI_PROJECT_NAME', 'app'),
      open('CI_PROJECT_TITLE', 'app'),
      open('CI_PROJECT_PATH', w.project.path_with_namespace),
      open('CI_PROJECT_PATH_SLUG', w.project.path_with_namespace.replace('/', '-')),
      open('CI_PROJECT_NAMESPACE', w.group.full_path),
      open('CI_PROJECT_ROOT_NAMESPACE', w.group.full_path),
      open('CI_PROJECT_URL', projectUrl),
      open('CI_PROJECT_VISIBILITY', 'private'),
      open('CI_CONFIG_PATH', '.gitlab-ci.yml'),
      open('CI_DEFAULT_BRANCH', 'main'),
      open('CI_COMMIT_SHA', pipeline.sha),
      open('CI_COMMIT_SHORT_SHA', pipeline.sha.slice(0, 8)),
      open('CI_COMMIT_BEFORE_SHA', pipeline.before_sha),
      open('CI_COMMIT_REF_NAME', 'main'),
      open('CI_COMMIT_REF_SLUG', 'main'),
      open('CI_COMMIT_BRANCH', 'main'),
      open('CI_COMMIT_MESSAGE', 'Add CI\n\nWith a body.'),
      open('CI_COMMIT_TITLE', 'Add CI'),
      open('CI_COMMIT_DESCRIPTION', 'With a body.'),
      open('CI_COMMIT_AUTHOR', `${commitDetail.author_name} <${commitDetail.author_email}>`),
      open('CI_COMMIT_TIMESTAMP', iso(Date.parse(commitDetail.committed_date))),
      open('CI_PIPELINE_SOURCE', 'push'),
      open('CI_SERVER', 'yes'),
      open('CI_PIPELINE_ID', String(pipeline.id)),
      open('CI_PIPELINE_IID', String(pipeline.iid)),
      open('CI_PIPELINE_URL', `${projectUrl}/-/pipelines/${pipeline.id}`),
      open('CI_PIPELINE_CREATED_AT', iso(Date.parse(pipeline.created_at))),
      open('CI_JOB_ID', String(job.id)),
      open('CI_JOB_NAME', own.name),
      open('CI_JOB_STAGE', own.stage),
      open('CI_JOB_URL', `${projectUrl}/-/jobs/${job.id}`),
      open('CI_JOB_STARTED_AT', iso(own.startedAt)),
      { ...open('CI_JOB_TOKEN', job.token), public: false, masked: true },
      { ...open('CI_REPOSITORY_URL', repoUrl), public: false },
      open('CI_REGISTRY_USER', 'gitlab-ci-token'),
      open('CI_NODE_TOTAL', '1'),
      open('CI_RUNNER_ID', String(runnerId)),
      open('CI_RUNNER_DESCRIPTION', 'payload runner'),
      open('CI_RUNNER_TAGS', '["docker"]'),
      open('GITLAB_USER_ID', String(w.maintainer.id)),
      open('GITLAB_USER_LOGIN', w.maintainer.username),
      open('GITLAB_USER_NAME', `User ${w.maintainer.username}`),
      open('GITLAB_USER_EMAIL', `${w.maintainer.username}@example.com`),
      ...own.variables,
      { ...open('PROJECT_SECRET', 's3cret-value'), public: false, masked: true },
    ],
    features: { trace_sections: true, failure_reasons: ['unknown_failure', 'script_failure', 'runner_system_failure', 'job_execution_timeout', 'stuck_or_timeout_failure', 'runner_unsupported', 'api_failure'] },
    credentials: [],
    ...own.rest,
  };
}

const plain = (script: string[]) => ({
  steps: [{ name: 'script', script, timeout: 3600, when: 'on_success', allow_failure: false }],
  image: null,
  services: [],
  artifacts: null,
  cache: [],
});

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  const runner = await kiln.apiAs(w.maintainer, 'POST', '/user/runners', { runner_type: 'project_type', project_id: w.project.id, description: 'payload runner', tag_list: ['docker'], maximum_timeout: 7200 });
  runnerToken = runner.token;
  runnerId = runner.id;
  await kiln.apiAs(w.maintainer, 'POST', `/projects/${w.project.id}/variables`, { key: 'PROJECT_SECRET', value: 's3cret-value', masked: true });
});

afterAll(async () => {
  await kiln?.close();
});

describe('the job payload', () => {
  it('is the same whole for the first and every later job of a pipeline', async () => {
    const made = await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'Add CI\n\nWith a body.', actions: [create('.gitlab-ci.yml', CONFIG)] });
    await kiln.worker.drain();
    const pipeline = (await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/pipelines`))[0];
    const pipelineFull = await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/pipelines/${pipeline.id}`);
    const shownPipeline = { ...pipelineFull, before_sha: pipelineFull.before_sha ?? '0000000000000000000000000000000000000000' };
    const commitDetail = await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/repository/commits/${made.id}`);
    const queuedAt = kiln.clock.now();
    kiln.clock.advance(5_000);
    const startedAt = kiln.clock.now();
    const fileVars = [open('GREETING', 'hello')];

    const build = await take();
    expect(build).toEqual(expected(build, shownPipeline, commitDetail, {
      name: 'build', stage: 'build', startedAt, queuedAt, variables: fileVars,
      rest: { ...plain(['make']), artifacts: [{ name: 'artifacts', untracked: false, paths: ['out/'], when: 'on_success', expire_in: null, artifact_type: 'archive', artifact_format: 'zip' }], dependencies: [] },
    }));
    const lint = await take();
    expect(lint).toEqual(expected(lint, shownPipeline, commitDetail, { name: 'lint', stage: 'build', startedAt, queuedAt, variables: fileVars, rest: { ...plain(['lint']), dependencies: [] } }));
    expect((await requestJob()).statusCode).toBe(204);

    const upload = `--b\r\nContent-Disposition: form-data; name="file"; filename="build.zip"\r\nContent-Type: application/zip\r\n\r\nPK-build\r\n--b--\r\n`;
    const uploaded = await kiln.app.inject({ method: 'POST', url: `/api/v4/jobs/${build.id}/artifacts`, payload: Buffer.from(upload), headers: { 'content-type': 'multipart/form-data; boundary=b', 'job-token': build.token } });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    await finish(build);
    await finish(lint);

    const testJob = await take();
    const testStarted = kiln.clock.now();
    expect(testJob).toEqual(expected(testJob, shownPipeline, commitDetail, {
      name: 'test', stage: 'test', startedAt: testStarted, queuedAt: testStarted,
      variables: [
        open('CI_ENVIRONMENT_NAME', 'review/main'),
        open('CI_ENVIRONMENT_SLUG', 'review-main'),
        open('CI_ENVIRONMENT_ACTION', 'start'),
        open('CI_ENVIRONMENT_URL', 'https://review.example.com'),
        open('CI_JOB_IMAGE', 'node:20'),
        open('GREETING', 'hello'),
        open('LEVEL', '2'),
      ],
      rest: {
        steps: [
          { name: 'script', script: ['setup', 'make test'], timeout: 7200, when: 'on_success', allow_failure: false },
          { name: 'after_script', script: ['cleanup'], timeout: 7200, when: 'always', allow_failure: true },
        ],
        image: { name: 'node:20', entrypoint: [''], ports: [] },
        services: [{ name: 'postgres:16', entrypoint: null, ports: [], alias: 'db', command: null, variables: [] }],
        artifacts: [{ name: 'artifacts', untracked: false, paths: ['report.xml'], exclude: ['tmp/*'], when: 'always', expire_in: '1 week', artifact_type: 'archive', artifact_format: 'zip' }],
        cache: [{ key: 'deps-protected', untracked: false, paths: ['node_modules/'], policy: 'pull-push', when: 'on_success', fallback_keys: [] }],
        dependencies: [
          { id: build.id, name: 'build', token: testJob.token, artifacts_file: { filename: 'build.zip', size: 8 } },
          { id: lint.id, name: 'lint', token: testJob.token },
        ],
      },
    }));
    const picky = await take();
    expect(picky).toEqual(expected(picky, shownPipeline, commitDetail, {
      name: 'picky', stage: 'test', startedAt: testStarted, queuedAt: testStarted, variables: fileVars,
      rest: { ...plain(['check']), dependencies: [{ id: build.id, name: 'build', token: picky.token, artifacts_file: { filename: 'build.zip', size: 8 } }] },
    }));
    await finish(testJob);
    await finish(picky);

    const chosen = await take();
    expect(chosen).toEqual(expected(chosen, shownPipeline, commitDetail, {
      name: 'chosen', stage: 'deploy', startedAt: testStarted, queuedAt: testStarted, variables: fileVars,
      rest: { ...plain(['deploy']), dependencies: [{ id: lint.id, name: 'lint', token: chosen.token }] },
    }));
  });

  // The commit is read once for the pipeline's jobs; whether the repository is there is asked each time.
  it("reads the pipeline's commit once, and gives no commit when the repository is gone", async () => {
    const made = await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'Three jobs', actions: [update('.gitlab-ci.yml', 'a:\n  script: [a]\nb:\n  script: [b]\nc:\n  script: [c]\n')] });
    await kiln.worker.drain();
    const message = async () => (await take()).variables.find((variable: any) => variable.key === 'CI_COMMIT_MESSAGE')?.value;
    expect(await message()).toBe('Three jobs');
    const repository = (await readableRepository(kiln.deps, (await findProjectRow(kiln.deps, w.project.id))!))!;
    const object = join(repository, 'objects', made.id.slice(0, 2), made.id.slice(2));
    const bytes = readFileSync(object);
    rmSync(object);
    try {
      expect(await message()).toBe('Three jobs');
    } finally {
      writeFileSync(object, bytes);
    }
    renameSync(join(repository, 'HEAD'), join(repository, 'HEAD.away'));
    try {
      expect(await message()).toBeUndefined();
    } finally {
      renameSync(join(repository, 'HEAD.away'), join(repository, 'HEAD'));
    }
  });
});
