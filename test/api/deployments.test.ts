import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let reporter: TestUser;
let stranger: TestUser;
let project: { id: number };

const SHA = 'b'.repeat(40);

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('dev');
  reporter = await kiln.createUser('rep');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'app');
  await kiln.addMember(owner, 'projects', project.id, developer, 30);
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
});
afterAll(() => kiln.close());

const deployments = (projectId: number = project.id) => `/projects/${projectId}/deployments`;

function post(body: Record<string, unknown>, token = developer.token, projectId = project.id) {
  return kiln.api('POST', deployments(projectId), { token, body: { sha: SHA, ref: 'main', tag: false, status: 'success', ...body } });
}

async function environment(name: string) {
  return (await kiln.api('GET', `/projects/${project.id}/environments`, { token: owner.token, query: { name } })).body[0];
}

describe('POST /api/v4/projects/:id/deployments', () => {
  describe('as a developer', () => {
    it('returns 201 with the deployment, creating the environment it names', async () => {
      const { status, body } = await post({ environment: 'review/new-env', status: 'running' });
      expect(status).toBe(201);
      const env = await environment('review/new-env');
      expect(env).toMatchObject({ state: 'available', slug: expect.stringMatching(/^review-new-env-/) });
      expect(body).toEqual({
        id: expect.any(Number),
        iid: expect.any(Number),
        ref: 'main',
        sha: SHA,
        created_at: '2026-11-22T08:00:00.000Z',
        updated_at: '2026-11-22T08:00:00.000Z',
        user: expect.objectContaining({ id: developer.id, username: 'dev', name: 'User dev', state: 'active' }),
        environment: { id: env.id, name: 'review/new-env', slug: env.slug, external_url: null },
        deployable: null,
        status: 'running',
      });
    });

    it('numbers deployments per project', async () => {
      const other = await kiln.createProject(owner, 'other');
      const first = (await post({ environment: 'iid-a' }, owner.token, other.id)).body;
      const second = (await post({ environment: 'iid-b', sha: 'c'.repeat(40) }, owner.token, other.id)).body;
      expect([first.iid, second.iid]).toEqual([1, 2]);
    });

    it('gives racing deployments to a new environment distinct iids and one environment', async () => {
      const racer = await kiln.createProject(owner, 'racer');
      const results = await Promise.all([1, 2, 3, 4, 5].map((n) => post({ environment: 'raced', sha: String(n).repeat(40), status: 'running' }, owner.token, racer.id)));
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      expect(results.map((r) => r.body.iid).sort()).toEqual([1, 2, 3, 4, 5]);
      expect(new Set(results.map((r) => r.body.environment.id)).size).toBe(1);
    });

    it('makes a stopped environment available again when it succeeds', async () => {
      await post({ environment: 'restartable' });
      const env = await environment('restartable');
      await kiln.api('POST', `/projects/${project.id}/environments/${env.id}/stop`, { token: developer.token });
      expect((await environment('restartable')).state).toBe('stopped');
      await post({ environment: 'restartable', status: 'failed', sha: 'd'.repeat(40) });
      expect((await environment('restartable')).state).toBe('stopped');
      await post({ environment: 'restartable', sha: 'e'.repeat(40) });
      expect((await environment('restartable')).state).toBe('available');
    });

    it('answers the existing deployment when the last successful one is posted again', async () => {
      const first = (await post({ environment: 'dedupe', sha: 'f'.repeat(40) })).body;
      const again = await post({ environment: 'dedupe', sha: 'f'.repeat(40) });
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(first.id);
      const different = (await post({ environment: 'dedupe', sha: 'f'.repeat(40), ref: 'other' })).body;
      expect(different.id).not.toBe(first.id);
    });

    it.each([
      [{ environment: 'x', sha: SHA, ref: 'main', status: 'success' }, 'tag is missing'],
      [{ sha: SHA, ref: 'main', tag: false, status: 'success' }, 'environment is missing'],
      [{ environment: 'x', ref: 'main', tag: false, status: 'success' }, 'sha is missing'],
      [{ environment: 'x', sha: SHA, tag: false, status: 'success' }, 'ref is missing'],
      [{ environment: 'x', sha: SHA, ref: 'main', tag: false }, 'status is missing'],
      [{ environment: 'x', sha: SHA, ref: 'main', tag: false, status: 'created' }, 'status does not have a valid value'],
      [{ environment: 'x', sha: SHA, ref: 'main', tag: 'maybe', status: 'success' }, 'tag is invalid'],
    ])('refuses %j with Grape\'s message', async (body, message) => {
      const response = await kiln.api('POST', deployments(), { token: developer.token, body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: message });
    });

    it('refuses an environment name the model refuses', async () => {
      const { status, body } = await post({ environment: '/bad' });
      expect(status).toBe(400);
      expect(body.message.name).toEqual(["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"]);
    });

    it('refuses a blank sha or ref', async () => {
      const { status, body } = await post({ environment: 'blanks', sha: '', ref: ' ' });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { sha: ["can't be blank"], ref: ["can't be blank"] } });
    });

    it('accepts the tag flag as a string, as form and query values arrive', async () => {
      const { status, body } = await kiln.api('POST', deployments(), { token: developer.token, form: { environment: 'form-env', sha: SHA, ref: 'v2', tag: 'true', status: 'success' } });
      expect(status).toBe(201);
      expect(body.ref).toBe('v2');
    });
  });

  it('as a reporter answers 403 and creates nothing', async () => {
    const { status } = await post({ environment: 'reporter-env' }, reporter.token);
    expect(status).toBe(403);
    expect(await environment('reporter-env')).toBeUndefined();
  });

  it('as a non-member answers 404', async () => {
    expect((await post({ environment: 'x' }, stranger.token)).body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('PUT /api/v4/projects/:id/deployments/:deployment_id', () => {
  it('as a developer moves a running deployment to success, making it the last deployment', async () => {
    const running = (await post({ environment: 'put-env', status: 'running' })).body;
    kiln.clock.advance(5000);
    const { status, body } = await kiln.api('PUT', `${deployments()}/${running.id}`, { token: developer.token, body: { status: 'success' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: running.id, status: 'success', created_at: running.created_at });
    expect(body.updated_at).not.toBe(running.updated_at);
    const env = await environment('put-env');
    expect((await kiln.api('GET', `/projects/${project.id}/environments/${env.id}`, { token: reporter.token })).body.last_deployment.id).toBe(running.id);
  });

  it('refuses a transition the state machine does not have', async () => {
    const done = (await post({ environment: 'sm-env', sha: '9'.repeat(40) })).body;
    const { status, body } = await kiln.api('PUT', `${deployments()}/${done.id}`, { token: developer.token, body: { status: 'running' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { status: ['cannot transition via "run"'] } });
    const again = await kiln.api('PUT', `${deployments()}/${done.id}`, { token: developer.token, body: { status: 'success' } });
    expect(again.body).toEqual({ message: { status: ['cannot transition via "succeed"'] } });
    expect((await kiln.api('PUT', `${deployments()}/${done.id}`, { token: developer.token, body: { status: 'failed' } })).body.status).toBe('failed');
  });

  it('drops last_deployment back to the previous success when the latest fails', async () => {
    const older = (await post({ environment: 'fallback', sha: '1'.repeat(40) })).body;
    const newer = (await post({ environment: 'fallback', sha: '2'.repeat(40) })).body;
    const env = await environment('fallback');
    expect((await kiln.api('GET', `/projects/${project.id}/environments/${env.id}`, { token: owner.token })).body.last_deployment.id).toBe(newer.id);
    await kiln.api('PUT', `${deployments()}/${newer.id}`, { token: developer.token, body: { status: 'canceled' } });
    expect((await kiln.api('GET', `/projects/${project.id}/environments/${env.id}`, { token: owner.token })).body.last_deployment.id).toBe(older.id);
  });

  it('answers 404 for an unknown deployment', async () => {
    const { status, body } = await kiln.api('PUT', `${deployments()}/999999`, { token: developer.token, body: { status: 'success' } });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Not found' });
  });

  it('refuses a missing or unknown status', async () => {
    expect((await kiln.api('PUT', `${deployments()}/1`, { token: developer.token, body: {} })).body).toEqual({ error: 'status is missing' });
    expect((await kiln.api('PUT', `${deployments()}/1`, { token: developer.token, body: { status: 'done' } })).body).toEqual({ error: 'status does not have a valid value' });
  });

  it('as a reporter answers 403', async () => {
    const d = (await post({ environment: 'rep-put', status: 'running' })).body;
    expect((await kiln.api('PUT', `${deployments()}/${d.id}`, { token: reporter.token, body: { status: 'success' } })).status).toBe(403);
  });
});

describe('GET /api/v4/projects/:id/deployments', () => {
  let listProject: { id: number };
  beforeAll(async () => {
    listProject = await kiln.createProject(owner, 'listed');
    await kiln.addMember(owner, 'projects', listProject.id, reporter, 20);
    for (const [environment, status, ref] of [['prod', 'success', 'b'], ['prod', 'failed', 'a'], ['staging', 'running', 'c']]) {
      kiln.clock.advance(1000);
      await post({ environment, status, ref }, owner.token, listProject.id);
    }
  });

  it('as a reporter lists by id ascending with pagination headers', async () => {
    const { status, body, headers } = await kiln.api('GET', deployments(listProject.id), { token: reporter.token });
    expect(status).toBe(200);
    expect(body.map((d: any) => d.iid)).toEqual([1, 2, 3]);
    expect(body[0].environment.name).toBe('prod');
    expect(headers['x-total']).toBe('3');
  });

  it('filters by environment and status', async () => {
    expect((await kiln.api('GET', deployments(listProject.id), { token: reporter.token, query: { environment: 'prod' } })).body.map((d: any) => d.iid)).toEqual([1, 2]);
    expect((await kiln.api('GET', deployments(listProject.id), { token: reporter.token, query: { status: 'running' } })).body.map((d: any) => d.iid)).toEqual([3]);
    expect((await kiln.api('GET', deployments(listProject.id), { token: reporter.token, query: { environment: 'nowhere' } })).body).toEqual([]);
  });

  it('orders by the requested field and direction', async () => {
    expect((await kiln.api('GET', deployments(listProject.id), { token: reporter.token, query: { order_by: 'ref', sort: 'asc' } })).body.map((d: any) => d.ref)).toEqual(['a', 'b', 'c']);
    expect((await kiln.api('GET', deployments(listProject.id), { token: reporter.token, query: { sort: 'desc' } })).body.map((d: any) => d.iid)).toEqual([3, 2, 1]);
  });

  it('filters by updated_after and refuses an unparsable date', async () => {
    const after = new Date(Date.parse('2026-11-22T08:00:00.000Z')).toISOString();
    expect((await kiln.api('GET', deployments(listProject.id), { token: reporter.token, query: { updated_after: after } })).body.length).toBeGreaterThan(0);
    expect((await kiln.api('GET', deployments(listProject.id), { token: reporter.token, query: { updated_after: '2999-01-01T00:00:00Z' } })).body).toEqual([]);
    expect((await kiln.api('GET', deployments(listProject.id), { token: reporter.token, query: { updated_after: 'soon' } })).body).toEqual({ error: 'updated_after is invalid' });
  });

  it('refuses an unknown order_by', async () => {
    expect((await kiln.api('GET', deployments(listProject.id), { token: reporter.token, query: { order_by: 'sha' } })).body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('as a non-member of a private project answers 404', async () => {
    expect((await kiln.api('GET', deployments(listProject.id), { token: stranger.token })).status).toBe(404);
  });
});

describe('GET /api/v4/projects/:id/deployments/:deployment_id', () => {
  it('as a reporter returns one deployment with its environment', async () => {
    const created = (await post({ environment: 'single' })).body;
    const { status, body } = await kiln.api('GET', `${deployments()}/${created.id}`, { token: reporter.token });
    expect(status).toBe(200);
    expect(body).toEqual(created);
  });

  it('answers 404 Not found for an unknown id', async () => {
    expect((await kiln.api('GET', `${deployments()}/424242`, { token: reporter.token })).body).toEqual({ message: '404 Not found' });
  });
});

describe('DELETE /api/v4/projects/:id', () => {
  it('takes the project\'s environments, deployments and error tracking settings along', async () => {
    const doomed = await kiln.createProject(owner, 'doomed-project');
    await post({ environment: 'gone' }, owner.token, doomed.id);
    await kiln.api('PUT', `/projects/${doomed.id}/error_tracking/settings`, { token: owner.token, body: { active: false } });
    expect((await kiln.api('DELETE', `/projects/${doomed.id}`, { token: owner.token })).status).toBe(202);
    for (const table of ['environments', 'deployments', 'error_tracking_settings'] as const) {
      const rows = await kiln.deps.db.selectFrom(table).select('project_id').where('project_id', '=', doomed.id).execute();
      expect(rows).toEqual([]);
    }
  });
});
