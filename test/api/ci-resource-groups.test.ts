// Resource groups (issue 39; GitLab's resource_group): a job of a group waits in `waiting_for_resource`
// while another job holds the group's one resource, gets it (`pending`) when the holder completes, in
// the group's process mode's order; cancelling or retrying follows; the Resource Groups API; and the
// hand-over under concurrent transactions (on PostgreSQL, connections of their own, as two nodes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDialect } from '../helpers/database.js';
import { inTransaction } from '../../src/platform/db/database.js';
import { processPipeline } from '../../src/ci/pipelines/process-pipeline.js';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let runnerToken: string;

// The group's key comes from a pipeline variable and the job's environment, expanded when the pipeline is made.
const CONFIG = `
stages: [build, deploy]
build:
  stage: build
  script: make
  rules:
    - if: '$WITH_BUILD == "yes"'
deploy:
  stage: deploy
  script: ./deploy
  environment: { name: prod }
  resource_group: $GROUP-$CI_ENVIRONMENT_NAME
  rules:
    - if: $GROUP
`;

const api = (method: string, path: string, body?: unknown, token = w.maintainer.token) => kiln.api(method, `/projects/${w.project.id}${path}`, { token, body });

async function runPipeline(group: string, extra: Array<{ key: string; value: string }> = []): Promise<{ pipelineId: number; deployId: number }> {
  const created = await api('POST', '/pipeline', { ref: 'main', variables: [{ key: 'GROUP', value: group }, ...extra] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const jobs = (await api('GET', `/pipelines/${created.body.id}/jobs`)).body as any[];
  return { pipelineId: created.body.id, deployId: jobs.find((job) => job.name === 'deploy').id };
}

const jobStatus = async (id: number) => (await api('GET', `/jobs/${id}`)).body.status as string;
const pipelineStatus = async (id: number) => (await api('GET', `/pipelines/${id}`)).body.status as string;
const holderOf = async (key: string) =>
  (await kiln.deps.db.selectFrom('ci_resources').innerJoin('ci_resource_groups', 'ci_resource_groups.id', 'ci_resources.resource_group_id').select('ci_resources.build_id').where('ci_resource_groups.key', '=', key).executeTakeFirstOrThrow()).build_id;

/** The runner takes the oldest pending job: its id and token, or null (204). */
async function takeJob(): Promise<{ id: number; token: string } | null> {
  const response = await kiln.request('POST', '/api/v4/jobs/request', { body: { token: runnerToken, info: { name: 'gitlab-runner', version: '17.0.0', executor: 'shell' } } });
  if (response.statusCode === 204) return null;
  expect(response.statusCode).toBe(201);
  const body = response.json();
  return { id: body.id, token: body.token };
}

async function finish(job: { id: number; token: string }, state: 'success' | 'failed' = 'success') {
  const response = await kiln.request('PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state } });
  expect(response.statusCode).toBe(200);
}

/** Runs the pending job `id` to its end through the runner protocol. */
async function runJob(id: number, state: 'success' | 'failed' = 'success') {
  const taken = await takeJob();
  expect(taken?.id).toBe(id);
  await finish(taken!, state);
}

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', actions: [create('.gitlab-ci.yml', CONFIG)] });
  const runner = await kiln.api('POST', '/user/runners', { token: w.maintainer.token, body: { runner_type: 'project_type', project_id: w.project.id, run_untagged: true } });
  expect(runner.status).toBe(201);
  runnerToken = runner.body.token;
});

afterAll(async () => {
  await kiln?.close();
});

describe('waiting for the resource', () => {
  it('runs the deploy jobs of two pipelines one after the other', async () => {
    const first = await runPipeline('production');
    const second = await runPipeline('production');
    expect(await jobStatus(first.deployId)).toBe('pending');
    expect(await jobStatus(second.deployId)).toBe('waiting_for_resource');
    expect(await pipelineStatus(second.pipelineId)).toBe('waiting_for_resource');
    expect(await holderOf('production-prod')).toBe(first.deployId);
    expect((await api('GET', '/resource_groups/production-prod/current_job')).body).toMatchObject({ id: first.deployId, status: 'pending', name: 'deploy' });
    // The job page says what it waits for.
    const web = new WebSession(kiln);
    await web.signIn(w.developer.username, w.developer.password);
    const page = await web.get(`/${w.project.path_with_namespace}/-/jobs/${second.deployId}`);
    expect(page.body).toContain('This job is waiting for resource: <code>production-prod</code>');

    const taken = await takeJob();
    expect(taken?.id).toBe(first.deployId);
    // Nothing else to take: the second deploy is not handed to a runner while it waits.
    expect(await takeJob()).toBeNull();
    await finish(taken!);
    expect(await jobStatus(first.deployId)).toBe('success');
    expect(await jobStatus(second.deployId)).toBe('pending');
    expect(await pipelineStatus(second.pipelineId)).toBe('pending');
    expect(await holderOf('production-prod')).toBe(second.deployId);
    await runJob(second.deployId, 'failed');
    expect(await holderOf('production-prod')).toBeNull();
    const free = await api('GET', '/resource_groups/production-prod/current_job');
    expect([free.status, free.body]).toEqual([200, null]);
  });

  it('hands a resource left free with a job waiting on at the periodic check (a hand-over that rolled back)', async () => {
    const first = await runPipeline('stale');
    const second = await runPipeline('stale');
    expect(await jobStatus(second.deployId)).toBe('waiting_for_resource');
    // The holder completes without the group being settled, as when the settling transaction rolled back.
    await kiln.deps.db.updateTable('ci_builds').set({ status: 'canceled' }).where('id', '=', first.deployId).execute();
    kiln.clock.advance(6 * 60_000);
    await kiln.worker.drain();
    expect(await jobStatus(second.deployId)).toBe('pending');
    expect(await holderOf('stale-prod')).toBe(second.deployId);
    expect(await pipelineStatus(second.pipelineId)).toBe('pending');
    await api('POST', `/pipelines/${second.pipelineId}/cancel`);
  });

  it('waits only when the job would be queued: a later stage waits for its stage first', async () => {
    const holder = await runPipeline('staged');
    const staged = await runPipeline('staged', [{ key: 'WITH_BUILD', value: 'yes' }]);
    const jobs = (await api('GET', `/pipelines/${staged.pipelineId}/jobs`)).body as any[];
    const build = jobs.find((job) => job.name === 'build');
    expect(await jobStatus(staged.deployId)).toBe('created');
    // The holder's job runs and passes while the other pipeline's deploy is still `created`: the resource is free.
    await runJob(holder.deployId);
    expect(await holderOf('staged-prod')).toBeNull();
    await runJob(build.id);
    expect(await jobStatus(staged.deployId)).toBe('pending');
    expect(await holderOf('staged-prod')).toBe(staged.deployId);
    await runJob(staged.deployId);
  });

  it('passes over a cancelled waiting job, and a retried job waits again', async () => {
    const holder = await runPipeline('cancel');
    const cancelled = await runPipeline('cancel');
    const next = await runPipeline('cancel');
    expect((await api('POST', `/jobs/${cancelled.deployId}/cancel`)).body.status).toBe('canceled');
    expect(await pipelineStatus(cancelled.pipelineId)).toBe('canceled');
    await runJob(holder.deployId);
    expect(await jobStatus(next.deployId)).toBe('pending');
    // Retrying the first deploy while the resource is held: the new job waits for it.
    const retried = await api('POST', `/jobs/${holder.deployId}/retry`);
    expect(retried.body.status).toBe('waiting_for_resource');
    // Cancelling the holder hands the resource on.
    expect((await api('POST', `/jobs/${next.deployId}/cancel`)).body.status).toBe('canceled');
    expect(await jobStatus(retried.body.id)).toBe('pending');
    expect(await holderOf('cancel-prod')).toBe(retried.body.id);
    await runJob(retried.body.id);
  });

  it('gives a job whose key is not a valid one once expanded no group, as GitLab', async () => {
    const made = await runPipeline('/bad');
    expect(await jobStatus(made.deployId)).toBe('pending');
    expect((await api('GET', `/resource_groups/${encodeURIComponent('/bad-prod')}`)).status).toBe(404);
    await runJob(made.deployId);
  });
});

describe('process modes', () => {
  /** A holder and three waiting pipelines in the group `key`; answers the order the waiting ones ran in. */
  async function order(key: string, mode: string | null): Promise<number[]> {
    const holder = await runPipeline(key);
    if (mode) expect((await api('PUT', `/resource_groups/${key}-prod`, { process_mode: mode })).body.process_mode).toBe(mode);
    const waiting = [await runPipeline(key), await runPipeline(key), await runPipeline(key)];
    await runJob(holder.deployId);
    const ran: number[] = [];
    for (let i = 0; i < waiting.length; i += 1) {
      const statuses = await Promise.all(waiting.map((one) => jobStatus(one.deployId)));
      expect(statuses.filter((status) => status === 'pending')).toHaveLength(1);
      const next = statuses.indexOf('pending');
      ran.push(next);
      await runJob(waiting[next].deployId);
    }
    return ran;
  }

  it('hands the resource out oldest first, newest first, newest ready first and (default) by job', async () => {
    expect(await order('unordered', null)).toEqual([0, 1, 2]);
    expect(await order('oldest', 'oldest_first')).toEqual([0, 1, 2]);
    expect(await order('newest', 'newest_first')).toEqual([2, 1, 0]);
    expect(await order('ready', 'newest_ready_first')).toEqual([2, 1, 0]);
  });

  it('oldest_first keeps the resource for an older pipeline whose job is not ready yet', async () => {
    const older = await runPipeline('ordered', [{ key: 'WITH_BUILD', value: 'yes' }]);
    expect((await api('PUT', '/resource_groups/ordered-prod', { process_mode: 'oldest_first' })).status).toBe(200);
    const newer = await runPipeline('ordered');
    expect(await jobStatus(newer.deployId)).toBe('waiting_for_resource');
    const upcoming = (await api('GET', '/resource_groups/ordered-prod/upcoming_jobs')).body as any[];
    expect(upcoming.map((job) => [job.id, job.status])).toEqual([[older.deployId, 'created'], [newer.deployId, 'waiting_for_resource']]);
    // Unordered now: the waiting job takes the free resource at once.
    expect((await api('PUT', '/resource_groups/ordered-prod', { process_mode: 'unordered' })).body.process_mode).toBe('unordered');
    expect(await jobStatus(newer.deployId)).toBe('pending');
    const build = ((await api('GET', `/pipelines/${older.pipelineId}/jobs`)).body as any[]).find((job) => job.name === 'build');
    await runJob(build.id);
    expect(await jobStatus(older.deployId)).toBe('waiting_for_resource');
    await runJob(newer.deployId);
    await runJob(older.deployId);
  });
});

describe('Resource Groups API', () => {
  it('lists, reads and changes groups with GitLab fields, for Developers', async () => {
    const listed = await api('GET', '/resource_groups', undefined, w.developer.token);
    expect(listed.status).toBe(200);
    const production = listed.body.find((group: any) => group.key === 'production-prod');
    expect(Object.keys(production)).toEqual(['id', 'key', 'process_mode', 'created_at', 'updated_at']);
    expect(production).toMatchObject({ key: 'production-prod', process_mode: 'unordered', created_at: expect.any(String) });
    expect((await api('GET', '/resource_groups/production-prod', undefined, w.developer.token)).body).toEqual(production);
    expect((await api('GET', '/resource_groups', undefined, w.reporter.token)).status).toBe(403);
    expect((await api('PUT', '/resource_groups/production-prod', { process_mode: 'oldest_first' }, w.reporter.token)).status).toBe(403);
    expect((await api('GET', '/resource_groups/nothing-here')).body).toEqual({ message: '404 Not found' });
    const wrong = await api('PUT', '/resource_groups/production-prod', { process_mode: 'fastest_first' }, w.developer.token);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'process_mode does not have a valid value' });
    const changed = await api('PUT', '/resource_groups/production-prod', { process_mode: 'newest_first' }, w.developer.token);
    expect(changed.body).toMatchObject({ id: production.id, process_mode: 'newest_first' });
    expect((await api('GET', '/resource_groups/production-prod')).body.process_mode).toBe('newest_first');
  });

  it('lists the upcoming jobs in the order they will run, and takes keys with a slash URL-encoded', async () => {
    const holder = await runPipeline('env/a');
    const waiting = [await runPipeline('env/a'), await runPipeline('env/a')];
    const key = encodeURIComponent('env/a-prod');
    expect((await api('GET', `/resource_groups/${key}`)).body.key).toBe('env/a-prod');
    const upcoming = (await api('GET', `/resource_groups/${key}/upcoming_jobs`)).body as any[];
    expect(upcoming.map((job) => job.id)).toEqual(waiting.map((one) => one.deployId));
    expect(upcoming[0]).toMatchObject({ status: 'waiting_for_resource', name: 'deploy', pipeline: { id: waiting[0].pipelineId } });
    await api('PUT', `/resource_groups/${key}`, { process_mode: 'newest_first' });
    expect(((await api('GET', `/resource_groups/${key}/upcoming_jobs`)).body as any[]).map((job) => job.id)).toEqual([waiting[1].deployId, waiting[0].deployId]);
    await runJob(holder.deployId);
    await runJob(waiting[1].deployId);
    await runJob(waiting[0].deployId);
  });
});

describe('concurrency', () => {
  // The holder completes in one transaction (held open before its commit) while another pipeline's
  // job starts waiting in a second one. Without the resource row taken first, the second sees the
  // holder still running and the first sees no waiting job: the job would wait for a free resource
  // for ever. With it the second waits for the first's commit and takes the resource. (SQLite runs
  // one writer at a time: there the second cannot start before the first ends.)
  it.runIf(testDialect() === 'postgres')('hands the resource to a job that starts waiting while its holder completes', async () => {
    const holder = await runPipeline('interleave');
    const taken = await takeJob();
    expect(taken?.id).toBe(holder.deployId);
    let reached!: () => void;
    let release!: () => void;
    const atCommit = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const completing = inTransaction(kiln.deps.db, async (trx) => {
      await trx.updateTable('ci_builds').set({ status: 'success', finished_at: kiln.clock.now() }).where('id', '=', holder.deployId).execute();
      await processPipeline(trx, kiln.deps, holder.pipelineId);
      reached();
      await gate;
    });
    await atCommit;
    let madeDone = false;
    const made = runPipeline('interleave').finally(() => (madeDone = true));
    // Until the second transaction either ended or waits for a lock (the first's resource row).
    for (;;) {
      if (madeDone) break;
      const waits = await sql<{ count: string }>`select count(*) as count from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`.execute(kiln.deps.db);
      if (Number(waits.rows[0].count) > 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    release();
    await completing;
    const waiting = await made;
    expect(await jobStatus(waiting.deployId)).toBe('pending');
    expect(await holderOf('interleave-prod')).toBe(waiting.deployId);
    await runJob(waiting.deployId);
  });

  it('never leaves a job waiting while the resource is free, whatever runs at once', async () => {
    const first = await runPipeline('race');
    const taken = await takeJob();
    expect(taken?.id).toBe(first.deployId);
    // The holder completes while new pipelines start waiting and a waiting job is cancelled, all at once.
    const seed = await runPipeline('race');
    const [made] = await Promise.all([
      Promise.all([runPipeline('race'), runPipeline('race'), runPipeline('race')]),
      finish(taken!),
      api('POST', `/jobs/${seed.deployId}/cancel`),
    ]);
    const ids = made.map((one) => one.deployId);
    // Exactly one of them holds the resource; the others wait. Each then runs in turn.
    for (let round = 0; round < ids.length; round += 1) {
      const statuses = await Promise.all(ids.map(jobStatus));
      const pending = ids.filter((_, i) => statuses[i] === 'pending');
      expect(pending, JSON.stringify(statuses)).toHaveLength(1);
      expect(statuses.filter((status) => status === 'waiting_for_resource')).toHaveLength(ids.length - round - 1);
      expect(await holderOf('race-prod')).toBe(pending[0]);
      await runJob(pending[0]);
    }
    expect(await holderOf('race-prod')).toBeNull();
  });
});
