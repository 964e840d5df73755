// Repository housekeeping (GitLab's Repositories::HousekeepingService): POST /projects/:id/housekeeping
// for the project's administrators, one run at a time (the lease; 409 meanwhile), the pushes that make
// one due (housekeeping_optimize_repository_period) and the settings GitLab still takes for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryPath } from '../../src/repositories/shards.js';
import { LEASE_TAKEN_MESSAGE } from '../../src/repositories/housekeeping/lease.js';
import { taskAfterPushes } from '../../src/repositories/housekeeping/tasks.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-housekeeping-'));
  kiln = await testKiln({ storages: [{ name: 'default', path: join(work, 'default'), weight: 100 }] });
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('developer');
});

afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

async function projectWithCommits(path: string, commits: number): Promise<any> {
  const project = await kiln.createProject(owner, path);
  await kiln.addMember(owner, 'projects', project.id, developer, 30);
  for (let index = 0; index < commits; index += 1) await commit(project, index);
  return project;
}

async function commit(project: any, index: number): Promise<void> {
  const body = { branch: 'main', commit_message: `Change ${index}`, actions: [{ action: index === 0 ? 'create' : 'update', file_path: 'notes.txt', content: `version ${index}\n` }] };
  const created = await kiln.api('POST', `/projects/${project.id}/repository/commits`, { token: owner.token, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

async function repositoryRow(project: any) {
  return kiln.deps.db.selectFrom('repositories').selectAll().where('container_type', '=', 'project').where('container_id', '=', project.id).executeTakeFirstOrThrow();
}

/** `git count-objects -v` of the project's repository: loose objects and packs. */
async function objects(project: any): Promise<{ loose: number; packs: number }> {
  const row = await repositoryRow(project);
  const out = execFileSync('git', ['--git-dir', repositoryPath(kiln.config.storages, row.shard, row.disk_path), 'count-objects', '-v'], { encoding: 'utf8' });
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(out)![1]);
  return { loose: field('count'), packs: field('packs') };
}

const queuedTasks = async (project: any) =>
  (await kiln.deps.db.selectFrom('jobs').select(['payload']).where('kind', '=', 'repositories.housekeeping').where('state', '=', 'queued').execute())
    .map((job) => JSON.parse(String(job.payload)))
    .filter((payload) => payload.projectId === project.id)
    .map((payload) => payload.task);

describe('POST /projects/:id/housekeeping', () => {
  it('queues a full gc that packs the loose objects, refuses a second one while it holds the lease, then allows it again', async () => {
    const project = await projectWithCommits('kept', 3);
    expect((await objects(project)).loose).toBeGreaterThan(0);
    expect((await repositoryRow(project)).pushes_since_gc).toBe(3);
    const started = await kiln.api('POST', `/projects/${project.id}/housekeeping`, { token: owner.token });
    expect(started.status).toBe(201);
    expect(typeof started.body).toBe('string');
    const again = await kiln.api('POST', `/projects/${project.id}/housekeeping`, { token: owner.token, body: { task: 'prune' } });
    expect([again.status, again.body]).toEqual([409, { message: LEASE_TAKEN_MESSAGE }]);
    await kiln.worker.drain();
    expect(await objects(project)).toEqual({ loose: 0, packs: 1 });
    // The lease given back, and the full gc started the push count again.
    expect((await repositoryRow(project)).housekeeping_leased_until).toBeNull();
    expect((await repositoryRow(project)).pushes_since_gc).toBe(0);
    // The history is whole after it.
    expect((await kiln.api('GET', `/projects/${project.id}/repository/commits`, { token: owner.token })).body).toHaveLength(3);
    expect((await kiln.api('POST', `/projects/${project.id}/housekeeping`, { token: owner.token, body: { task: 'prune' } })).status).toBe(201);
    await kiln.worker.drain();
    expect((await kiln.api('GET', `/projects/${project.id}/repository/files/notes.txt/raw`, { token: owner.token, query: { ref: 'main' } })).body).toBe('version 2\n');
  });

  it('is for the project administrators, with a task GitLab knows', async () => {
    const project = await projectWithCommits('guarded', 1);
    expect((await kiln.api('POST', `/projects/${project.id}/housekeeping`, { token: developer.token })).status).toBe(403);
    expect((await kiln.api('POST', `/projects/${project.id}/housekeeping`)).status).toBe(401);
    const wrong = await kiln.api('POST', `/projects/${project.id}/housekeeping`, { token: owner.token, body: { task: 'shred' } });
    expect([wrong.status, wrong.body]).toEqual([400, { error: 'task does not have a valid value' }]);
    expect(await queuedTasks(project)).toEqual([]);
  });

  it('queues a run for a project nothing was pushed to, which finds nothing to do', async () => {
    const project = await kiln.createProject(owner, 'empty');
    expect((await kiln.api('POST', `/projects/${project.id}/housekeeping`, { token: owner.token })).status).toBe(201);
    await kiln.worker.drain();
    expect(await queuedTasks(project)).toEqual([]);
  });
});

describe('the repository settings page', () => {
  it('runs housekeeping and prunes for the project administrators, says when a run holds the lease, and refuses developers', async () => {
    const project = await projectWithCommits('paged', 2);
    const settings = `/owner/paged/-/settings/repository`;
    const web = new WebSession(kiln);
    await web.signIn('owner', owner.password);
    const page = (await web.get(settings)).body;
    expect(page).toContain('<h2 id="housekeeping-heading">Housekeeping</h2>');
    const started = await web.post('/owner/paged/-/housekeeping', {}, { csrfFrom: settings });
    expect([started.statusCode, started.headers.location]).toEqual([303, settings]);
    expect((await web.get(settings)).body).toContain('Housekeeping successfully started');
    expect(await queuedTasks(project)).toEqual(['eager']);
    await web.post('/owner/paged/-/housekeeping', { prune: 'true' }, { csrfFrom: settings });
    expect((await web.get(settings)).body).toContain(LEASE_TAKEN_MESSAGE);
    await kiln.worker.drain();
    await web.post('/owner/paged/-/housekeeping', { prune: 'true' }, { csrfFrom: settings });
    expect(await queuedTasks(project)).toEqual(['prune']);
    await kiln.worker.drain();
    expect((await objects(project)).loose).toBe(0);
    // With a forged CSRF token, nothing is queued.
    expect((await web.post('/owner/paged/-/housekeeping', { authenticity_token: 'forged' })).statusCode).toBe(422);
    const asDeveloper = new WebSession(kiln);
    await asDeveloper.signIn('developer', developer.password);
    expect((await asDeveloper.post('/owner/paged/-/housekeeping', {}, { csrfFrom: '/owner/paged/-/tags' })).statusCode).toBe(403);
    expect(await queuedTasks(project)).toEqual([]);
  });
});

describe('housekeeping after pushes', () => {
  it('queues a run every housekeeping_optimize_repository_period pushes, and none when housekeeping is off', async () => {
    const settings = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { housekeeping_optimize_repository_period: 2 } });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const project = await projectWithCommits('busy', 1);
    expect(await queuedTasks(project)).toEqual([]);
    await commit(project, 1);
    expect(await queuedTasks(project)).toEqual(['incremental_repack']);
    await kiln.worker.drain();
    expect((await objects(project)).loose).toBe(0);
    expect((await repositoryRow(project)).pushes_since_gc).toBe(2);

    expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { housekeeping_enabled: false } })).status).toBe(200);
    await commit(project, 2);
    await commit(project, 3);
    expect(await queuedTasks(project)).toEqual([]);
    expect((await repositoryRow(project)).pushes_since_gc).toBe(4);
    await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { housekeeping_enabled: true, housekeeping_optimize_repository_period: 10 } });
  });

  it('repacks incrementally every period, fully every fifth and runs git gc every twentieth', () => {
    expect([1, 9, 10, 20, 50, 100, 150, 200, 400].map((pushes) => taskAfterPushes(pushes, 10))).toEqual([null, null, 'incremental_repack', 'incremental_repack', 'full_repack', 'full_repack', 'full_repack', 'gc', 'gc']);
    expect(taskAfterPushes(3, 1)).toBe('incremental_repack');
  });
});

describe('housekeeping settings', () => {
  it("returns GitLab's defaults, the deprecated periods as the optimize period, and takes the deprecated ones as GitLab does", async () => {
    const read = async () => (await kiln.api('GET', '/application/settings', { token: kiln.root.token })).body;
    expect(await read()).toMatchObject({ housekeeping_enabled: true, housekeeping_optimize_repository_period: 10, housekeeping_incremental_repack_period: 10, housekeeping_full_repack_period: 10, housekeeping_gc_period: 10, housekeeping_bitmaps_enabled: true });
    const legacy = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { housekeeping_incremental_repack_period: 7, housekeeping_full_repack_period: 35, housekeeping_gc_period: 140, housekeeping_bitmaps_enabled: false } });
    expect(legacy.status, JSON.stringify(legacy.body)).toBe(200);
    expect(legacy.body).toMatchObject({ housekeeping_optimize_repository_period: 7, housekeeping_incremental_repack_period: 7, housekeeping_full_repack_period: 7, housekeeping_gc_period: 7, housekeeping_bitmaps_enabled: true });
    const zero = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { housekeeping_gc_period: 0, housekeeping_optimize_repository_period: 0 } });
    expect([zero.status, zero.body]).toEqual([400, { message: { housekeeping_optimize_repository_period: ['must be greater than 0'], housekeeping_gc_period: ['must be greater than 0'] } }]);
    expect((await read()).housekeeping_optimize_repository_period).toBe(7);
    await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { housekeeping_optimize_repository_period: 10 } });
  });
});
