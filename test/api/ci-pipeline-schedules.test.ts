// Pipeline schedules (issue 39): GitLab's API and messages, next_run_at from the cron in the
// schedule's time zone, the owner's rights, variables, play, and the scheduler: a due schedule runs
// once as its owner with its variables, also when two scheduler runs race and after a long downtime.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { claimDueSchedules } from '../../src/ci/schedules/run-schedules.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let scheduleId: number;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'ci [skip ci]', actions: [create('.gitlab-ci.yml', 'build:\n  script: echo $TARGET\n')] });
  await kiln.worker.drain();
});

afterAll(async () => {
  await kiln?.close();
});

const schedules = (path = '') => `/projects/${w.project.id}/pipeline_schedules${path}`;
const schedulePipelines = async () => kiln.deps.db.selectFrom('ci_pipelines').selectAll().where('project_id', '=', w.project.id).where('source', '=', 'schedule').orderBy('id').execute();

describe('POST /projects/:id/pipeline_schedules', () => {
  it('as a developer makes a schedule whose next run is the cron in its time zone', async () => {
    // The test clock reads Sunday 2026-11-22 08:00 UTC; 09:30 in Berlin (UTC+1 in November) is 08:30 UTC.
    const created = await kiln.api('POST', schedules(), { token: w.developer.token, body: { description: 'nightly', ref: 'main', cron: '30 9 * * *', cron_timezone: 'Europe/Berlin' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number), description: 'nightly', ref: 'main', cron: '30 9 * * *', cron_timezone: 'Europe/Berlin',
      next_run_at: '2026-11-22T08:30:00.000Z', active: true, created_at: '2026-11-22T08:00:00.000Z', updated_at: '2026-11-22T08:00:00.000Z',
      owner: expect.objectContaining({ username: w.developer.username }), last_pipeline: null, variables: [],
    });
    scheduleId = created.body.id;
    const utc = await kiln.api('POST', schedules(), { token: w.developer.token, body: { description: 'weekly', ref: 'main', cron: '0 0 * * 1', active: false } });
    expect(utc.body).toMatchObject({ cron_timezone: 'UTC', active: false, next_run_at: null });
  });

  it("answers GitLab's validation messages and refuses a reporter", async () => {
    const post = (body: object, token = w.developer.token) => kiln.api('POST', schedules(), { token, body: { description: 'x', ref: 'main', cron: '0 1 * * *', ...body } });
    expect(await post({ cron: '61 * * * *' })).toMatchObject({ status: 400, body: { message: { cron: [' is invalid syntax'] } } });
    expect(await post({ cron: '* * * * * *' })).toMatchObject({ status: 400, body: { message: { cron: [' is invalid syntax'] } } });
    expect(await post({ cron_timezone: 'Mars/Olympus' })).toMatchObject({ status: 400, body: { message: { cron_timezone: [' is invalid syntax'] } } });
    expect((await post({ description: undefined })).body).toEqual({ error: 'description is missing' });
    expect((await post({}, w.reporter.token)).status).toBe(403);
  });
});

describe('reading schedules', () => {
  it('lists them for reporters, filtered by scope; a guest is refused', async () => {
    const all = await kiln.api('GET', schedules(), { token: w.reporter.token });
    expect(all.status).toBe(200);
    expect(all.body.map((row: any) => row.description)).toEqual(['nightly', 'weekly']);
    expect(all.body[0]).not.toHaveProperty('variables');
    expect((await kiln.api('GET', schedules(), { token: w.reporter.token, query: { scope: 'inactive' } })).body.map((row: any) => row.description)).toEqual(['weekly']);
    expect((await kiln.api('GET', schedules(), { token: w.reporter.token, query: { scope: 'active' } })).body.map((row: any) => row.description)).toEqual(['nightly']);
    expect((await kiln.api('GET', schedules(), { token: w.reporter.token, query: { scope: 'sometimes' } })).status).toBe(400);
    expect((await kiln.api('GET', schedules(), { token: w.guest.token })).status).toBe(403);
    expect(await kiln.api('GET', schedules('/999999'), { token: w.reporter.token })).toMatchObject({ status: 404, body: { message: '404 Pipeline Schedule Not Found' } });
  });
});

describe('variables, editing and ownership', () => {
  it("manages the schedule's variables (owner only) and hides them from readers", async () => {
    const variables = (path = '') => schedules(`/${scheduleId}/variables${path}`);
    const created = await kiln.api('POST', variables(), { token: w.developer.token, body: { key: 'TARGET', value: 'nightly-build' } });
    expect(created).toMatchObject({ status: 201, body: { key: 'TARGET', value: 'nightly-build', variable_type: 'env_var' } });
    expect((await kiln.api('POST', variables(), { token: w.developer.token, body: { key: 'TARGET', value: 'again' } })).body).toEqual({ message: { key: ['(TARGET) has already been taken'] } });
    expect((await kiln.api('POST', variables(), { token: w.developer.token, body: { key: 'BAD-KEY', value: 'x' } })).body).toEqual({ message: { key: ["can contain only letters, digits and '_'."] } });
    expect((await kiln.api('POST', variables(), { token: w.maintainer.token, body: { key: 'OTHER', value: 'x' } })).status).toBe(403);
    await kiln.apiAs(w.developer, 'POST', variables(), { key: 'SPARE', value: 'gone soon', variable_type: 'file' });
    expect(await kiln.api('PUT', variables('/SPARE'), { token: w.developer.token, body: { value: 'changed' } })).toMatchObject({ status: 200, body: { key: 'SPARE', value: 'changed', variable_type: 'file' } });
    expect(await kiln.api('DELETE', variables('/SPARE'), { token: w.developer.token })).toMatchObject({ status: 202, body: { key: 'SPARE', value: 'changed' } });
    expect(await kiln.api('PUT', variables('/SPARE'), { token: w.developer.token, body: { value: 'x' } })).toMatchObject({ status: 404, body: { message: '404 Pipeline Schedule Variable Not Found' } });
    const stored = await kiln.deps.db.selectFrom('ci_pipeline_schedule_variables').select('value_sealed').executeTakeFirstOrThrow();
    expect(stored.value_sealed).not.toContain('nightly-build');
    expect((await kiln.api('GET', schedules(`/${scheduleId}`), { token: w.developer.token })).body.variables).toEqual([{ variable_type: 'env_var', key: 'TARGET', value: 'nightly-build' }]);
    expect((await kiln.api('GET', schedules(`/${scheduleId}`), { token: w.reporter.token })).body).not.toHaveProperty('variables');
  });

  it("is edited by its owner; a maintainer takes it over first, after which the former owner can't edit it", async () => {
    expect((await kiln.api('PUT', schedules(`/${scheduleId}`), { token: w.maintainer.token, body: { description: 'taken?' } })).status).toBe(403);
    kiln.clock.advance(60_000);
    const edited = await kiln.api('PUT', schedules(`/${scheduleId}`), { token: w.developer.token, body: { cron: '0 12 * * *', cron_timezone: 'America/New_York' } });
    // 12:00 in New York (UTC-5 in November) is 17:00 UTC.
    expect(edited).toMatchObject({ status: 200, body: { cron: '0 12 * * *', cron_timezone: 'America/New_York', next_run_at: '2026-11-22T17:00:00.000Z', updated_at: '2026-11-22T08:01:00.000Z' } });
    expect((await kiln.api('PUT', schedules(`/${scheduleId}`), { token: w.developer.token, body: { cron: 'never' } })).body).toEqual({ message: { cron: [' is invalid syntax'] } });
    expect((await kiln.api('POST', schedules(`/${scheduleId}/take_ownership`), { token: w.developer.token })).status).toBe(403);
    const taken = await kiln.api('POST', schedules(`/${scheduleId}/take_ownership`), { token: w.maintainer.token });
    expect(taken).toMatchObject({ status: 201, body: { owner: { username: w.maintainer.username } } });
    expect((await kiln.api('PUT', schedules(`/${scheduleId}`), { token: w.developer.token, body: { description: 'mine' } })).status).toBe(403);
    expect((await kiln.api('PUT', schedules(`/${scheduleId}`), { token: w.maintainer.token, body: { description: 'nightly' } })).status).toBe(200);
  });
});

describe('running schedules', () => {
  it('play runs a pipeline now as the caller, with source schedule and the variables', async () => {
    // GitLab's protected_ref rule: on a main only Maintainers push and merge to, a Developer may not
    // play it; once Developers may merge there, they may.
    expect((await kiln.api('POST', schedules(`/${scheduleId}/play`), { token: w.developer.token })).status).toBe(403);
    expect((await kiln.api('DELETE', `/projects/${w.project.id}/protected_branches/main`, { token: w.maintainer.token })).status).toBe(204);
    expect((await kiln.api('POST', `/projects/${w.project.id}/protected_branches`, { token: w.maintainer.token, body: { name: 'main', push_access_level: 40, merge_access_level: 30 } })).status).toBe(201);
    const played = await kiln.api('POST', schedules(`/${scheduleId}/play`), { token: w.developer.token });
    expect(played).toMatchObject({ status: 201, body: { message: '201 Created' } });
    expect((await kiln.api('POST', schedules(`/${scheduleId}/play`), { token: w.reporter.token })).status).toBe(403);
    await kiln.worker.drain();
    const [pipeline] = await schedulePipelines();
    expect(pipeline).toMatchObject({ ref: 'main', source: 'schedule', user_id: w.developer.id, pipeline_schedule_id: scheduleId });
    const variables = await kiln.apiAs(w.developer, 'GET', `/projects/${w.project.id}/pipelines/${pipeline.id}/variables`);
    expect(variables).toEqual([{ variable_type: 'env_var', key: 'TARGET', value: 'nightly-build' }]);
    const shown = await kiln.apiAs(w.reporter, 'GET', schedules(`/${scheduleId}`));
    expect(shown.last_pipeline).toMatchObject({ id: Number(pipeline.id), source: 'schedule', ref: 'main' });
    const listed = await kiln.apiAs(w.reporter, 'GET', schedules(`/${scheduleId}/pipelines`));
    expect(listed.map((row: any) => row.id)).toEqual([Number(pipeline.id)]);
  });

  it('runs a due schedule once as its owner, after downtime and with two schedulers racing', async () => {
    const before = (await schedulePipelines()).length;
    // Three days without a scheduler run: three missed occurrences make one run.
    kiln.clock.advance(3 * 24 * 3_600_000);
    const claims = await Promise.all([claimDueSchedules(kiln.deps), claimDueSchedules(kiln.deps)]);
    expect(claims.reduce((sum, count) => sum + count, 0)).toBe(1);
    await kiln.worker.drain();
    const pipelines = await schedulePipelines();
    expect(pipelines.length).toBe(before + 1);
    expect(pipelines.at(-1)).toMatchObject({ user_id: w.maintainer.id, pipeline_schedule_id: scheduleId });
    // The next run is the next occurrence after now (2026-11-25 08:01 UTC): 12:00 New York that day.
    const shown = await kiln.apiAs(w.reporter, 'GET', schedules(`/${scheduleId}`));
    expect(shown.next_run_at).toBe('2026-11-25T17:00:00.000Z');
    expect(await claimDueSchedules(kiln.deps)).toBe(0);
    // The inactive schedule never runs.
    expect(pipelines.every((pipeline) => Number(pipeline.pipeline_schedule_id) === scheduleId)).toBe(true);
  });

  it('the scheduler job runs schedules as they come due', async () => {
    const before = (await schedulePipelines()).length;
    kiln.clock.advance(9 * 3_600_000);
    await kiln.worker.drain();
    expect((await schedulePipelines()).length).toBe(before + 1);
  });
});

describe('DELETE /projects/:id/pipeline_schedules/:id', () => {
  it('is refused to a developer who does not own it; a maintainer deletes it', async () => {
    expect((await kiln.api('DELETE', schedules(`/${scheduleId}`), { token: w.developer.token })).status).toBe(403);
    expect((await kiln.api('DELETE', schedules(`/${scheduleId}`), { token: w.maintainer.token })).status).toBe(204);
    expect((await kiln.api('GET', schedules(`/${scheduleId}`), { token: w.maintainer.token })).status).toBe(404);
    // Its pipelines stay, no longer linked to it.
    expect((await schedulePipelines()).every((pipeline) => pipeline.pipeline_schedule_id === null)).toBe(true);
  });
});
