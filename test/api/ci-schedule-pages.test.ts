// Pipeline schedule pages (issue 39): made and edited from a form (cron, time zone, ref, active and
// the schedule's variables, in one transaction: a refused variable changes nothing), played now (a
// schedule pipeline as the player; a Developer on a protected main is refused, as by the API), taken
// over by a Maintainer and deleted; each action offered only to whom the schedules API's policy
// allows it; CSRF; text escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let base: string;

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

const schedules = () => kiln.api('GET', `/projects/${w.project.id}/pipeline_schedules`, { token: w.maintainer.token }).then((answer) => answer.body as any[]);
const schedule = (id: number) => kiln.api('GET', `/projects/${w.project.id}/pipeline_schedules/${id}`, { token: w.maintainer.token }).then((answer) => answer.body);

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  base = `/${w.project.path_with_namespace}`;
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', actions: [create('.gitlab-ci.yml', 'job:\n  script: make\n')] });
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'feature', start_branch: 'main', actions: [create('feature.txt')] });
  await kiln.worker.drain();
});

afterAll(async () => {
  await kiln?.close();
});

describe('a new schedule', () => {
  it('is made by a Developer with a variable, and a refused one makes nothing', async () => {
    const developer = await signedIn(w.developer);
    const form = await developer.get(`${base}/-/pipeline_schedules/new`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('id="schedule-form"');
    const refused = await developer.post(`${base}/-/pipeline_schedules`, { description: 'Nightly', cron: 'every day', ref: 'feature', active: 'true', new_variable_key: 'MODE', new_variable_value: 'full' }, { csrfFrom: `${base}/-/pipeline_schedules/new` });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('is invalid syntax');
    expect(await schedules()).toEqual([]);
    const bad = await developer.post(`${base}/-/pipeline_schedules`, { description: 'Nightly', cron: '0 1 * * *', ref: 'feature', active: 'true', new_variable_key: 'not a key', new_variable_value: 'x' }, { csrfFrom: `${base}/-/pipeline_schedules/new` });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("key can contain only letters, digits and &#39;_&#39;.");
    expect(await schedules()).toEqual([]);
    const made = await developer.post(`${base}/-/pipeline_schedules`, { description: 'Nightly <build>', cron: '0 1 * * *', cron_timezone: 'Europe/Berlin', ref: 'feature', active: 'true', new_variable_key: 'MODE', new_variable_value: 'full' }, { csrfFrom: `${base}/-/pipeline_schedules/new` });
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toBe(`${base}/-/pipeline_schedules`);
    const [row] = await schedules();
    expect(await schedule(row.id)).toMatchObject({ description: 'Nightly <build>', cron: '0 1 * * *', cron_timezone: 'Europe/Berlin', ref: 'feature', active: true, owner: { username: w.developer.username }, variables: [{ key: 'MODE', value: 'full', variable_type: 'env_var' }] });
    const list = await developer.get(`${base}/-/pipeline_schedules`);
    expect(list.body).toContain('Nightly &lt;build&gt;');
    expect(list.body).toContain(`href="${base}/-/pipeline_schedules/${row.id}/edit"`);
  });

  it('is not offered to Reporters, who still read the list', async () => {
    const [row] = await schedules();
    const reporter = await signedIn(w.reporter);
    const list = await reporter.get(`${base}/-/pipeline_schedules`);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('Nightly &lt;build&gt;');
    for (const action of ['edit"', 'play"', 'delete"', 'take_ownership"']) expect(list.body).not.toContain(`/-/pipeline_schedules/${row.id}/${action}`);
    expect(list.body).not.toContain('id="new-schedule"');
    expect((await reporter.get(`${base}/-/pipeline_schedules/new`)).statusCode).toBe(403);
    expect((await (await signedIn(w.stranger)).get(`${base}/-/pipeline_schedules`)).statusCode).toBe(404);
  });
});

describe('editing', () => {
  it('changes cron, time zone, ref, active and the variables; a refused variable changes nothing', async () => {
    const [row] = await schedules();
    const url = `${base}/-/pipeline_schedules/${row.id}/edit`;
    const developer = await signedIn(w.developer);
    const form = await developer.get(url);
    expect(form.statusCode).toBe(200);
    const variableId = /name="variable_value_(\d+)" value="full"/.exec(form.body)![1];
    const refused = await developer.post(url, { description: 'Weekly', cron: '0 4 * * 1', cron_timezone: 'UTC', ref: 'feature', [`variable_value_${variableId}`]: 'quick', new_variable_key: 'MODE', new_variable_value: 'again' }, { csrfFrom: url });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('(MODE) has already been taken');
    expect(await schedule(row.id)).toMatchObject({ description: 'Nightly <build>', cron: '0 1 * * *', variables: [{ key: 'MODE', value: 'full' }] });
    const saved = await developer.post(url, { description: 'Weekly', cron: '0 4 * * 1', cron_timezone: 'UTC', ref: 'main', [`variable_value_${variableId}`]: 'quick', [`variable_type_${variableId}`]: 'file', new_variable_key: 'EXTRA', new_variable_value: 'yes' }, { csrfFrom: url });
    expect(saved.statusCode).toBe(303);
    expect(await schedule(row.id)).toMatchObject({ description: 'Weekly', cron: '0 4 * * 1', cron_timezone: 'UTC', ref: 'main', active: false, next_run_at: null, variables: [{ key: 'MODE', value: 'quick', variable_type: 'file' }, { key: 'EXTRA', value: 'yes', variable_type: 'env_var' }] });
    const removed = await developer.post(url, { description: 'Weekly', cron: '0 4 * * 1', cron_timezone: 'UTC', ref: 'feature', active: 'true', [`variable_remove_${variableId}`]: 'true' }, { csrfFrom: url });
    expect(removed.statusCode).toBe(303);
    expect(await schedule(row.id)).toMatchObject({ ref: 'feature', active: true, variables: [{ key: 'EXTRA' }] });
    expect((await developer.post(url, { description: 'x', cron: '0 4 * * 1', ref: 'feature', authenticity_token: 'forged' })).statusCode).toBe(422);
  });

  it('is the owner\'s: a Maintainer takes ownership first, after which the Developer is refused', async () => {
    const [row] = await schedules();
    const url = `${base}/-/pipeline_schedules/${row.id}/edit`;
    const maintainer = await signedIn(w.maintainer);
    expect((await maintainer.get(url)).statusCode).toBe(403);
    const list = await maintainer.get(`${base}/-/pipeline_schedules`);
    expect(list.body).toContain(`action="${base}/-/pipeline_schedules/${row.id}/take_ownership"`);
    expect(list.body).not.toContain(`href="${url}"`);
    const developer = await signedIn(w.developer);
    expect((await developer.post(`${base}/-/pipeline_schedules/${row.id}/take_ownership`, {}, { csrfFrom: `${base}/-/pipeline_schedules` })).statusCode).toBe(403);
    const taken = await maintainer.post(`${base}/-/pipeline_schedules/${row.id}/take_ownership`, {}, { csrfFrom: `${base}/-/pipeline_schedules` });
    expect(taken.statusCode).toBe(303);
    expect((await schedule(row.id)).owner.username).toBe(w.maintainer.username);
    expect((await maintainer.get(url)).statusCode).toBe(200);
    expect((await developer.get(url)).statusCode).toBe(403);
  });
});

describe('Play and Delete', () => {
  it('plays a schedule now as the player; on the protected main a Developer is refused (page and API)', async () => {
    const [row] = await schedules();
    const developer = await signedIn(w.developer);
    const played = await developer.post(`${base}/-/pipeline_schedules/${row.id}/play`, {}, { csrfFrom: `${base}/-/pipeline_schedules` });
    expect(played.statusCode).toBe(303);
    await kiln.worker.drain();
    const pipelines = (await kiln.api('GET', `/projects/${w.project.id}/pipelines`, { token: w.maintainer.token, query: { source: 'schedule' } })).body as any[];
    expect(pipelines).toHaveLength(1);
    expect(pipelines[0]).toMatchObject({ ref: 'feature', source: 'schedule' });
    const onMain = await kiln.api('POST', `/projects/${w.project.id}/pipeline_schedules`, { token: w.maintainer.token, body: { description: 'main', ref: 'main', cron: '0 1 * * *' } });
    expect(onMain.status).toBe(201);
    expect((await developer.post(`${base}/-/pipeline_schedules/${onMain.body.id}/play`, {}, { csrfFrom: `${base}/-/pipeline_schedules` })).statusCode).toBe(403);
    expect((await kiln.api('POST', `/projects/${w.project.id}/pipeline_schedules/${onMain.body.id}/play`, { token: w.developer.token })).status).toBe(403);
    expect((await kiln.api('POST', `/projects/${w.project.id}/pipeline_schedules/${onMain.body.id}/play`, { token: w.maintainer.token })).status).toBe(201);
    expect((await (await signedIn(w.reporter)).post(`${base}/-/pipeline_schedules/${row.id}/play`, {}, { csrfFrom: `${base}/-/pipeline_schedules` })).statusCode).toBe(403);
  });

  it('deletes for Maintainers (and owners), not for Reporters', async () => {
    const [row] = await schedules();
    expect((await (await signedIn(w.reporter)).post(`${base}/-/pipeline_schedules/${row.id}/delete`, {}, { csrfFrom: `${base}/-/pipeline_schedules` })).statusCode).toBe(403);
    const maintainer = await signedIn(w.maintainer);
    const deleted = await maintainer.post(`${base}/-/pipeline_schedules/${row.id}/delete`, {}, { csrfFrom: `${base}/-/pipeline_schedules` });
    expect(deleted.statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${w.project.id}/pipeline_schedules/${row.id}`, { token: w.maintainer.token })).status).toBe(404);
    expect((await maintainer.post(`${base}/-/pipeline_schedules/${row.id}/delete`, {}, { csrfFrom: `${base}/-/pipeline_schedules` })).statusCode).toBe(404);
  });
});
