import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let owner: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let stranger: TestUser;
let project: { id: number; path_with_namespace: string };

const API_URL = 'https://sentry.example.com/api/0/projects/acme/sample-project/';

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  maintainer = await kiln.createUser('maint');
  developer = await kiln.createUser('dev');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'tracked');
  await kiln.addMember(owner, 'projects', project.id, maintainer, 40);
  await kiln.addMember(owner, 'projects', project.id, developer, 30);
});
afterAll(() => kiln.close());

const settings = (projectId: number | string) => `/projects/${projectId}/error_tracking/settings`;

async function configuredProject(path: string, body: Record<string, unknown> = { active: true, api_url: API_URL, token: 'tracker-token-1' }) {
  const created = await kiln.createProject(owner, path);
  await kiln.addMember(owner, 'projects', created.id, maintainer, 40);
  const { status, body: result } = await kiln.api('PUT', settings(created.id), { token: maintainer.token, body });
  if (status !== 200) throw new Error(`configure: ${status} ${JSON.stringify(result)}`);
  return created;
}

describe('GET /api/v4/projects/:id/error_tracking/settings', () => {
  it('as a maintainer answers 404 Error Tracking Setting Not Found when never configured', async () => {
    const { status, body } = await kiln.api('GET', settings(project.id), { token: maintainer.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Error Tracking Setting Not Found' });
  });

  it('as a maintainer returns the settings with the external URL under both names', async () => {
    const configured = await configuredProject('get-me');
    const { status, body, headers } = await kiln.api('GET', settings(encodeURIComponent(configured.path_with_namespace)), { token: maintainer.token });
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('application/json');
    expect(body).toEqual({
      active: true,
      project_name: 'Sample Project',
      tracker_external_url: 'https://sentry.example.com/acme/sample-project/',
      sentry_external_url: 'https://sentry.example.com/acme/sample-project/',
      api_url: API_URL,
      integrated: false,
    });
  });

  it('as a developer answers 403', async () => {
    const { status, body } = await kiln.api('GET', settings(project.id), { token: developer.token });
    expect(status).toBe(403);
    expect(body).toEqual({ message: '403 Forbidden' });
  });

  it('as a non-member of a private project answers 404 Project Not Found', async () => {
    expect((await kiln.api('GET', settings(project.id), { token: stranger.token })).body).toEqual({ message: '404 Project Not Found' });
  });

  it('as a non-member of a public project answers 403', async () => {
    const open = await kiln.createProject(owner, 'open-tracked', { visibility: 'public' });
    expect((await kiln.api('GET', settings(open.id), { token: stranger.token })).status).toBe(403);
  });

  it('without a token answers 401', async () => {
    expect((await kiln.api('GET', settings(project.id))).status).toBe(401);
  });
});

describe('PATCH /api/v4/projects/:id/error_tracking/settings', () => {
  it('as a maintainer disables with ?active=false in the query and an empty JSON object, as gitbeaker sends it', async () => {
    const configured = await configuredProject('patch-query');
    const { status, body } = await kiln.api('PATCH', `${settings(configured.id)}?active=false`, { token: maintainer.token, body: {} });
    expect(status).toBe(200);
    expect(body.active).toBe(false);
    expect((await kiln.api('GET', settings(configured.id), { token: maintainer.token })).body.active).toBe(false);
  });

  it('enables again with a JSON boolean, as python-gitlab sends it', async () => {
    const configured = await configuredProject('patch-json', { active: false, api_url: API_URL, token: 't' });
    const { status, body } = await kiln.api('PATCH', settings(configured.id), { token: maintainer.token, body: { active: true } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ active: true, api_url: API_URL });
  });

  it.each([
    [{ active: 'false' }, false],
    [{ active: 'true' }, true],
    [{ active: 0 }, false],
  ])('accepts %j', async (body, active) => {
    const configured = await configuredProject(`patch-${Math.random().toString(36).slice(2, 8)}`);
    expect((await kiln.api('PATCH', settings(configured.id), { token: maintainer.token, body })).body.active).toBe(active);
  });

  it('accepts a form body', async () => {
    const configured = await configuredProject('patch-form');
    expect((await kiln.api('PATCH', settings(configured.id), { token: maintainer.token, form: { active: 'false' } })).body.active).toBe(false);
  });

  it('switches the integrated backend on', async () => {
    const configured = await configuredProject('patch-integrated');
    expect((await kiln.api('PATCH', settings(configured.id), { token: maintainer.token, body: { active: true, integrated: true } })).body).toMatchObject({ active: true, integrated: true });
  });

  it.each([
    [{}, 'active is missing'],
    [{ active: '' }, 'active is empty'],
    [{ active: 'maybe' }, 'active is invalid'],
  ])('refuses %j in Grape\'s words', async (body, message) => {
    const { status, body: response } = await kiln.api('PATCH', settings(project.id), { token: maintainer.token, body });
    expect(status).toBe(400);
    expect(response).toEqual({ error: message });
  });

  it('answers 404 Error Tracking Setting Not Found when never configured: it cannot create settings', async () => {
    const { status, body } = await kiln.api('PATCH', settings(project.id), { token: maintainer.token, body: { active: true } });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Error Tracking Setting Not Found' });
  });

  it('refuses to enable settings that lack what an external tracker needs', async () => {
    const configured = await configuredProject('patch-incomplete', { active: false });
    const { status, body } = await kiln.api('PATCH', settings(configured.id), { token: maintainer.token, body: { active: true } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { api_url: ['is a required field'], token: ['is a required field'] } });
  });

  it('as a developer answers 403 and as a non-member 404', async () => {
    const configured = await configuredProject('patch-roles');
    await kiln.addMember(owner, 'projects', configured.id, developer, 30);
    expect((await kiln.api('PATCH', settings(configured.id), { token: developer.token, body: { active: false } })).status).toBe(403);
    expect((await kiln.api('PATCH', settings(configured.id), { token: stranger.token, body: { active: false } })).body).toEqual({ message: '404 Project Not Found' });
    expect((await kiln.api('GET', settings(configured.id), { token: maintainer.token })).body.active).toBe(true);
  });
});

describe('PUT /api/v4/projects/:id/error_tracking/settings', () => {
  it('as a maintainer configures the tracker and stores the token sealed', async () => {
    const target = await kiln.createProject(owner, 'put-new');
    const { status, body } = await kiln.api('PUT', settings(target.id), { token: owner.token, body: { active: true, api_url: API_URL, token: 'secret-tracker-token', project_name: 'Shop backend' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ active: true, project_name: 'Shop backend', api_url: API_URL, integrated: false });
    const row = await kiln.deps.db.selectFrom('error_tracking_settings').selectAll().where('project_id', '=', target.id).executeTakeFirstOrThrow();
    expect(row.token_sealed).not.toContain('secret-tracker-token');
    expect(kiln.deps.box.open(row.token_sealed as string)).toBe('secret-tracker-token');
  });

  it('keeps the stored token when none is sent and changes only what is given', async () => {
    const target = await configuredProject('put-keep');
    const before = await kiln.deps.db.selectFrom('error_tracking_settings').select('token_sealed').where('project_id', '=', target.id).executeTakeFirstOrThrow();
    const other = 'https://tracker.example.org/api/0/projects/org2/other/';
    const { status, body } = await kiln.api('PUT', settings(target.id), { token: maintainer.token, body: { active: true, api_url: other } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ api_url: other, project_name: 'Other', tracker_external_url: 'https://tracker.example.org/org2/other/' });
    const after = await kiln.deps.db.selectFrom('error_tracking_settings').select('token_sealed').where('project_id', '=', target.id).executeTakeFirstOrThrow();
    expect(after.token_sealed).toBe(before.token_sealed);
  });

  it('allows disabled settings without a tracker', async () => {
    const target = await kiln.createProject(owner, 'put-disabled');
    const { status, body } = await kiln.api('PUT', settings(target.id), { token: owner.token, body: { active: false } });
    expect(status).toBe(200);
    expect(body).toEqual({ active: false, project_name: null, tracker_external_url: null, sentry_external_url: null, api_url: null, integrated: false });
  });

  it('allows the integrated backend without a tracker', async () => {
    const target = await kiln.createProject(owner, 'put-integrated');
    const { status, body } = await kiln.api('PUT', settings(target.id), { token: owner.token, body: { active: true, integrated: true } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ active: true, integrated: true });
  });

  it('refuses a missing active in Grape\'s words', async () => {
    expect((await kiln.api('PUT', settings(project.id), { token: maintainer.token, body: { api_url: API_URL } })).body).toEqual({ error: 'active is missing' });
  });

  it.each([
    [{ active: true, token: 't' }, { api_url: ['is a required field'] }],
    [{ active: true, api_url: API_URL }, { token: ['is a required field'] }],
    [{ active: true, api_url: 'https://sentry.example.com/acme/proj/', token: 't' }, { api_url: ['is invalid'] }],
    [{ active: true, api_url: 'https://sentry.example.com/api/0/projects/', token: 't' }, { project: ['is a required field'] }],
    [{ active: true, api_url: 'https://sentry.example.com/api/0/projects/acme', token: 't' }, { api_url: ['is invalid'] }],
    [{ active: true, api_url: 'http://localhost:9000/api/0/projects/a/b/', token: 't' }, { api_url: ['is blocked: Requests to localhost are not allowed'] }],
    [{ active: true, api_url: 'http://127.0.0.1/api/0/projects/a/b/', token: 't' }, { api_url: ['is blocked: Requests to localhost are not allowed'] }],
    [{ active: true, api_url: 'http://192.168.1.20/api/0/projects/a/b/', token: 't' }, { api_url: ['is blocked: Requests to the local network are not allowed'] }],
    [{ active: true, api_url: 'ftp://sentry.example.com/api/0/projects/a/b/', token: 't' }, { api_url: ['is blocked: Only allowed schemes are http, https'] }],
    [{ active: false, api_url: 'https://séntry.example.com/api/0/projects/a/b/' }, { api_url: ['is blocked: URI must be ascii only "https://séntry.example.com/api/0/projects/a/b/"'] }],
    [{ active: false, api_url: 'https://sentry.example.com/<script>/api/0/projects/a/b/' }, { api_url: ['is blocked: HTML/CSS/JS tags are not allowed'] }],
    [{ active: false, api_url: `https://sentry.example.com/api/0/projects/a/${'b'.repeat(230)}/` }, { api_url: ['is too long (maximum is 255 characters)'] }],
  ])('refuses %j', async (body, message) => {
    const { status, body: response } = await kiln.api('PUT', settings(project.id), { token: maintainer.token, body });
    expect(status).toBe(400);
    expect(response).toEqual({ message });
    expect((await kiln.api('GET', settings(project.id), { token: maintainer.token })).status).toBe(404);
  });

  it('as a developer answers 403', async () => {
    expect((await kiln.api('PUT', settings(project.id), { token: developer.token, body: { active: false } })).status).toBe(403);
  });
});
