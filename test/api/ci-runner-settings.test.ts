// A project's shared_runners_enabled and group_runners_enabled decide which runners take its jobs, as
// in GitLab: with one false, no instance (or group) runner is handed the project's jobs, over both of
// the claim's paths (a runner without tags, and a tagged one), while other projects' jobs still go to
// them and the project's own runners are unaffected; turned on again, they are handed the jobs. The
// CI/CD settings page shows and turns over both flags; the migration copies the flags projects set
// before it. Its own server, so every pending job is this
// file's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { sql, type Kysely } from 'kysely';
import { up as copyRunnerFlags } from '../../src/platform/db/migrations/20261231T1230-project-runner-flags.js';

let kiln: TestKiln;

const requestJob = (token: string) => kiln.request('POST', '/api/v4/jobs/request', { body: { token, info: { name: 'gitlab-runner', version: '17.0.0', executor: 'shell' } } });

/** The job handed to the runner (its project id and name), or null when told 204. */
async function handed(token: string): Promise<{ project: number; name: string } | null> {
  const answer = await requestJob(token);
  if (answer.statusCode === 204) return null;
  expect(answer.statusCode).toBe(201);
  const job = answer.json();
  return { project: job.job_info.project_id, name: job.job_info.name };
}

async function pipelineOf(w: RepositoryWorld, config: string): Promise<void> {
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', actions: [create('.gitlab-ci.yml', config)] });
  await kiln.worker.drain();
}

async function runner(user: TestUser, attributes: Record<string, unknown>): Promise<string> {
  return (await kiln.apiAs(user, 'POST', '/user/runners', attributes)).token;
}

async function setFlags(w: RepositoryWorld, flags: Record<string, boolean>): Promise<void> {
  const answer = await kiln.api('PUT', `/projects/${w.project.id}`, { token: w.maintainer.token, body: flags });
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject(flags);
}

const JOBS = 'one:\n  script: echo one\ntwo:\n  script: echo two\ntagged:\n  tags: [special]\n  script: echo tagged\n';

beforeAll(async () => {
  kiln = await testKiln();
});

afterAll(async () => {
  await kiln?.close();
});

describe('shared_runners_enabled and group_runners_enabled', () => {
  it('keep instance and group runners from the project, not its own runners, until turned on again', async () => {
    const w = await repositoryWorld(kiln);
    const other = await repositoryWorld(kiln);
    await setFlags(w, { shared_runners_enabled: false, group_runners_enabled: false });
    await pipelineOf(w, JOBS);
    const instance = await runner(kiln.root, { runner_type: 'instance_type' });
    const instanceTagged = await runner(kiln.root, { runner_type: 'instance_type', tag_list: ['special'], run_untagged: false });
    const group = await runner(w.owner, { runner_type: 'group_type', group_id: w.group.id, tag_list: ['special'] });
    expect(await handed(instance)).toBeNull();
    expect(await handed(instanceTagged)).toBeNull();
    expect(await handed(group)).toBeNull();

    // Another project's job still goes to the instance runner.
    await pipelineOf(other, 'elsewhere:\n  script: echo elsewhere\n');
    expect(await handed(instance)).toEqual({ project: other.project.id, name: 'elsewhere' });
    expect(await handed(instance)).toBeNull();

    // The project's own runner takes its jobs whatever the flags say.
    const own = await runner(w.maintainer, { runner_type: 'project_type', project_id: w.project.id });
    expect(await handed(own)).toEqual({ project: w.project.id, name: 'one' });

    await setFlags(w, { shared_runners_enabled: true });
    expect(await handed(group)).toBeNull();
    expect(await handed(instanceTagged)).toEqual({ project: w.project.id, name: 'tagged' });
    expect(await handed(instance)).toEqual({ project: w.project.id, name: 'two' });
  });

  it('let group runners of the project\'s groups take its jobs again once group_runners_enabled is true', async () => {
    const w = await repositoryWorld(kiln);
    await setFlags(w, { shared_runners_enabled: false, group_runners_enabled: false });
    await pipelineOf(w, JOBS);
    const group = await runner(w.owner, { runner_type: 'group_type', group_id: w.group.id });
    const groupTagged = await runner(w.owner, { runner_type: 'group_type', group_id: w.group.id, tag_list: ['special'], run_untagged: false });
    expect(await handed(group)).toBeNull();
    expect(await handed(groupTagged)).toBeNull();
    await setFlags(w, { group_runners_enabled: true });
    expect(await handed(groupTagged)).toEqual({ project: w.project.id, name: 'tagged' });
    expect(await handed(group)).toEqual({ project: w.project.id, name: 'one' });
    // Only the group runners: the instance's still take nothing of it.
    expect(await handed(await runner(kiln.root, { runner_type: 'instance_type' }))).toBeNull();
  });

  it('are kept in the row for the claim when a project is created with them', async () => {
    const owner = await kiln.createUser('flagged-owner');
    const made = await kiln.apiAs(owner, 'POST', '/projects', { name: 'flagged', shared_runners_enabled: false });
    expect(made.shared_runners_enabled).toBe(false);
    expect(made.group_runners_enabled).toBe(true);
    const row = await kiln.deps.db.selectFrom('projects').select(['shared_runners_enabled', 'group_runners_enabled']).where('id', '=', made.id).executeTakeFirstOrThrow();
    expect([Number(row.shared_runners_enabled), Number(row.group_runners_enabled)]).toEqual([0, 1]);
  });
});

describe('Settings › CI/CD', () => {
  it('shows whether instance and group runners take the jobs and turns them over', async () => {
    const w = await repositoryWorld(kiln);
    const settings = `/${w.project.path_with_namespace}/-/settings/ci_cd`;
    const web = new WebSession(kiln);
    await web.signIn(w.maintainer.username, w.maintainer.password);
    expect((await web.get(settings)).body).toContain('data-runner-kind="instance" data-enabled="true"');
    const off = await web.post(settings, { action: 'runner_kind', kind: 'instance', enabled: 'false' });
    expect(off.statusCode).toBe(303);
    const page = await web.get(settings);
    expect(page.body).toContain('data-runner-kind="instance" data-enabled="false"');
    expect(page.body).toContain('Enable instance runners for this project');
    expect(page.body).toContain('data-runner-kind="group" data-enabled="true"');
    expect((await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}`)).shared_runners_enabled).toBe(false);
    await pipelineOf(w, 'one:\n  script: echo one\n');
    const instance = await runner(kiln.root, { runner_type: 'instance_type' });
    expect(await handed(instance)).toBeNull();
    await web.post(settings, { action: 'runner_kind', kind: 'instance', enabled: 'true' });
    expect(await handed(instance)).toEqual({ project: w.project.id, name: 'one' });

    const developer = new WebSession(kiln);
    await developer.signIn(w.developer.username, w.developer.password);
    expect((await developer.post(settings, { action: 'runner_kind', kind: 'group', enabled: 'false' })).statusCode).toBe(403);
    expect((await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}`)).group_runners_enabled).toBe(true);
  });
});

describe('migration 20261231T1230', () => {
  it("copies the flags projects set before it into the claim's columns", async () => {
    const db = kiln.deps.db as unknown as Kysely<any>;
    const [off, on, plain] = [await repositoryWorld(kiln), await repositoryWorld(kiln), await repositoryWorld(kiln)];
    // The schema before the migration: the flags only in the settings JSON.
    await sql`drop index projects_shared_runners_disabled`.execute(db);
    await sql`drop index projects_group_runners_disabled`.execute(db);
    await db.schema.alterTable('projects').dropColumn('shared_runners_enabled').execute();
    await db.schema.alterTable('projects').dropColumn('group_runners_enabled').execute();
    await db.updateTable('projects').set({ settings: '{"group_runners_enabled":false,"shared_runners_enabled":false}' }).where('id', '=', off.project.id).execute();
    await db.updateTable('projects').set({ settings: '{"group_runners_enabled":true,"shared_runners_enabled":true}' }).where('id', '=', on.project.id).execute();
    await copyRunnerFlags(db);
    const rows = await db.selectFrom('projects').select(['id', 'shared_runners_enabled', 'group_runners_enabled']).where('id', 'in', [off.project.id, on.project.id, plain.project.id]).orderBy('id').execute();
    expect(rows.map((row) => [Number(row.id), Number(row.shared_runners_enabled), Number(row.group_runners_enabled)])).toEqual([
      [off.project.id, 0, 0],
      [on.project.id, 1, 1],
      [plain.project.id, 1, 1],
    ]);
    await pipelineOf(off, 'one:\n  script: echo one\n');
    expect(await handed(await runner(kiln.root, { runner_type: 'instance_type' }))).toBeNull();
  });
});
