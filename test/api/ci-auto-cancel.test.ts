// Auto-cancel redundant pipelines (issue 39, GitLab's CancelRedundantPipelinesService): a push to a
// ref cancels the older pipelines of that ref, by the older pipeline's `workflow:auto_cancel:
// on_new_commit` (`conservative`: unless a started job is not interruptible; `interruptible`: only
// interruptible jobs; `none`), when the project's `auto_cancel_pending_pipelines` is enabled. A running
// cancelled job's runner is told to stop (403 on its next trace). Other refs are left alone; the
// pipeline page says which pipeline cancelled it. `on_job_failure: all` cancels the rest of a pipeline
// when a job fails.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let runnerToken: string;
let files = 0;

type Job = { id: number; token: string; job_info: { name: string } };

beforeAll(async () => {
  kiln = await testKiln({ ciLongPollMs: 0 });
  w = await repositoryWorld(kiln);
  const runner = await kiln.api('POST', '/user/runners', { token: w.maintainer.token, body: { runner_type: 'project_type', project_id: w.project.id, run_untagged: true } });
  runnerToken = runner.body.token;
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'readme', actions: [create('README.md')] });
  await kiln.worker.drain();
});
afterAll(async () => kiln?.close());

const api = (method: string, path: string, body?: unknown) => kiln.api(method, `/projects/${w.project.id}${path}`, { token: w.maintainer.token, body });

// Each test leaves no job for the next one's runner to take.
async function afterEachCleanUp() {
  for (const pipeline of (await api('GET', '/pipelines?per_page=100')).body as any[]) {
    if (['created', 'pending', 'running', 'manual', 'scheduled'].includes(pipeline.status)) await api('POST', `/pipelines/${pipeline.id}/cancel`);
  }
}
afterEach(afterEachCleanUp);

/** A push to `branch` (made from main the first time) with `config`; the pipeline it made. */
async function push(branch: string, config: string): Promise<any> {
  const exists = (await api('GET', `/repository/branches/${branch}`)).status === 200;
  files += 1;
  const actions = exists ? [{ action: 'update', file_path: '.gitlab-ci.yml', content: config }, create(`f${files}.txt`)] : [create('.gitlab-ci.yml', config)];
  await commit(kiln, w.maintainer.token, w.project.id, { branch, ...(exists ? {} : { start_branch: 'main' }), commit_message: `push ${files}`, actions });
  await kiln.worker.drain();
  return (await api('GET', `/pipelines?ref=${branch}`)).body[0];
}

async function claim(): Promise<Job> {
  const claimed = await kiln.request('POST', '/api/v4/jobs/request', { body: { token: runnerToken } });
  expect(claimed.statusCode).toBe(201);
  return claimed.json() as Job;
}

const sendTrace = (job: Job, text: string) =>
  kiln.app.inject({ method: 'PATCH', url: `/api/v4/jobs/${job.id}/trace`, payload: text, headers: { 'content-type': 'text/plain', 'job-token': job.token, 'content-range': `0-${text.length - 1}` } });
const pipeline = async (id: number) => (await api('GET', `/pipelines/${id}`)).body;
const jobStatuses = async (id: number) => Object.fromEntries(((await api('GET', `/pipelines/${id}/jobs?per_page=100`)).body as any[]).map((job) => [job.name, job.status]));
const row = (id: number) => kiln.deps.db.selectFrom('ci_pipelines').select(['auto_canceled_by_id', 'auto_cancel_on_new_commit', 'auto_cancel_on_job_failure']).where('id', '=', id).executeTakeFirstOrThrow();
const jobRows = (id: number) => kiln.deps.db.selectFrom('ci_builds').select(['name', 'auto_canceled_by_id']).where('commit_id', '=', id).orderBy('id').execute();

const autoCancel = (key: string, mode: string) => `workflow:\n  auto_cancel:\n    ${key}: ${mode}`;
const TWO_STAGES = (interruptible: boolean, workflow = '') => `${workflow}
stages: [build, test]
build:
  stage: build
  interruptible: ${interruptible}
  script: make
test:
  stage: test
  script: make test
`;

describe('a push cancels the older pipelines of its ref', () => {
  it('cancels a pipeline whose running job is interruptible, and its runner is told to stop', async () => {
    const older = await push('feature-a', TWO_STAGES(true));
    const job = await claim();
    expect(job.job_info.name).toBe('build');
    expect((await sendTrace(job, 'working\n')).statusCode).toBe(202);
    const newer = await push('feature-a', TWO_STAGES(true));
    expect(newer.id).not.toBe(older.id);

    expect((await pipeline(older.id)).status).toBe('canceled');
    expect(await jobStatuses(older.id)).toEqual({ build: 'canceled', test: 'canceled' });
    expect((await row(older.id)).auto_canceled_by_id).toBe(newer.id);
    expect((await jobRows(older.id)).map((build) => [build.name, build.auto_canceled_by_id === null ? null : Number(build.auto_canceled_by_id)])).toEqual([['build', newer.id], ['test', newer.id]]);
    // The runner's next log update is refused: it stops the job.
    const refused = await sendTrace(job, 'working\nmore\n');
    expect([refused.statusCode, refused.headers['job-status']]).toEqual([403, 'canceled']);
    // The newer pipeline runs.
    expect((await pipeline(newer.id)).status).toBe('pending');
    expect((await row(newer.id)).auto_canceled_by_id).toBeNull();
  });

  it('cancels a pipeline none of whose jobs started, interruptible or not', async () => {
    const older = await push('feature-b', TWO_STAGES(false));
    const newer = await push('feature-b', TWO_STAGES(false));
    expect((await pipeline(older.id)).status).toBe('canceled');
    expect((await row(older.id)).auto_canceled_by_id).toBe(newer.id);
  });

  it('keeps a pipeline one of whose started jobs is not interruptible', async () => {
    const older = await push('feature-c', TWO_STAGES(false));
    const job = await claim();
    const newer = await push('feature-c', TWO_STAGES(false));
    expect((await pipeline(older.id)).status).toBe('running');
    expect(await jobStatuses(older.id)).toEqual({ build: 'running', test: 'created' });
    expect((await row(older.id)).auto_canceled_by_id).toBeNull();
    expect((await sendTrace(job, 'still here\n')).statusCode).toBe(202);
    expect((await pipeline(newer.id)).status).toBe('pending');
  });

  it('keeps a pipeline whose non-interruptible job finished, even when an interruptible one runs', async () => {
    const config = `
first:
  stage: build
  script: make
second:
  stage: test
  interruptible: true
  script: make test
`;
    const older = await push('feature-d', config);
    const first = await claim();
    expect((await kiln.request('PUT', `/api/v4/jobs/${first.id}`, { body: { token: first.token, state: 'success' } })).statusCode).toBe(200);
    expect((await claim()).job_info.name).toBe('second');
    await push('feature-d', config);
    expect(await jobStatuses(older.id)).toEqual({ first: 'success', second: 'running' });
  });

  it('leaves the pipelines of other refs, and of the same commit, alone', async () => {
    const other = await push('feature-e', TWO_STAGES(true));
    await push('feature-f', TWO_STAGES(true));
    expect((await pipeline(other.id)).status).toBe('pending');
    // A pipeline run again for the ref's head (here through the API) is not redundant.
    const again = await api('POST', '/pipeline', { ref: 'feature-e' });
    expect(again.status).toBe(201);
    expect((await pipeline(other.id)).status).toBe('pending');
    expect((await pipeline(again.body.id)).status).toBe('pending');
  });

  it('cancels nothing when the project turned auto_cancel_pending_pipelines off', async () => {
    expect((await api('PUT', '', { auto_cancel_pending_pipelines: 'disabled' })).status).toBe(200);
    try {
      const older = await push('feature-g', TWO_STAGES(true));
      await push('feature-g', TWO_STAGES(true));
      expect((await pipeline(older.id)).status).toBe('pending');
      expect((await row(older.id)).auto_canceled_by_id).toBeNull();
    } finally {
      expect((await api('PUT', '', { auto_cancel_pending_pipelines: 'enabled' })).status).toBe(200);
    }
  });
});

describe('at the same moment', () => {
  it('two processes cancelling the same pipeline cancel it once', async () => {
    const { cancelRedundantPipelines } = await import('../../src/ci/pipelines/cancel-redundant-pipelines.js');
    const older = await push('feature-m', TWO_STAGES(true));
    await api('PUT', '', { auto_cancel_pending_pipelines: 'disabled' });
    const newer = await push('feature-m', TWO_STAGES(true));
    await api('PUT', '', { auto_cancel_pending_pipelines: 'enabled' });
    expect((await pipeline(older.id)).status).toBe('pending');
    const project = await kiln.deps.db.selectFrom('projects').select('settings').where('id', '=', w.project.id).executeTakeFirstOrThrow();
    const newerRow = await kiln.deps.db.selectFrom('ci_pipelines').selectAll().where('id', '=', newer.id).executeTakeFirstOrThrow();
    const answers = await Promise.all([cancelRedundantPipelines(kiln.deps, project, newerRow, null), cancelRedundantPipelines(kiln.deps, project, newerRow, null)]);
    expect(answers.flat()).toEqual([older.id]);
    expect(await jobStatuses(older.id)).toEqual({ build: 'canceled', test: 'canceled' });
  });

  it('a job claimed while the pipeline is cancelled: either it started and the pipeline stays, or it was cancelled before it started', async () => {
    for (let round = 0; round < 4; round += 1) {
      const older = await push(`race-${round}`, TWO_STAGES(false));
      const olderBuild = await kiln.deps.db.selectFrom('ci_builds').select('id').where('commit_id', '=', older.id).where('name', '=', 'build').executeTakeFirstOrThrow();
      const [claimed] = await Promise.all([kiln.request('POST', '/api/v4/jobs/request', { body: { token: runnerToken } }), push(`race-${round}`, TWO_STAGES(false))]);
      const statuses = await jobStatuses(older.id);
      if (claimed.statusCode === 201 && (claimed.json() as Job).id === Number(olderBuild.id)) {
        // It started first: a started job that is not interruptible keeps the pipeline.
        expect(statuses).toEqual({ build: 'running', test: 'created' });
        expect((await row(older.id)).auto_canceled_by_id).toBeNull();
      } else {
        expect(statuses).toEqual({ build: 'canceled', test: 'canceled' });
      }
      await afterEachCleanUp();
    }
  });
});

describe('workflow:auto_cancel:on_new_commit', () => {
  const MIXED = (mode: string) => `${autoCancel('on_new_commit', mode)}
steady:
  script: make
quick:
  interruptible: true
  script: make quick
`;

  it('interruptible: cancels only the interruptible jobs, whatever started', async () => {
    const older = await push('feature-h', MIXED('interruptible'));
    expect((await row(older.id)).auto_cancel_on_new_commit).toBe('interruptible');
    const steady = await claim();
    expect(steady.job_info.name).toBe('steady');
    const newer = await push('feature-h', MIXED('interruptible'));
    expect(await jobStatuses(older.id)).toEqual({ steady: 'running', quick: 'canceled' });
    expect((await pipeline(older.id)).status).toBe('running');
    expect((await row(older.id)).auto_canceled_by_id).toBe(newer.id);
    expect((await sendTrace(steady, 'go on\n')).statusCode).toBe(202);
  });

  it('the older pipeline decides: none cancels nothing, even when a newer pipeline says otherwise', async () => {
    const older = await push('feature-i', MIXED('none'));
    expect((await row(older.id)).auto_cancel_on_new_commit).toBe('none');
    await push('feature-i', MIXED('conservative'));
    expect(await jobStatuses(older.id)).toEqual({ steady: 'pending', quick: 'pending' });
    expect((await row(older.id)).auto_canceled_by_id).toBeNull();
  });

  it('rejects other values with GitLab’s message', async () => {
    const lint = async (content: string) => (await kiln.api('POST', '/ci/lint', { token: w.maintainer.token, body: { content } })).body;
    expect((await lint('workflow:\n  auto_cancel:\n    on_new_commit: always\njob:\n  script: x\n')).errors).toEqual(['workflow:auto_cancel on new commit must be one of: conservative, interruptible, none']);
    expect((await lint('workflow:\n  auto_cancel:\n    on_job_failure: some\njob:\n  script: x\n')).errors).toEqual(['workflow:auto_cancel on job failure must be one of: none, all']);
    expect((await lint('workflow:\n  auto_cancel:\n    on_push: all\njob:\n  script: x\n')).errors).toEqual(['workflow:auto_cancel config contains unknown keys: on_push']);
    expect((await lint('workflow:\n  auto_cancel: all\njob:\n  script: x\n')).errors).toEqual(['workflow:auto_cancel config should be a hash']);
    expect((await lint('workflow:\n  auto_cancel:\n    on_new_commit: none\n    on_job_failure: all\njob:\n  script: x\n')).valid).toBe(true);
  });
});

describe('workflow:auto_cancel:on_job_failure', () => {
  const CONFIG = (mode: string) => `${autoCancel('on_job_failure', mode)}
fails:
  script: exit 1
slow:
  script: sleep 100
`;

  it('all: a failed job cancels the rest of its pipeline', async () => {
    const created = await push('feature-j', CONFIG('all'));
    const fails = await claim();
    const slow = await claim();
    expect((await kiln.request('PUT', `/api/v4/jobs/${fails.id}`, { body: { token: fails.token, state: 'failed', failure_reason: 'script_failure' } })).statusCode).toBe(200);
    expect(await jobStatuses(created.id)).toEqual({ fails: 'failed', slow: 'canceled' });
    expect((await sendTrace(slow, 'x\n')).statusCode).toBe(403);
    expect(['failed', 'canceled']).toContain((await pipeline(created.id)).status);
  });

  it('none (the default): the other jobs go on', async () => {
    const created = await push('feature-k', CONFIG('none'));
    const fails = await claim();
    await claim();
    await kiln.request('PUT', `/api/v4/jobs/${fails.id}`, { body: { token: fails.token, state: 'failed', failure_reason: 'script_failure' } });
    expect(await jobStatuses(created.id)).toEqual({ fails: 'failed', slow: 'running' });
  });
});

describe('the pipeline page', () => {
  it('says which pipeline auto-canceled it', async () => {
    const older = await push('feature-l', TWO_STAGES(true));
    const newer = await push('feature-l', TWO_STAGES(true));
    const web = new WebSession(kiln);
    await web.signIn(w.reporter.username, w.reporter.password);
    const base = `/${w.project.path_with_namespace}`;
    const page = await web.get(`${base}/-/pipelines/${older.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Auto-canceled by <a href="${base}/-/pipelines/${newer.id}">#${newer.id}</a>`);
    expect((await web.get(`${base}/-/pipelines/${newer.id}`)).body).not.toContain('Auto-canceled by');
  });
});
