// `kiln runner` against a real Kiln on loopback (issue 39, "How it is shown"): a project pushed with
// git whose .gitlab-ci.yml has build → test → deploy to staging with artifacts passed between stages
// and a manual production job; a runner created with a glrt- token from the API runs it to green over
// the runner protocol (long polling, log with Content-Range, artifacts up and down, the job token for
// git); the staging environment's deployable then carries real values; a failing script fails the job
// and the pipeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { TestKiln, TestUser } from '../helpers/kiln.js';
import { closePipelineProject, finishedPipeline as finishedPipelineOf, jobTrace, pipelineProject, pushFiles, runnerEnv, type PipelineProject } from '../helpers/pipeline-runs.js';
import { startRunner, type RunningRunner } from '../../src/runner/index.js';

let setup: PipelineProject;
let kiln: TestKiln;
let maintainer: TestUser;
let project: any;
let runner: RunningRunner;
let runnerId: number;

const CONFIG = `
stages: [build, test, deploy]
build:
  stage: build
  script:
    - mkdir -p dist
    - echo "built $CI_COMMIT_SHORT_SHA" > dist/app.txt
  artifacts:
    paths: [dist/]
    expire_in: 1 week
test:
  stage: test
  before_script:
    - test -f dist/app.txt
  script:
    - grep built dist/app.txt
    - ./check.sh
    - echo "token=$CI_JOB_TOKEN"
  after_script:
    - echo cleaning up
deploy-staging:
  stage: deploy
  script:
    - echo "deploying $(cat dist/app.txt) to $CI_ENVIRONMENT_NAME" | tee deploy.log
  environment:
    name: staging
    url: https://staging.example.com
  artifacts:
    paths: [deploy.log]
production:
  stage: deploy
  script: echo "to production"
  environment: { name: production }
  when: manual
`;

const pushCommit = (message: string, files: Record<string, string>) => pushFiles(setup, message, files, () => chmodSync(join(setup.dir, 'check.sh'), 0o755));
const finishedPipeline = (sha: string) => finishedPipelineOf(setup, sha);
const trace = (jobId: number) => jobTrace(setup, jobId);

beforeAll(async () => {
  setup = await pipelineProject('kiln-runner-e2e-', { description: 'e2e shell' });
  ({ kiln, maintainer, project } = setup);
  expect(setup.runner.token).toMatch(/^glrt-/);
  runnerId = setup.runner.id;
  // The job's git URL names the configured base URL (kiln.test); the runner reaches the server by loopback.
  runner = await startRunner({ url: setup.base, token: setup.runner.token, cloneUrl: setup.base, concurrent: 2, buildsDir: join(setup.work, 'builds'), baseEnv: runnerEnv(setup), traceIntervalMs: 200 });
}, 60_000);

afterAll(() => closePipelineProject(setup, runner));

describe('kiln runner runs a pipeline pushed with git', () => {
  let sha: string;
  let result: Awaited<ReturnType<typeof finishedPipeline>>;

  it('runs build → test → deploy to green, passing artifacts between stages', async () => {
    sha = await pushCommit('ci', { '.gitlab-ci.yml': CONFIG, 'check.sh': '#!/bin/sh\necho "checked out $(git rev-parse HEAD)"\n' });
    result = await finishedPipeline(sha);
    expect(result.pipeline.status).toBe('success');
    const { jobs } = result;
    expect(Object.fromEntries(Object.entries(jobs).map(([name, job]) => [name, job.status]))).toEqual({ build: 'success', test: 'success', 'deploy-staging': 'success', production: 'manual' });
    const testLog = await trace(jobs.test.id);
    expect(testLog).toContain('Downloading artifacts for build');
    // GitLab Runner's sections around the steps, which the job page folds.
    // eslint-disable-next-line no-control-regex
    expect(testLog).toMatch(/section_start:\d+:get_sources\r\u001b\[0K\u001b\[32;1mGetting source from Git repository/);
    // eslint-disable-next-line no-control-regex
    expect(testLog).toMatch(/section_start:\d+:step_script\r\u001b\[0K[^]*section_end:\d+:step_script\r\u001b\[0K/);
    expect(testLog).toContain(`$ grep built dist/app.txt`);
    expect(testLog).toContain(`built ${sha.slice(0, 8)}`);
    expect(testLog).toContain(`checked out ${sha}`);
    expect(testLog).toContain('cleaning up');
    // The job token is masked in the log, as every masked variable is.
    expect(testLog).toContain('token=[MASKED]');
    expect(testLog).not.toMatch(/glcbt-/);
    expect(await trace(jobs['deploy-staging'].id)).toContain(`deploying built ${sha.slice(0, 8)} to staging`);
  }, 120_000);

  it('uploads the artifacts as a zip users can download', async () => {
    const download = await kiln.request('GET', `/api/v4/projects/${project.id}/jobs/${result.jobs.build.id}/artifacts`, { token: maintainer.token });
    expect(download.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(download.rawPayload));
    expect(Object.keys(files)).toEqual(['dist/app.txt']);
    expect(Buffer.from(files['dist/app.txt']).toString()).toBe(`built ${sha.slice(0, 8)}\n`);
  });

  it("shows the staging deployment's job with real values", async () => {
    const [staging] = await kiln.apiAs(maintainer, 'GET', `/projects/${project.id}/environments?name=staging`);
    const environment = await kiln.apiAs(maintainer, 'GET', `/projects/${project.id}/environments/${staging.id}`);
    expect(environment.external_url).toBe('https://staging.example.com');
    const deployable = environment.last_deployment.deployable;
    expect(Object.keys(deployable).sort()).toEqual(['artifacts', 'artifacts_expire_at', 'commit', 'coverage', 'created_at', 'duration', 'finished_at', 'id', 'name', 'pipeline', 'ref', 'runner', 'stage', 'started_at', 'status', 'tag', 'user', 'web_url']);
    expect(deployable).toMatchObject({
      id: result.jobs['deploy-staging'].id, status: 'success', stage: 'deploy', name: 'deploy-staging', ref: 'main', tag: false,
      user: { username: 'maintainer' }, commit: { id: sha }, pipeline: { id: result.pipeline.id, sha, status: 'success' },
      runner: { id: runnerId, description: 'e2e shell' },
    });
    expect(deployable.artifacts).toEqual([expect.objectContaining({ file_type: 'archive', file_format: 'zip', filename: 'artifacts.zip', size: expect.any(Number) })]);
    expect(deployable.artifacts[0].size).toBeGreaterThan(0);
  });

  it('runs the manual production job when played', async () => {
    await kiln.apiAs(maintainer, 'POST', `/projects/${project.id}/jobs/${result.jobs.production.id}/play`);
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const job = await kiln.apiAs(maintainer, 'GET', `/projects/${project.id}/jobs/${result.jobs.production.id}`);
      if (job.status === 'success') break;
      expect(['pending', 'running']).toContain(job.status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [production] = await kiln.apiAs(maintainer, 'GET', `/projects/${project.id}/environments?name=production`);
    const environment = await kiln.apiAs(maintainer, 'GET', `/projects/${project.id}/environments/${production.id}`);
    expect(environment.last_deployment.deployable).toMatchObject({ name: 'production', status: 'success' });
    expect(await trace(result.jobs.production.id)).toContain('to production');
  }, 120_000);

  it('fails the job and the pipeline when a script fails', async () => {
    const failing = await pushCommit('break the tests', { 'check.sh': '#!/bin/sh\necho "broken"\nexit 3\n' });
    const { pipeline, jobs } = await finishedPipeline(failing);
    expect(pipeline.status).toBe('failed');
    expect(jobs.build.status).toBe('success');
    expect(jobs.test).toMatchObject({ status: 'failed', failure_reason: 'script_failure' });
    expect(jobs['deploy-staging'].status).toBe('skipped');
    const log = await trace(jobs.test.id);
    expect(log).toContain('broken');
    expect(log).toContain('ERROR: Job failed: exit code 3');
    expect(log).not.toContain('token=');
  }, 120_000);

  it('skips git for GIT_STRATEGY none and fetches the whole history for GIT_DEPTH 0', async () => {
    const config = `
nogit:
  variables: { GIT_STRATEGY: none }
  script: ['test ! -e .git && echo "no checkout here"']
full:
  variables: { GIT_DEPTH: '0' }
  script: ['echo "shallow: $(git rev-parse --is-shallow-repository)"', 'git branch -r']
`;
    const pushed = await pushCommit('git settings', { '.gitlab-ci.yml': config });
    const { pipeline, jobs } = await finishedPipeline(pushed);
    expect(pipeline.status).toBe('success');
    const nogit = await trace(jobs.nogit.id);
    expect(nogit).toContain('Skipping Git repository setup');
    expect(nogit).toContain('no checkout here');
    const full = await trace(jobs.full.id);
    expect(full).toContain('Fetching changes with git depth set to 0...');
    expect(full).toContain('shallow: false');
    expect(full).toContain('origin/main');
  }, 120_000);
});
