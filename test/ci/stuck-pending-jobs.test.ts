// A pending job that no online runner could take fails with `stuck_or_timeout_failure` after an hour,
// as GitLab's Ci::StuckBuilds::DropPendingService fails a `stuck?` job: runners that are paused, have
// not asked within 2 hours, lack the job's tags, take protected refs only, belong to another project,
// or are group or instance runners the project turned off do not count. One runner that could take it
// keeps it waiting (then only the day's timeout fails it). Its own server, so every runner is this
// file's; the runners never ask for a job, they are kept online by their `contacted_at`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from '../api/repository-api-driver.js';

let kiln: TestKiln;
/** Runners that count as online: their contacted_at is moved to now before each check. */
let online: number[] = [];

async function runner(user: TestUser, attributes: Record<string, unknown>, options: { online: boolean } = { online: true }): Promise<number> {
  const id = Number((await kiln.apiAs(user, 'POST', '/user/runners', attributes)).id);
  if (options.online) online.push(id);
  return id;
}

/** The pipeline of a first commit on `feature` (a ref no rule protects); its one job, `build`, untagged unless told. */
async function pendingJob(w: RepositoryWorld, tags: string[] = []): Promise<number> {
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'feature', actions: [create('.gitlab-ci.yml', `build:\n  tags: [${tags.join(', ')}]\n  script: echo build\n`)] });
  await kiln.worker.drain();
  const [pipeline] = await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/pipelines`);
  const [job] = await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/pipelines/${pipeline.id}/jobs`);
  expect(job.status).toBe('pending');
  return job.id;
}

/** The job's status and failure reason after the clock moved `minutes` on and the stuck-job check ran. */
async function after(w: RepositoryWorld, jobId: number, minutes: number): Promise<[string, string | null]> {
  kiln.clock.advance(minutes * 60_000);
  if (online.length > 0) await kiln.deps.db.updateTable('ci_runners').set({ contacted_at: kiln.clock.now() }).where('id', 'in', online).execute();
  await kiln.worker.drain();
  const job = await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/jobs/${jobId}`);
  return [job.status, job.failure_reason ?? null];
}

const setProject = async (w: RepositoryWorld, body: Record<string, unknown>) => expect((await kiln.api('PUT', `/projects/${w.project.id}`, { token: w.maintainer.token, body })).status).toBe(200);

beforeAll(async () => {
  kiln = await testKiln();
});

afterAll(async () => {
  await kiln?.close();
});

describe('a pending job no online runner could take', () => {
  it('fails with stuck_or_timeout_failure after an hour, whatever runners cannot take it', async () => {
    online = [];
    const w = await repositoryWorld(kiln);
    const other = await repositoryWorld(kiln);
    await setProject(w, { group_runners_enabled: false });
    const project = { runner_type: 'project_type', project_id: w.project.id };
    await runner(w.maintainer, { ...project, paused: true });
    await runner(w.maintainer, { ...project, tag_list: ['other'], run_untagged: false });
    await runner(w.maintainer, { ...project, access_level: 'ref_protected' });
    await runner(other.maintainer, { runner_type: 'project_type', project_id: other.project.id });
    await runner(w.owner, { runner_type: 'group_type', group_id: w.group.id });
    const offline = await runner(w.maintainer, project, { online: false });
    await kiln.deps.db.updateTable('ci_runners').set({ contacted_at: kiln.clock.now() - 3 * 60 * 60_000 }).where('id', '=', offline).execute();
    const jobId = await pendingJob(w);
    expect(await after(w, jobId, 55)).toEqual(['pending', null]);
    expect(await after(w, jobId, 10)).toEqual(['failed', 'stuck_or_timeout_failure']);
  });

  it('waits while an online runner of its group could take it, and fails once that runner is paused', async () => {
    online = [];
    const w = await repositoryWorld(kiln);
    const group = await runner(w.owner, { runner_type: 'group_type', group_id: w.group.id, tag_list: ['linux'] });
    const jobId = await pendingJob(w, ['linux']);
    expect(await after(w, jobId, 120)).toEqual(['pending', null]);
    expect((await kiln.api('PUT', `/runners/${group}`, { token: w.owner.token, body: { paused: true } })).status).toBe(200);
    expect(await after(w, jobId, 5)).toEqual(['failed', 'stuck_or_timeout_failure']);
  });

  it('waits while an instance runner could take it, and fails once the project turns instance runners off', async () => {
    online = [];
    const w = await repositoryWorld(kiln);
    await runner(kiln.root, { runner_type: 'instance_type' });
    const jobId = await pendingJob(w);
    expect(await after(w, jobId, 120)).toEqual(['pending', null]);
    await setProject(w, { shared_runners_enabled: false });
    expect(await after(w, jobId, 5)).toEqual(['failed', 'stuck_or_timeout_failure']);
  });

  it('fails after a day when a runner that could take it stays online without taking it', async () => {
    const w = await repositoryWorld(kiln);
    online = [await runner(w.maintainer, { runner_type: 'project_type', project_id: w.project.id })];
    const jobId = await pendingJob(w);
    expect(await after(w, jobId, 23 * 60)).toEqual(['pending', null]);
    expect(await after(w, jobId, 2 * 60)).toEqual(['failed', 'stuck_or_timeout_failure']);
  });
});
