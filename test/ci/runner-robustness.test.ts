// The server side under many runners and runners that go away (issue 39): a tagged runner finds its
// job behind many older jobs it cannot take; two runners asking at once for 50 jobs get each exactly
// once, and on PostgreSQL a runner is not held up by another's claim of the oldest job; a running
// job whose runner stopped sending updates fails with `runner_system_failure` after its timeout (a
// background job), while jobs with a recent log or keep-alive go on, and the pipeline finishes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from '../api/repository-api-driver.js';
import { listenOnLoopback } from '../helpers/git.js';
import { testDialect } from '../helpers/database.js';

let kiln: TestKiln;

const runnerCall = (method: string, path: string, body: unknown) => kiln.request(method, `/api/v4${path}`, { body });
const requestJob = (token: string) => runnerCall('POST', '/jobs/request', { token, info: { name: 'gitlab-runner', version: '17.0.0', executor: 'shell' } });

async function runnerFor(w: RepositoryWorld, attributes: Record<string, unknown> = {}): Promise<string> {
  return (await kiln.apiAs(w.maintainer, 'POST', '/user/runners', { runner_type: 'project_type', project_id: w.project.id, ...attributes })).token;
}

async function pipelineOf(w: RepositoryWorld, config: string): Promise<number> {
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', actions: [create('.gitlab-ci.yml', config)] });
  await kiln.worker.drain();
  return (await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/pipelines`))[0].id;
}

const jobsOf = async (w: RepositoryWorld, pipelineId: number) =>
  Object.fromEntries((await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/pipelines/${pipelineId}/jobs?per_page=100`)).map((job: any) => [job.name, job]));

beforeAll(async () => {
  kiln = await testKiln();
});

afterAll(async () => {
  await kiln?.close();
});

describe('POST /jobs/request', () => {
  it('hands a tagged runner its job behind more than a page of older jobs it cannot take', async () => {
    const w = await repositoryWorld(kiln);
    const others = Array.from({ length: 50 }, (_, i) => `other${i}:\n  tags: [other]\n  script: echo ${i}\n`).join('');
    await pipelineOf(w, `${others}special:\n  tags: [special]\n  script: echo special\n`);
    const token = await runnerFor(w, { tag_list: ['special'], run_untagged: false });
    const answer = await requestJob(token);
    expect(answer.statusCode).toBe(201);
    expect(answer.json().job_info.name).toBe('special');
    expect((await requestJob(token)).statusCode).toBe(204);
  });

  it('gives each of 50 jobs to exactly one of two runners asking at once', async () => {
    const w = await repositoryWorld(kiln);
    const pipelineId = await pipelineOf(w, Array.from({ length: 50 }, (_, i) => `job${i}:\n  script: echo ${i}\n`).join(''));
    const tokens = [await runnerFor(w), await runnerFor(w)];
    const handed: number[] = [];
    // Three lanes per runner, each asking, finishing what it got and asking again until told 204.
    const lane = async (token: string) => {
      for (;;) {
        const answer = await requestJob(token);
        if (answer.statusCode === 204) return;
        expect(answer.statusCode).toBe(201);
        const job = answer.json();
        handed.push(job.id);
        expect((await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state: 'success' })).statusCode).toBe(200);
      }
    };
    await Promise.all(tokens.flatMap((token) => [lane(token), lane(token), lane(token)]));
    expect(handed).toHaveLength(50);
    expect(new Set(handed).size).toBe(50);
    const jobs = await jobsOf(w, pipelineId);
    expect(Object.values(jobs).every((job: any) => job.status === 'success')).toBe(true);
    expect((await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/pipelines/${pipelineId}`)).status).toBe('success');
  }, 120_000);
  // Another runner's claim in flight holds the oldest job's row until its transaction ends. On
  // PostgreSQL the next runner takes the next job instead of waiting for that claim to end (SQLite
  // runs one writer at a time: no row is held apart from the others there).
  it.skipIf(testDialect() !== 'postgres')('hands the next job at once while another claim holds the oldest', async () => {
    const w = await repositoryWorld(kiln);
    const pipelineId = await pipelineOf(w, 'first:\n  script: echo 1\nsecond:\n  script: echo 2\n');
    const token = await runnerFor(w);
    const { first } = await jobsOf(w, pipelineId);
    const answer = await kiln.deps.db.transaction().execute(async (trx) => {
      await trx.selectFrom('ci_builds').select('id').where('id', '=', first.id).forUpdate().execute();
      return Promise.race([requestJob(token), new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5_000))]);
    });
    expect(answer === 'waited' ? answer : answer.json().job_info.name).toBe('second');
    expect((await requestJob(token)).json().job_info.name).toBe('first');
  });

  // The claim sets the pipeline `running` only while it is not: a running pipeline's row is not held,
  // so claims of its jobs do not queue behind whatever holds it (another claim, a job finishing).
  it.skipIf(testDialect() !== 'postgres')('hands a job of a running pipeline while another transaction holds the pipeline', async () => {
    const w = await repositoryWorld(kiln);
    const pipelineId = await pipelineOf(w, 'first:\n  script: echo 1\nsecond:\n  script: echo 2\n');
    const token = await runnerFor(w);
    expect((await requestJob(token)).json().job_info.name).toBe('first');
    const answer = await kiln.deps.db.transaction().execute(async (trx) => {
      await trx.selectFrom('ci_pipelines').select('id').where('id', '=', pipelineId).forUpdate().execute();
      return Promise.race([requestJob(token), new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5_000))]);
    });
    expect(answer === 'waited' ? answer : answer.json().job_info.name).toBe('second');
    expect((await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/pipelines/${pipelineId}`)).status).toBe('running');
  });

  it('hands no job to a runner that gave up its long poll (its connection closed)', async () => {
    const w = await repositoryWorld(kiln);
    const token = await runnerFor(w);
    const base = await listenOnLoopback(kiln.app);
    const first = await requestJob(token);
    expect(first.statusCode).toBe(204);
    // The runner waits on the current queue value over a real connection, then goes away.
    const gaveUp = new AbortController();
    const polling = fetch(`${base}/api/v4/jobs/request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, last_update: first.headers['x-gitlab-last-update'] }),
      signal: gaveUp.signal,
    }).then((response) => response.status, (error: Error) => error.name);
    await new Promise((resolve) => setTimeout(resolve, 300));
    gaveUp.abort();
    expect(await polling).toBe('AbortError');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The job queued next wakes the waiting requests: none may take it for the runner that left.
    const pipelineId = await pipelineOf(w, 'only:\n  script: echo 1\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await jobsOf(w, pipelineId)).only.status).toBe('pending');
    const answer = await requestJob(token);
    expect(answer.statusCode).toBe(201);
    expect(answer.json().job_info.name).toBe('only');
  });
});

describe('running jobs whose runner stopped sending updates', () => {
  it('fail with runner_system_failure after their timeout, and the pipeline finishes', async () => {
    const w = await repositoryWorld(kiln);
    const pipelineId = await pipelineOf(w, `
stages: [build, cleanup]
short:
  stage: build
  timeout: 15m
  script: echo short
quiet:
  stage: build
  script: echo quiet
alive:
  stage: build
  script: echo alive
notify:
  stage: cleanup
  when: on_failure
  script: echo notify
`);
    const token = await runnerFor(w);
    const taken = Object.fromEntries(await Promise.all([1, 2, 3].map(async () => {
      const job = (await requestJob(token)).json();
      return [job.job_info.name, job];
    })));
    expect(Object.keys(taken).sort()).toEqual(['alive', 'quiet', 'short']);
    const stuckCheck = async () => {
      await kiln.worker.drain();
      return Object.fromEntries(Object.entries(await jobsOf(w, pipelineId)).map(([name, job]: [string, any]) => [name, [job.status, job.failure_reason ?? null]]));
    };

    // 20 minutes of silence: past `short`'s 15-minute timeout, within the others' hour.
    kiln.clock.advance(20 * 60_000);
    expect(await stuckCheck()).toMatchObject({ short: ['failed', 'runner_system_failure'], quiet: ['running', null], alive: ['running', null], notify: ['created', null] });
    // `alive` sends its log, later a keep-alive; `quiet` says nothing for over an hour.
    const patch = await kiln.app.inject({ method: 'PATCH', url: `/api/v4/jobs/${taken.alive.id}/trace`, payload: 'working\n', headers: { 'content-type': 'text/plain', 'job-token': taken.alive.token, 'content-range': '0-7' } });
    expect(patch.statusCode).toBe(202);
    kiln.clock.advance(40 * 60_000);
    expect((await runnerCall('PUT', `/jobs/${taken.alive.id}`, { token: taken.alive.token, state: 'running' })).statusCode).toBe(200);
    kiln.clock.advance(30 * 60_000);
    expect(await stuckCheck()).toMatchObject({ short: ['failed', 'runner_system_failure'], quiet: ['failed', 'runner_system_failure'], alive: ['running', null] });
    // A dropped job's token is refused from then on, as for any job that ended.
    expect((await runnerCall('PUT', `/jobs/${taken.quiet.id}`, { token: taken.quiet.token, state: 'success' })).statusCode).toBe(403);

    expect((await runnerCall('PUT', `/jobs/${taken.alive.id}`, { token: taken.alive.token, state: 'success' })).statusCode).toBe(200);
    const notify = (await requestJob(token)).json();
    expect(notify.job_info.name).toBe('notify');
    expect((await runnerCall('PUT', `/jobs/${notify.id}`, { token: notify.token, state: 'success' })).statusCode).toBe(200);
    expect((await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/pipelines/${pipelineId}`)).status).toBe('failed');
  });
});

describe('artifact expiry', () => {
  it('deletes expired archives in the daily job and keeps the others', async () => {
    const w = await repositoryWorld(kiln);
    await pipelineOf(w, 'short:\n  script: echo 1\nlong:\n  script: echo 2\n');
    const token = await runnerFor(w);
    for (const expireIn of ['1 day', 'never']) {
      const job = (await requestJob(token)).json();
      const boundary = 'kilnboundary';
      const body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="expire_in"\r\n\r\n${expireIn}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="artifacts.zip"\r\nContent-Type: application/zip\r\n\r\nPK\r\n--${boundary}--\r\n`);
      const upload = await kiln.app.inject({ method: 'POST', url: `/api/v4/jobs/${job.id}/artifacts`, payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'job-token': job.token } });
      expect(upload.statusCode).toBe(201);
    }
    const stored = () => kiln.deps.db.selectFrom('ci_job_artifacts').select('expire_at').where('project_id', '=', w.project.id).execute();
    expect(await stored()).toHaveLength(2);
    kiln.clock.advance(2 * 86_400_000);
    await kiln.worker.drain();
    expect(await stored()).toEqual([{ expire_at: null }]);
  });
});

describe('pending jobs no runner takes', () => {
  it('fail with stuck_or_timeout_failure after an hour when no runner is online, and the pipeline goes on to its end', async () => {
    const w = await repositoryWorld(kiln);
    const pipelineId = await pipelineOf(w, `
stages: [build, cleanup]
build:
  stage: build
  tags: [nobody-has-this-tag]
  script: echo build
cleanup:
  stage: cleanup
  when: on_failure
  script: echo cleanup
`);
    const statuses = async () => {
      await kiln.worker.drain();
      return Object.fromEntries(Object.entries(await jobsOf(w, pipelineId)).map(([name, job]: [string, any]) => [name, [job.status, job.failure_reason ?? null]]));
    };
    // Under an hour: still waiting for a runner (a day while one that could take it is online: stuck-pending-jobs.test.ts).
    kiln.clock.advance(50 * 60_000);
    expect(await statuses()).toMatchObject({ build: ['pending', null], cleanup: ['created', null] });
    kiln.clock.advance(20 * 60_000);
    expect(await statuses()).toMatchObject({ build: ['failed', 'stuck_or_timeout_failure'], cleanup: ['pending', null] });
    expect((await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/pipelines/${pipelineId}`)).status).toBe('running');
  });
});
