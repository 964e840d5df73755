// `parallel:` and `parallel: matrix:` (issue 39), as GitLab expands them: a job becomes its instances
// (`NAME 1/N`, `NAME: [v1, v2]`) with CI_NODE_INDEX / CI_NODE_TOTAL and the matrix values as variables
// (also in `tags`), `needs` and `dependencies` naming a parallel job mean all its instances,
// `needs:parallel:matrix` picks some; GitLab's messages for bad values; the lint (API and page), the
// pipeline, its processing and a runner's payload all see the instances.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { parseCiConfig } from '../../src/ci/config/parse-config.js';
import { selectJobs } from '../../src/ci/pipelines/select-jobs.js';

const CONFIG = `
stages: [build, test, deploy]
variables: { PROVIDER: global }
build:
  stage: build
  script: make
  tags: [$PROVIDER]
  variables: { PROVIDER: job, OWN: kept }
  environment: { name: review/$PROVIDER-$STACK }
  parallel:
    matrix:
      - PROVIDER: aws
        STACK: [app1, app2]
      - PROVIDER: gcp
        STACK: data
test:
  stage: test
  script: make test
  parallel: 3
  needs: [build]
aws-app2:
  stage: test
  script: check
  needs:
    - job: build
      parallel:
        matrix:
          - PROVIDER: aws
            STACK: app2
deploy:
  stage: deploy
  script: ./deploy
  needs: [test]
  dependencies: [test]
`;
const BUILDS = ['build: [aws, app1]', 'build: [aws, app2]', 'build: [gcp, data]'];
const TESTS = ['test 1/3', 'test 2/3', 'test 3/3'];

let kiln: TestKiln;
let w: RepositoryWorld;

beforeAll(async () => {
  kiln = await testKiln({ ciLongPollMs: 20_000 });
  w = await repositoryWorld(kiln);
});

afterAll(async () => {
  await kiln?.close();
});

const api = (method: string, path: string, body?: unknown, token = w.maintainer.token) => kiln.api(method, `/projects/${w.project.id}${path}`, { token, body });
const jobsOf = async (pipelineId: number) => (await api('GET', `/pipelines/${pipelineId}/jobs?per_page=100`)).body as any[];
const statuses = (jobs: any[]) => Object.fromEntries(jobs.map((job) => [job.name, job.status]));
const errors = (yaml: string) => parseCiConfig(yaml).errors;
const runnerCall = (method: string, path: string, body: unknown) => kiln.request(method, `/api/v4${path}`, { body });
const requestJob = (token: string) => runnerCall('POST', '/jobs/request', { token, info: { name: 'gitlab-runner', version: '17.0.0', executor: 'shell' } });

async function registerRunner(fields: Record<string, unknown>): Promise<string> {
  const reset = await api('POST', '/runners/reset_registration_token');
  const registered = await runnerCall('POST', '/runners', { token: reset.body.token, ...fields });
  expect(registered.statusCode).toBe(201);
  return registered.json().token;
}

async function setStatus(jobId: number, status: 'running' | 'success' | 'failed') {
  // The runner protocol moves jobs (ci-runners.test.ts drives it); here the test moves them as it would.
  const { inTransaction } = await import('../../src/platform/db/database.js');
  const { processPipeline } = await import('../../src/ci/pipelines/process-pipeline.js');
  await inTransaction(kiln.deps.db, async (trx) => {
    const now = kiln.clock.now();
    const build = await trx.updateTable('ci_builds').set({ status, updated_at: now, ...(status === 'running' ? { started_at: now } : { finished_at: now }) }).where('id', '=', jobId).returningAll().executeTakeFirstOrThrow();
    await processPipeline(trx, kiln.deps, Number(build.commit_id));
  });
}

const variablesOf = (payload: any) => payload.variables.reduce((all: Record<string, string[]>, variable: any) => ({ ...all, [variable.key]: [...(all[variable.key] ?? []), variable.value] }), {});

describe('parallel in .gitlab-ci.yml', () => {
  it('expands a job into its instances, named and numbered as GitLab does, the references following', () => {
    const parsed = parseCiConfig(CONFIG);
    expect(parsed.errors).toEqual([]);
    const jobs = parsed.config!.jobs;
    expect(jobs.map((job) => job.name)).toEqual([...BUILDS, ...TESTS, 'aws-app2', 'deploy']);
    expect(jobs.slice(0, 3).map((job) => [job.node, job.variables])).toEqual([
      [{ index: 1, total: 3 }, { PROVIDER: 'aws', OWN: 'kept', STACK: 'app1' }],
      [{ index: 2, total: 3 }, { PROVIDER: 'aws', OWN: 'kept', STACK: 'app2' }],
      [{ index: 3, total: 3 }, { PROVIDER: 'gcp', OWN: 'kept', STACK: 'data' }],
    ]);
    expect(jobs.find((job) => job.name === 'test 2/3')).toMatchObject({ node: { index: 2, total: 3 }, needs: BUILDS.map((job) => ({ job, artifacts: true, optional: false })) });
    expect(jobs.find((job) => job.name === 'aws-app2')!.needs).toEqual([{ job: 'build: [aws, app2]', artifacts: true, optional: false }]);
    expect(jobs.find((job) => job.name === 'deploy')).toMatchObject({ needs: TESTS.map((job) => ({ job })), dependencies: TESTS });
    expect(jobs.every((job) => job.parallel === undefined)).toBe(true);
    // The first variable's values vary slowest; numbers are their text; `parallel: 1` is one instance.
    const matrix = parseCiConfig('job:\n  script: x\n  parallel:\n    matrix:\n      - A: [1, 2]\n        B: [x, y]\nsolo:\n  script: x\n  parallel: 1\n');
    expect(matrix.config!.jobs.map((job) => job.name)).toEqual(['job: [1, x]', 'job: [1, y]', 'job: [2, x]', 'job: [2, y]', 'solo 1/1']);
    expect(matrix.config!.jobs[3].variables).toEqual({ A: '2', B: 'y' });
  });

  it("lets each instance's rules see its matrix values", () => {
    const config = parseCiConfig('job:\n  script: x\n  parallel: { matrix: [{ CLOUD: [aws, gcp, azure] }] }\n  rules:\n    - if: $CLOUD == "gcp"\n      when: never\n    - when: on_success\n').config!;
    const selected = selectJobs(config, { ref: 'main', tag: false, source: 'push', variables: {} });
    expect(selected.map((job) => job.definition.name)).toEqual(['job: [aws]', 'job: [azure]']);
  });

  it("refuses bad values with GitLab's messages", () => {
    const job = (parallel: string) => `job:\n  script: x\n  parallel: ${parallel}\n`;
    const variables = 'jobs:job:parallel:matrix:variables config should be a hash of key value pairs, value can be an array';
    const cases: Array<[string, string]> = [
      ['0', 'jobs:job:parallel config must be greater than or equal to 1'],
      ['201', 'jobs:job:parallel config must be less than or equal to 200'],
      ['1.5', 'jobs:job:parallel config must be an integer'],
      ['"3"', 'jobs:job:parallel should be an integer or a hash'],
      ['true', 'jobs:job:parallel should be an integer or a hash'],
      ['{}', 'jobs:job:parallel config missing required keys: matrix'],
      ['{ matrix: [{ A: x }], count: 2 }', 'jobs:job:parallel config contains unknown keys: count'],
      ['{ matrix: { A: x } }', 'jobs:job:parallel:matrix config should be an array of hashes'],
      ['{ matrix: [{ A: true }] }', variables],
      ['{ matrix: [{ A: [x, [y]] }] }', variables],
      ['{ matrix: [{ A: null }] }', variables],
      ['{ matrix: [{}] }', 'jobs:job:parallel:matrix:variables config requires at least 1 items'],
    ];
    for (const [parallel, message] of cases) expect(errors(job(parallel)), parallel).toEqual([message]);
    const values = (count: number) => `[${Array.from({ length: count }, (_, i) => i).join(', ')}]`;
    expect(errors(job(`{ matrix: [{ A: ${values(20)}, B: ${values(10)} }, { C: ${values(1)} }] }`))).toEqual(['jobs:job:parallel:matrix config generates too many jobs (maximum is 200)']);
    expect(errors(job(`{ matrix: [{ A: ${values(20)}, B: ${values(10)} }] }`))).toEqual([]);
    // needs:parallel takes a matrix only; naming instances that are not there is an undefined need.
    const need = (parallel: string) => `build:\n  stage: build\n  script: x\n  parallel: { matrix: [{ A: [x, y] }] }\ntest:\n  script: x\n  needs: [{ job: build, parallel: ${parallel} }]\n`;
    expect(errors(need('2'))).toEqual(['jobs:test:needs:need:parallel config cannot use "parallel: <number>".']);
    expect(errors(need('{ matrix: [{ A: z }] }'))).toEqual(['test job: undefined need: build: [z]']);
    // `dependencies` must be in `needs` as written: the parallel job's name covers the instances it picks.
    expect(errors(need('{ matrix: [{ A: x }] }').replace('needs:', 'dependencies: [build]\n  needs:'))).toEqual([]);
    expect(errors(`${need('{ matrix: [{ A: x }] }')}  dependencies: [other]\nother:\n  stage: build\n  script: x\n`)).toEqual(['jobs:test dependencies the other should be part of needs']);
  });
});

describe('the lint', () => {
  it('lists the instances and keeps merged_yaml as written; the API and the page report the errors', async () => {
    const project = await api('POST', '/ci/lint', { content: CONFIG, include_jobs: true }, w.developer.token);
    expect(project.body.valid).toBe(true);
    expect(project.body.jobs.map((job: any) => job.name)).toEqual([...BUILDS, ...TESTS, 'aws-app2', 'deploy']);
    expect(project.body.jobs.find((job: any) => job.name === 'deploy').needs).toEqual(TESTS.map((name) => ({ name })));
    expect(project.body.merged_yaml).toContain('parallel: 3');
    expect(project.body.merged_yaml).not.toContain('test 1/3');
    const tooMany = await kiln.api('POST', '/ci/lint', { token: w.developer.token, body: { content: 'job:\n  script: x\n  parallel: 500\n' } });
    expect(tooMany.body).toEqual({ status: 'invalid', errors: ['jobs:job:parallel config must be less than or equal to 200'], warnings: [], valid: false });
    const web = new WebSession(kiln);
    await web.signIn(w.developer.username, w.developer.password);
    const page = `/${w.project.path_with_namespace}/-/ci/lint`;
    const valid = await web.post(page, { content: CONFIG });
    expect(valid.body).toContain('Syntax is correct.');
    expect(valid.body).toContain('<code>test 2/3</code>');
    expect(valid.body).toContain('<code>build: [gcp, data]</code>');
    const invalid = await web.post(page, { content: 'job:\n  script: x\n  parallel: { matrix: [{ A: true }] }\n' });
    expect(invalid.body).toContain('jobs:job:parallel:matrix:variables config should be a hash of key value pairs, value can be an array');
  });
});

describe('a pipeline with parallel jobs', () => {
  let pipelineId: number;
  let gcpRunner: string;

  it('has the instances as jobs, tags and environments expanded with the matrix values', async () => {
    gcpRunner = await registerRunner({ description: 'gcp', tag_list: 'gcp', run_untagged: false });
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'ci', actions: [create('.gitlab-ci.yml', CONFIG)] });
    await kiln.worker.drain();
    pipelineId = (await api('GET', '/pipelines')).body[0].id;
    const jobs = await jobsOf(pipelineId);
    expect(statuses(jobs)).toEqual({
      ...Object.fromEntries(BUILDS.map((name) => [name, 'pending'])),
      ...Object.fromEntries(TESTS.map((name) => [name, 'created'])),
      'aws-app2': 'created',
      deploy: 'created',
    });
    expect(Object.fromEntries(jobs.filter((job) => job.stage === 'build').map((job) => [job.name, job.tag_list]))).toEqual({ [BUILDS[0]]: ['aws'], [BUILDS[1]]: ['aws'], [BUILDS[2]]: ['gcp'] });
    expect((await api('GET', '/environments')).body.map((environment: any) => environment.name).sort()).toEqual(['review/aws-app1', 'review/aws-app2', 'review/gcp-data']);
  });

  it('hands a runner the instance its tags match, with CI_NODE_INDEX, CI_NODE_TOTAL and the matrix variables', async () => {
    const taken = await requestJob(gcpRunner);
    expect(taken.statusCode).toBe(201);
    const payload = taken.json();
    expect(payload.job_info.name).toBe('build: [gcp, data]');
    const variables = variablesOf(payload);
    expect(variables).toMatchObject({ CI_JOB_NAME: ['build: [gcp, data]'], CI_NODE_INDEX: ['3'], CI_NODE_TOTAL: ['3'], PROVIDER: ['gcp'], STACK: ['data'], OWN: ['kept'], CI_ENVIRONMENT_NAME: ['review/gcp-data'] });
    // The only job with the gcp tag is taken: the aws instances wait for a runner with theirs.
    expect((await requestJob(gcpRunner)).statusCode).toBe(204);
  });

  it('waits for every instance of a needed parallel job, and for the one instance needs:parallel:matrix picks', async () => {
    const job = async (name: string) => (await jobsOf(pipelineId)).find((row) => row.name === name);
    await setStatus((await job('build: [aws, app2]')).id, 'success');
    expect(statuses(await jobsOf(pipelineId))).toMatchObject({ 'aws-app2': 'pending', 'test 1/3': 'created', 'test 2/3': 'created', 'test 3/3': 'created' });
    await setStatus((await job('build: [aws, app1]')).id, 'success');
    expect(statuses(await jobsOf(pipelineId))).toMatchObject({ 'test 1/3': 'created' });
    await setStatus((await job('build: [gcp, data]')).id, 'success');
    expect(statuses(await jobsOf(pipelineId))).toMatchObject({ 'test 1/3': 'pending', 'test 2/3': 'pending', 'test 3/3': 'pending', deploy: 'created' });
    await setStatus((await job('aws-app2')).id, 'success');

    // An untagged runner takes the test instances, each knowing its place among the three.
    const runner = await registerRunner({ description: 'untagged' });
    const payloads = [];
    for (let i = 0; i < 3; i++) {
      const taken = await requestJob(runner);
      expect(taken.statusCode).toBe(201);
      payloads.push(taken.json());
    }
    expect(payloads.map((payload) => [payload.job_info.name, variablesOf(payload).CI_NODE_INDEX, variablesOf(payload).CI_NODE_TOTAL]).sort()).toEqual([
      ['test 1/3', ['1'], ['3']], ['test 2/3', ['2'], ['3']], ['test 3/3', ['3'], ['3']],
    ]);
    await setStatus(payloads[0].id, 'success');
    await setStatus(payloads[1].id, 'success');
    expect(statuses(await jobsOf(pipelineId))).toMatchObject({ deploy: 'created' });
    await setStatus(payloads[2].id, 'success');
    expect(statuses(await jobsOf(pipelineId))).toMatchObject({ deploy: 'pending' });
    // `dependencies: [test]`: the runner downloads the artifacts of the three instances.
    const deploy = (await requestJob(runner)).json();
    expect(deploy.job_info.name).toBe('deploy');
    expect(deploy.dependencies.map((dependency: any) => dependency.name).sort()).toEqual(TESTS);
    expect(variablesOf(deploy).CI_NODE_TOTAL).toEqual(['1']);
    expect(variablesOf(deploy).CI_NODE_INDEX).toBeUndefined();
  });

  it('shows the instances on the pipeline page', async () => {
    const web = new WebSession(kiln);
    await web.signIn(w.developer.username, w.developer.password);
    const page = await web.get(`/${w.project.path_with_namespace}/-/pipelines/${pipelineId}`);
    expect(page.statusCode).toBe(200);
    for (const name of [...BUILDS, ...TESTS]) expect(page.body).toContain(name);
  });
});
