// CI/CD (issue 39): `.gitlab-ci.yml` parsed and linted with GitLab's messages, pipelines created by a
// push and by the API with their jobs in GitLab's states, processed stage by stage (and by `needs`),
// cancelled, retried and played, the merge request's head pipeline following them, and the deployment
// a job with `environment:` makes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, update, type RepositoryWorld } from './repository-api-driver.js';
import { parseCiConfig } from '../../src/ci/config/parse-config.js';
import { evaluateExpression } from '../../src/ci/config/expressions.js';

let kiln: TestKiln;
let w: RepositoryWorld;

const CONFIG = `
stages: [build, test, deploy]
variables:
  GLOBAL: "1"
default:
  before_script: [echo before]
.base:
  tags: [linux]
  retry: 1
build:
  extends: .base
  stage: build
  script: make
  artifacts: { paths: [out/], expire_in: 1 week }
test:
  stage: test
  script: [make test]
  needs: [build]
lint:
  stage: test
  script: make lint
  allow_failure: true
  rules:
    - if: '$CI_COMMIT_BRANCH == "main"'
    - when: never
deploy:
  stage: deploy
  script: ./deploy
  environment: { name: staging, url: "https://staging.example.com/$CI_COMMIT_REF_SLUG" }
production:
  stage: deploy
  script: ./prod
  when: manual
  only: [main]
`;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
});

afterAll(async () => {
  await kiln?.close();
});

const api = (method: string, path: string, body?: unknown, token = w.maintainer.token) => kiln.api(method, `/projects/${w.project.id}${path}`, { token, body });
const jobsOf = async (pipelineId: number) => (await api('GET', `/pipelines/${pipelineId}/jobs`)).body as any[];
const statuses = (jobs: any[]) => Object.fromEntries(jobs.map((job) => [job.name, job.status]));

async function setStatus(jobId: number, status: 'running' | 'success' | 'failed') {
  // The runner protocol moves jobs; here the test moves them as one would (ci-runners.test.ts drives the protocol).
  const { inTransaction } = await import('../../src/platform/db/database.js');
  const { processPipeline } = await import('../../src/ci/pipelines/process-pipeline.js');
  const { syncDeployment } = await import('../../src/ci/pipelines/sync-deployment.js');
  await inTransaction(kiln.deps.db, async (trx) => {
    const now = kiln.clock.now();
    const build = await trx.updateTable('ci_builds').set({ status, updated_at: now, ...(status === 'running' ? { started_at: now } : { finished_at: now }) }).where('id', '=', jobId).returningAll().executeTakeFirstOrThrow();
    await syncDeployment(trx, kiln.deps, jobId, status);
    await processPipeline(trx, kiln.deps, Number(build.commit_id));
  });
}

describe('.gitlab-ci.yml', () => {
  it('parses stages, jobs, extends, default, rules, needs, artifacts and environment', () => {
    const parsed = parseCiConfig(CONFIG);
    expect(parsed.errors).toEqual([]);
    const build = parsed.config!.jobs.find((job) => job.name === 'build')!;
    expect(build).toMatchObject({ stage: 'build', script: ['make'], beforeScript: ['echo before'], tags: ['linux'], retry: { max: 1 }, artifacts: { paths: ['out/'], expireIn: '1 week' } });
    expect(parsed.config!.stages).toEqual(['.pre', 'build', 'test', 'deploy', '.post']);
    expect(parsed.config!.jobs.find((job) => job.name === 'production')).toMatchObject({ when: 'manual', allowFailure: true, only: { refs: ['main'] } });
  });

  it("reports GitLab's messages", () => {
    const errors = (yaml: string) => parseCiConfig(yaml).errors;
    expect(errors('')).toEqual(['Please provide content of .gitlab-ci.yml']);
    expect(errors('- a\n- b')).toEqual(['Invalid configuration format']);
    expect(errors('job:\n  stage: build')).toEqual(['jobs job config should implement a script: or a trigger: keyword']);
    expect(errors('.hidden:\n  script: x')).toEqual(['jobs config should contain at least one visible job']);
    expect(errors('job:\n  script: x\n  stage: nowhere')).toEqual(['job job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post']);
    expect(errors('job:\n  script: x\n  when: sometimes')).toEqual(['jobs:job when should be one of: on_success, on_failure, always, manual, delayed']);
    expect(errors('job:\n  script: x\n  colour: red')).toEqual(['jobs:job config contains unknown keys: colour']);
    expect(errors('job:\n  script: x\n  rules:\n    - if: "$A ==="')).toEqual(['jobs:job:rules:rule if invalid expression syntax']);
    expect(errors('job:\n  script: x\n  needs: [other]')).toEqual(['job job: undefined need: other']);
    expect(errors('a:\n  script: x\n  needs: [b]\nb:\n  script: x\n  needs: [a]')).toEqual(['The pipeline has circular dependencies.']);
    expect(errors('job:\n  extends: .nothing\n  script: x')).toEqual(['job: unknown keys in `extends` (.nothing)']);
    expect(errors('job:\n  script: x\n  environment: { name: prod, action: deploy }')).toEqual(['jobs:job:environment action should be start, stop or prepare']);
    expect(errors('job:\n  script: x\n  artifacts: { expire_in: soon }')).toEqual(['jobs:job:artifacts expire in should be a duration']);
  });

  it('refuses alias bombs and oversized files without hanging', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]', ...Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`)].join('\n');
    const result = parseCiConfig(bomb);
    expect(result.config).toBeNull();
    expect(result.errors[0]).toMatch(/^\(<unknown>\): /);
    expect(parseCiConfig(`job:\n  script: "${'x'.repeat(1024 * 1024)}"`).errors).toEqual(['The parsed YAML is too big']);
  });

  it('evaluates rules:if expressions', () => {
    const vars = { CI_COMMIT_BRANCH: 'main', EMPTY: '', TAG: 'v1.2' };
    expect(evaluateExpression('$CI_COMMIT_BRANCH == "main"', vars)).toBe(true);
    expect(evaluateExpression('$CI_COMMIT_BRANCH != "main" || $TAG =~ /^v\\d/', vars)).toBe(true);
    expect(evaluateExpression('$EMPTY', vars)).toBe(false);
    expect(evaluateExpression('$MISSING == null && ($TAG !~ /x/i)', vars)).toBe(true);
    expect(evaluateExpression('$CI_COMMIT_BRANCH == "main" && $TAG == "v2" || $EMPTY', vars)).toBe(false);
  });
});

describe('lint endpoints', () => {
  it('answers POST /ci/lint and POST /projects/:id/ci/lint', async () => {
    const valid = await kiln.api('POST', '/ci/lint', { token: w.developer.token, body: { content: CONFIG } });
    expect(valid.status).toBe(200);
    expect(valid.body).toMatchObject({ status: 'valid', errors: [], valid: true });
    const invalid = await kiln.api('POST', '/ci/lint', { token: w.developer.token, body: { content: 'job:\n  script: x\n  when: later' } });
    expect(invalid.body).toEqual({ status: 'invalid', errors: ['jobs:job when should be one of: on_success, on_failure, always, manual, delayed'], warnings: [], valid: false });
    const project = await api('POST', '/ci/lint', { content: CONFIG, include_jobs: true }, w.reporter.token);
    expect(project.status).toBe(200);
    expect(project.body.valid).toBe(true);
    expect(project.body.jobs.map((job: any) => job.name)).toEqual(['build', 'test', 'lint', 'deploy', 'production']);
    expect((await api('POST', '/ci/lint', { content: CONFIG }, w.stranger.token)).status).toBe(404);
    expect((await kiln.api('POST', '/ci/lint', { body: { content: CONFIG } })).status).toBe(401);
  });

  it('reads keys written as Ruby symbols as GitLab does (python-gitlab’s lint fixture), a quoted one as a string', async () => {
    const symbols = await kiln.api('POST', '/ci/lint', { token: w.developer.token, body: { content: '---\n:test_job:\n  :script: echo 1\n' } });
    expect(symbols.body).toMatchObject({ status: 'valid', errors: [], valid: true });
    const quoted = await kiln.api('POST', '/ci/lint', { token: w.developer.token, body: { content: 'job:\n  ":script": echo 1\n' } });
    expect(quoted.body.valid).toBe(false);
    expect(quoted.body.errors[0]).toContain(':script');
  });
});

describe('pipelines', () => {
  let pipelineId: number;

  it('creates a pipeline on push with the jobs its rules choose, the first stage pending', async () => {
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'ci', actions: [create('.gitlab-ci.yml', CONFIG)] });
    await kiln.worker.drain();
    const list = await api('GET', '/pipelines');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ ref: 'main', status: 'pending', source: 'push', iid: 1 });
    pipelineId = list.body[0].id;
    const jobs = await jobsOf(pipelineId);
    expect(statuses(jobs)).toEqual({ build: 'pending', test: 'created', lint: 'created', deploy: 'created', production: 'created' });
    const build = jobs.find((job) => job.name === 'build');
    expect(build).toMatchObject({ stage: 'build', ref: 'main', tag: false, allow_failure: false, pipeline: { id: pipelineId, status: 'pending' }, user: { username: w.maintainer.username }, commit: { title: 'ci' }, runner: null, tag_list: ['linux'] });
    expect(build.web_url).toBe(`${kiln.config.baseUrl}/${w.project.path_with_namespace}/-/jobs/${build.id}`);
  });

  it('moves stage by stage: needs, allowed failures, manual jobs and the deployment', async () => {
    const job = async (name: string) => (await jobsOf(pipelineId)).find((row) => row.name === name);
    await setStatus((await job('build')).id, 'running');
    expect((await api('GET', `/pipelines/${pipelineId}`)).body.status).toBe('running');
    await setStatus((await job('build')).id, 'success');
    expect(statuses(await jobsOf(pipelineId))).toMatchObject({ build: 'success', test: 'pending', lint: 'pending', deploy: 'created' });
    await setStatus((await job('test')).id, 'success');
    await setStatus((await job('lint')).id, 'failed');
    expect(statuses(await jobsOf(pipelineId))).toMatchObject({ lint: 'failed', deploy: 'pending', production: 'manual' });
    const environments = await api('GET', '/environments');
    expect(environments.body.map((env: any) => env.name)).toEqual(['staging']);
    await setStatus((await job('deploy')).id, 'success');
    const pipeline = await api('GET', `/pipelines/${pipelineId}`);
    // The manual job may fail (allow_failure defaults to true without rules): the pipeline passed.
    expect(pipeline.body).toMatchObject({ status: 'success', user: { username: w.maintainer.username }, yaml_errors: null });
    const environment = await api('GET', `/environments/${environments.body[0].id}`);
    expect(environment.body.external_url).toBe('https://staging.example.com/main');
    const deployable = environment.body.last_deployment.deployable;
    expect(Object.keys(deployable)).toEqual(['id', 'status', 'stage', 'name', 'ref', 'tag', 'coverage', 'created_at', 'started_at', 'finished_at', 'duration', 'user', 'commit', 'pipeline', 'web_url', 'artifacts', 'runner', 'artifacts_expire_at']);
    expect(deployable).toMatchObject({ name: 'deploy', stage: 'deploy', status: 'success', ref: 'main', tag: false, coverage: null, runner: null, artifacts: [], artifacts_expire_at: null, pipeline: { id: pipelineId, status: 'success' } });
    expect(Object.keys(deployable.user)).toEqual(['id', 'username', 'name', 'state', 'avatar_url', 'web_url', 'created_at', 'bio', 'location', 'public_email', 'skype', 'linkedin', 'twitter', 'website_url', 'organization']);
    expect(Object.keys(deployable.pipeline)).toEqual(['id', 'sha', 'ref', 'status', 'web_url']);
    expect(Object.keys(deployable.commit)).toEqual(['id', 'short_id', 'created_at', 'parent_ids', 'title', 'message', 'author_name', 'author_email', 'authored_date', 'committer_name', 'committer_email', 'committed_date', 'web_url']);
    // Playing the manual job queues it; on the protected main only someone who may push or merge there plays it.
    const developerPlay = await api('POST', `/jobs/${(await job('production')).id}/play`, undefined, w.developer.token);
    expect([developerPlay.status, developerPlay.body]).toEqual([403, { message: '403 Forbidden' }]);
    const played = await api('POST', `/jobs/${(await job('production')).id}/play`, undefined, w.maintainer.token);
    expect(played).toMatchObject({ status: 200, body: { status: 'pending', user: { username: w.maintainer.username } } });
    expect((await api('POST', `/jobs/${(await job('build')).id}/play`, undefined, w.maintainer.token)).body).toEqual({ message: '400 Bad request - Unplayable Job' });
  });

  it('retries and cancels jobs and pipelines; only Developers may, and on a protected branch only those who may push or merge', async () => {
    const jobs = await jobsOf(pipelineId);
    const lint = jobs.find((row) => row.name === 'lint');
    expect((await api('POST', `/jobs/${lint.id}/retry`, undefined, w.reporter.token)).status).toBe(403);
    // main is protected (Maintainers push and merge): a Developer may not touch its jobs or pipelines.
    for (const [path, token] of [[`/jobs/${lint.id}/retry`, w.developer.token], [`/jobs/${lint.id}/cancel`, w.developer.token], [`/pipelines/${pipelineId}/cancel`, w.developer.token], [`/pipelines/${pipelineId}/retry`, w.developer.token]]) {
      expect((await api('POST', path, undefined, token)).body).toEqual({ message: '403 Forbidden' });
    }
    // Developers allowed to merge into main: now they may (GitLab's can_update_branch?: push or merge).
    expect((await api('DELETE', '/protected_branches/main')).status).toBe(204);
    expect((await api('POST', '/protected_branches', { name: 'main', push_access_level: 40, merge_access_level: 30 })).status).toBe(201);
    const retried = await api('POST', `/jobs/${lint.id}/retry`, undefined, w.developer.token);
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ name: 'lint', status: 'pending' });
    expect(retried.body.id).not.toBe(lint.id);
    const withRetried = await api('GET', `/pipelines/${pipelineId}/jobs?include_retried=true`);
    expect(withRetried.body.filter((row: any) => row.name === 'lint')).toHaveLength(2);
    expect((await api('POST', `/jobs/${lint.id}/retry`, undefined, w.developer.token)).body).toEqual({ message: '403 Forbidden - Job is not retryable' });
    await api('POST', `/jobs/${jobs.find((row) => row.name === 'test').id}/retry`, undefined, w.developer.token);
    const canceled = await api('POST', `/pipelines/${pipelineId}/cancel`, undefined, w.developer.token);
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    expect(statuses(await jobsOf(pipelineId))).toMatchObject({ test: 'canceled', lint: 'canceled', production: 'canceled' });
    const retriedPipeline = await api('POST', `/pipelines/${pipelineId}/retry`, undefined, w.developer.token);
    expect(retriedPipeline.status).toBe(201);
    expect(retriedPipeline.body.status).toBe('running');
    const scoped = await api('GET', '/jobs?scope[]=pending');
    expect(scoped.body.map((row: any) => row.name).sort()).toEqual(['lint', 'test']);
    expect((await api('GET', '/jobs?scope[]=bogus')).body).toEqual({ message: '400 Bad request - Scope contains invalid value(s)' });
  });

  it('creates pipelines through the API with variables, and answers GitLab errors', async () => {
    const created = await api('POST', '/pipeline', { ref: 'main', variables: [{ key: 'EXTRA', value: 'yes' }] }, w.developer.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ref: 'main', source: 'api', status: 'pending', iid: 2 });
    expect((await api('GET', `/pipelines/${created.body.id}/variables`)).body).toEqual([{ variable_type: 'env_var', key: 'EXTRA', value: 'yes' }]);
    expect((await api('POST', '/pipeline', { ref: 'nowhere' }, w.developer.token)).body).toEqual({ message: { base: ['Reference not found'] } });
    expect((await api('POST', '/pipeline', { ref: 'main' }, w.reporter.token)).status).toBe(403);
    const filtered = await api('GET', '/pipelines?source=api');
    expect(filtered.body.map((row: any) => row.id)).toEqual([created.body.id]);
    expect((await api('GET', '/pipelines/latest?ref=main')).body.id).toBe(created.body.id);
    expect((await api('DELETE', `/pipelines/${created.body.id}`, undefined, w.maintainer.token)).status).toBe(403);
    expect((await api('DELETE', `/pipelines/${created.body.id}`, undefined, w.owner.token)).status).toBe(204);
    expect((await api('GET', `/pipelines/${created.body.id}`)).status).toBe(404);
  });

  it('saves a failed pipeline with yaml_errors for a broken file, and skips [skip ci]', async () => {
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'break', actions: [update('.gitlab-ci.yml', 'job:\n  script: x\n  when: later\n')] });
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'docs [skip ci]', actions: [create('docs.md', 'x')] });
    await kiln.worker.drain();
    const list = (await api('GET', '/pipelines?source=push')).body;
    expect(list.slice(0, 2).map((row: any) => row.status)).toEqual(['skipped', 'failed']);
    const failed = await api('GET', `/pipelines/${list[1].id}`);
    expect(failed.body.yaml_errors).toBe('jobs:job when should be one of: on_success, on_failure, always, manual, delayed');
    expect((await api('GET', '/pipelines?yaml_errors=true')).body.map((row: any) => row.id)).toEqual([list[1].id]);
  });
});
