import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let owner: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let stranger: TestUser;
let project: any;
const base = () => `/projects/${project.id}/alert_management/integrations`;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  maintainer = await kiln.createUser('maint');
  developer = await kiln.createUser('dev');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'svc');
  await kiln.addMember(owner, 'projects', project.id, maintainer, 40);
  await kiln.addMember(owner, 'projects', project.id, developer, 30);
});
afterAll(() => kiln.close());

describe('POST /api/v4/projects/:id/alert_management/integrations', () => {
  describe('as a maintainer', () => {
    it('returns 201 with the integration, a 32-hex key and its URL', async () => {
      const { status, body } = await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'Datadog: prod!' } });
      expect(status).toBe(201);
      expect(body).toEqual({
        id: expect.any(Number), name: 'Datadog: prod!', active: true, type: 'http',
        url: expect.stringMatching(/^http:\/\/kiln\.test\/owner\/svc\/alerts\/notify\/datadog--prod\/[0-9a-f]{16}\.json$/),
        token: expect.stringMatching(/^[0-9a-f]{32}$/), payload_example: '{}', payload_attribute_mapping: {},
        created_at: '2026-11-22T08:00:00.000Z', updated_at: '2026-11-22T08:00:00.000Z',
      });
    });

    it('refuses a chosen token or endpoint identifier', async () => {
      const token = await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'x', token: 'mine' } });
      expect(token.status).toBe(400);
      expect(token.body.error).toMatch(/^token /);
      const identifier = await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'x', endpoint_identifier: 'abc' } });
      expect(identifier.status).toBe(400);
    });

    it('refuses a missing or blank name', async () => {
      expect((await kiln.api('POST', base(), { token: maintainer.token, body: {} })).body).toEqual({ error: 'name is missing' });
      const blank = await kiln.api('POST', base(), { token: maintainer.token, body: { name: '  ' } });
      expect(blank.status).toBe(400);
      expect(blank.body.message).toEqual({ name: ["can't be blank"] });
    });

    it('stores a valid sample payload and mapping, and refuses invalid JSON', async () => {
      const ok = await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'mapped', payload_example: '{"a":{"b":"c"}}', payload_attribute_mapping: { title: { path: ['a', 'b'], type: 'STRING', label: 'B' } } } });
      expect(ok.status).toBe(201);
      expect(ok.body.payload_example).toBe('{"a":{"b":"c"}}');
      expect(ok.body.payload_attribute_mapping).toEqual({ title: { path: ['a', 'b'], type: 'string', label: 'B' } });
      const bad = await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'bad', payload_example: '{nope' } });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toEqual({ payload_example: ['Invalid JSON string'] });
      const badMapping = await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'bad', payload_attribute_mapping: { title: { path: 'a', type: 'string' } } } });
      expect(badMapping.status).toBe(400);
    });

    it('allows one Prometheus integration per project', async () => {
      expect((await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'Prometheus', type: 'prometheus' } })).status).toBe(201);
      const second = await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'Prometheus 2', type: 'prometheus' } });
      expect(second.status).toBe(400);
      expect(second.body.message).toBe('400 Bad request - Multiple integrations of a single type are not supported for this project');
    });
  });

  it('as a developer returns 403', async () => {
    expect((await kiln.api('POST', base(), { token: developer.token, body: { name: 'x' } })).status).toBe(403);
    expect((await kiln.api('GET', base(), { token: developer.token })).status).toBe(403);
  });

  it('as a non-member of a private project returns 404', async () => {
    expect((await kiln.api('GET', base(), { token: stranger.token })).body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('GET/PUT /api/v4/projects/:id/alert_management/incident_settings', () => {
  const settings = () => `/projects/${project.id}/alert_management/incident_settings`;

  it('as a maintainer reads and changes them (admin_operations)', async () => {
    expect((await kiln.api('GET', settings(), { token: maintainer.token })).status).toBe(200);
    const { status, body } = await kiln.api('PUT', settings(), { token: maintainer.token, body: { auto_close_incident: false } });
    expect(status).toBe(200);
    expect(body.auto_close_incident).toBe(false);
  });

  it('as a developer returns 403, reading or changing', async () => {
    expect((await kiln.api('GET', settings(), { token: developer.token })).status).toBe(403);
    expect((await kiln.api('PUT', settings(), { token: developer.token, body: { create_issue: true } })).status).toBe(403);
  });

  it('as an administrator who is no member reads them', async () => {
    const admin = await kiln.createUser('ops-admin', { admin: true });
    expect((await kiln.api('GET', settings(), { token: admin.token })).status).toBe(200);
  });
});

describe('GET/PUT/DELETE /api/v4/projects/:id/alert_management/integrations/:integration_id', () => {
  it('as a maintainer changes name and active but never the endpoint identifier', async () => {
    const created = (await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'Editable' } })).body;
    const { status, body } = await kiln.api('PUT', `${base()}/${created.id}`, { token: maintainer.token, body: { name: 'Renamed', active: false } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: 'Renamed', active: false, token: created.token });
    expect(body.url.split('/').pop()).toBe(created.url.split('/').pop());
    expect((await kiln.api('PUT', `${base()}/${created.id}`, { token: maintainer.token, body: { type: 'prometheus' } })).status).toBe(400);
    expect((await kiln.api('GET', `${base()}/${created.id}`, { token: maintainer.token })).body.name).toBe('Renamed');
  });

  it('lists the integrations in creation order', async () => {
    const { status, body, headers } = await kiln.api('GET', base(), { token: owner.token });
    expect(status).toBe(200);
    expect(body.map((i: any) => i.id)).toEqual([...body.map((i: any) => i.id)].sort((a: number, b: number) => a - b));
    expect(Number(headers['x-total'])).toBe(body.length);
  });

  it('deletes with 204, after which the endpoint answers 403', async () => {
    const created = (await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'Doomed' } })).body;
    expect((await kiln.api('DELETE', `${base()}/${created.id}`, { token: maintainer.token })).status).toBe(204);
    expect((await kiln.api('GET', `${base()}/${created.id}`, { token: maintainer.token })).body).toEqual({ message: '404 Not found' });
    const response = await kiln.app.inject({ method: 'POST', url: new URL(created.url).pathname, headers: { authorization: `Bearer ${created.token}`, 'content-type': 'application/json' }, payload: '{}' });
    expect(response.statusCode).toBe(403);
  });

  it('answers 404 for an integration of another project', async () => {
    const other = await kiln.createProject(owner, 'other');
    const foreign = (await kiln.api('POST', `/projects/${other.id}/alert_management/integrations`, { token: owner.token, body: { name: 'Foreign' } })).body;
    expect((await kiln.api('GET', `${base()}/${foreign.id}`, { token: owner.token })).status).toBe(404);
  });
});

describe('POST /api/v4/projects/:id/alert_management/integrations/:integration_id/reset_token', () => {
  it('as a maintainer gives a new key; the old key then gets 401 and the new one 200', async () => {
    const created = (await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'Rekey' } })).body;
    const { status, body } = await kiln.api('POST', `${base()}/${created.id}/reset_token`, { token: maintainer.token });
    expect(status).toBe(200);
    expect(body.token).toMatch(/^[0-9a-f]{32}$/);
    expect(body.token).not.toBe(created.token);
    const send = (key: string) => kiln.app.inject({ method: 'POST', url: new URL(created.url).pathname, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: '{"title":"k"}' });
    expect((await send(created.token)).statusCode).toBe(401);
    expect((await send(body.token)).statusCode).toBe(200);
  });

  it('stores the key encrypted, not in plain text', async () => {
    const created = (await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'Sealed' } })).body;
    const row = await kiln.deps.db.selectFrom('alert_management_http_integrations').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.token_sealed).not.toContain(created.token);
  });
});

describe('an integration in the hands of a developer', () => {
  it('cannot be read, reset or deleted (403)', async () => {
    const created = (await kiln.api('POST', base(), { token: maintainer.token, body: { name: 'Guarded' } })).body;
    expect((await kiln.api('GET', `${base()}/${created.id}`, { token: developer.token })).status).toBe(403);
    expect((await kiln.api('POST', `${base()}/${created.id}/reset_token`, { token: developer.token })).status).toBe(403);
    expect((await kiln.api('DELETE', `${base()}/${created.id}`, { token: developer.token })).status).toBe(403);
    expect((await kiln.api('GET', `${base()}/${created.id}`, { token: maintainer.token })).body.token).toBe(created.token);
  });
});

describe('the incident alerting tool link', () => {
  it('cannot be activated while an integration is active, and keeps every integration inactive while it is', async () => {
    const p = await kiln.createProject(owner, 'tool');
    const settings = `/projects/${p.id}/alert_management/incident_settings`;
    const integration = (await kiln.api('POST', `/projects/${p.id}/alert_management/integrations`, { token: owner.token, body: { name: 'HTTP' } })).body;
    const refused = await kiln.api('PUT', settings, { token: owner.token, body: { alerting_tool_active: true, alerting_tool_url: 'https://tool.example/alerts' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message.alerting_tool_active[0]).toMatch(/another alert integration is active/);
    await kiln.api('PUT', `/projects/${p.id}/alert_management/integrations/${integration.id}`, { token: owner.token, body: { active: false } });
    const on = await kiln.api('PUT', settings, { token: owner.token, body: { alerting_tool_active: true, alerting_tool_url: 'https://tool.example/alerts' } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ alerting_tool_active: true, alerting_tool_url: 'https://tool.example/alerts' });
    const activate = await kiln.api('PUT', `/projects/${p.id}/alert_management/integrations/${integration.id}`, { token: owner.token, body: { active: true } });
    expect(activate.status).toBe(400);
    expect(activate.body.message.active[0]).toMatch(/incident alerting tool link is active/);
    expect((await kiln.api('POST', `/projects/${p.id}/alert_management/integrations`, { token: owner.token, body: { name: 'New' } })).status).toBe(400);
    expect((await kiln.api('POST', `/projects/${p.id}/alert_management/integrations`, { token: owner.token, body: { name: 'New', active: false } })).status).toBe(201);
  });

  it('needs a URL to be activated', async () => {
    const p = await kiln.createProject(owner, 'tool2');
    const refused = await kiln.api('PUT', `/projects/${p.id}/alert_management/incident_settings`, { token: owner.token, body: { alerting_tool_active: true } });
    expect(refused.status).toBe(400);
  });
});

describe('on the free tier', () => {
  let free: TestKiln;
  let user: TestUser;
  let p: any;
  beforeAll(async () => {
    free = await testKiln({ tier: 'free' });
    user = await free.createUser('freeuser');
    p = await free.createProject(user, 'p');
  });
  afterAll(() => free.close());

  it('allows one HTTP endpoint', async () => {
    expect((await free.api('POST', `/projects/${p.id}/alert_management/integrations`, { token: user.token, body: { name: 'one' } })).status).toBe(201);
    const second = await free.api('POST', `/projects/${p.id}/alert_management/integrations`, { token: user.token, body: { name: 'two' } });
    expect(second.status).toBe(400);
    expect(second.body.message).toMatch(/Multiple integrations of a single type/);
  });

  it('refuses custom mapping', async () => {
    const { body } = await free.api('GET', `/projects/${p.id}/alert_management/integrations`, { token: user.token });
    const refused = await free.api('PUT', `/projects/${p.id}/alert_management/integrations/${body[0].id}`, { token: user.token, body: { payload_example: '{}' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message.payload_attribute_mapping[0]).toMatch(/premium/);
  });
});
