// Request and response shapes every API route shares (GitLab's REST API documentation, docs/clients.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { listenOnLoopback } from '../helpers/git.js';

let kiln: TestKiln;
let erin: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  erin = await kiln.createUser('erin');
});
afterAll(() => kiln.close());

describe('routing', () => {
  it('an unknown route under /api/v4 answers 404 {"error":"404 Not Found"}', async () => {
    const { status, body, headers } = await kiln.api('GET', '/no/such/thing', { token: erin.token });
    expect(status).toBe(404);
    expect(body).toEqual({ error: '404 Not Found' });
    expect(headers['content-type']).toBe('application/json');
  });

  it('/api/v3 answers 410 with GitLab\'s sentence', async () => {
    const response = await kiln.request('GET', '/api/v3/projects');
    expect(response.statusCode).toBe(410);
    expect(JSON.parse(response.body)).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
  });

  it('a known path with another method answers 405 {"error":"405 Not Allowed"}', async () => {
    const { status, body } = await kiln.api('PATCH', '/projects', { token: erin.token });
    expect(status).toBe(405);
    expect(body).toEqual({ error: '405 Not Allowed' });
  });

  it('sets X-Frame-Options and X-Content-Type-Options on API responses', async () => {
    const { headers } = await kiln.api('GET', '/user', { token: erin.token });
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('content type', () => {
  it('is application/json with no charset on success, on errors and on 201s', async () => {
    for (const result of [
      await kiln.api('GET', '/user', { token: erin.token }),
      await kiln.api('GET', '/user'),
      await kiln.api('POST', '/projects', { token: erin.token, body: { name: 'ct' } }),
      await kiln.api('POST', '/projects', { token: erin.token, body: {} }),
    ]) {
      expect(result.headers['content-type']).toBe('application/json');
    }
  });
});

describe('request bodies', () => {
  it('accepts Content-Type: application/json with an empty body on GET (python-gitlab)', async () => {
    const response = await kiln.request('GET', '/api/v4/user', { token: erin.token, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(200);
  });

  it('accepts an empty JSON body on DELETE and answers 204 with no body', async () => {
    const project = await kiln.createProject(erin, 'empty-delete');
    const token = await kiln.api('POST', `/users/${erin.id}/personal_access_tokens`, { token: kiln.root.token, body: { name: 'x', scopes: ['api'] } });
    const response = await kiln.request('DELETE', `/api/v4/personal_access_tokens/${token.body.id}`, { token: erin.token, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const deleted = await kiln.request('DELETE', `/api/v4/projects/${project.id}`, { token: erin.token, headers: { 'content-type': 'application/json' } });
    expect(deleted.statusCode).toBe(202);
  });

  it('accepts an empty JSON body on POST and reports the missing parameter', async () => {
    const response = await kiln.request('POST', '/api/v4/groups', { token: erin.token, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 'name is missing, path is missing' });
  });

  it('accepts the JSON body {} on DELETE (gitbeaker)', async () => {
    const project = await kiln.createProject(erin, 'brace-delete');
    expect((await kiln.api('DELETE', `/projects/${project.id}`, { token: erin.token, body: {} })).status).toBe(202);
  });

  it('accepts form-encoded bodies, with or without a charset', async () => {
    const plain = await kiln.api('POST', '/groups', { token: erin.token, form: { name: 'Form Group', path: 'form-group' } });
    expect(plain.status).toBe(201);
    const charset = await kiln.app.inject({
      method: 'POST',
      url: '/api/v4/groups',
      headers: { 'private-token': erin.token, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
      payload: 'name=Charset+Group&path=charset-group',
    });
    expect(charset.statusCode).toBe(201);
    expect(JSON.parse(charset.body).full_path).toBe('charset-group');
  });

  it('answers 400 for a malformed JSON body', async () => {
    const response = await kiln.app.inject({ method: 'POST', url: '/api/v4/groups', headers: { 'private-token': erin.token, 'content-type': 'application/json' }, payload: '{"name":' });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ message: '400 Bad request - The request body is not valid JSON' });
  });

  it('reads parameters from the query string on PUT (clients send them there)', async () => {
    const project = await kiln.createProject(erin, 'query-put');
    const issue = await kiln.api('POST', `/projects/${project.id}/issues`, { token: erin.token, body: { title: 'x' } });
    const { status, body } = await kiln.api('PUT', `/projects/${project.id}/issues/${issue.body.iid}?state_event=close`, { token: erin.token, body: {} });
    expect(status).toBe(200);
    expect(body.state).toBe('closed');
  });
});

describe('parameter coercion', () => {
  for (const [value, expected] of [['true', true], ['false', false], ['1', true], ['0', false], [true, true], [0, false]] as const) {
    it(`coerces confidential=${JSON.stringify(value)} to ${expected}`, async () => {
      const project = await kiln.createProject(erin, `coerce-${String(value)}-${typeof value}`);
      const { status, body } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: erin.token, body: { title: 't', confidential: value } });
      expect(status).toBe(201);
      expect(body.confidential).toBe(expected);
    });
  }

  it('answers 400 "<name> is invalid" for a boolean it cannot read', async () => {
    const project = await kiln.createProject(erin, 'coerce-bad');
    const { status, body } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: erin.token, body: { title: 't', confidential: 'maybe' } });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'confidential is invalid' });
  });

  it('answers 400 "<name> does not have a valid value" outside the allowed values', async () => {
    const { status, body } = await kiln.api('POST', '/projects', { token: erin.token, body: { name: 'v', visibility: 'secret' } });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'visibility does not have a valid value' });
  });

  it('reports several failures together, joined by ", "', async () => {
    const { body } = await kiln.api('POST', '/groups', { token: erin.token, body: { parent_id: 'abc' } });
    expect(body).toEqual({ error: 'name is missing, path is missing, parent_id is invalid' });
  });

  it('ignores unknown parameters', async () => {
    const { status } = await kiln.api('GET', '/projects?all=False&totally_unknown=1', { token: erin.token });
    expect(status).toBe(200);
  });

  it('the path parameter wins over a query parameter of the same name (python-gitlab 3.12)', async () => {
    const group = await kiln.createGroup(erin, 'path-wins-group');
    const { status, body } = await kiln.api('GET', `/groups/${group.id}?id=%3Cbuilt-in+function+id%3E`, { token: erin.token });
    expect(status).toBe(200);
    expect(body.id).toBe(group.id);
  });

  it('the path parameter wins over a body parameter of the same name', async () => {
    const project = await kiln.createProject(erin, 'path-wins-body');
    const { status, body } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: erin.token, body: { id: 999999, title: 'x' } });
    expect(status).toBe(201);
    expect(body.project_id).toBe(project.id);
  });
});

describe('URL-encoded paths', () => {
  it('finds a project in a subgroup by its URL-encoded full path, case-insensitively', async () => {
    const group = await kiln.createGroup(erin, 'enc');
    const sub = await kiln.createGroup(erin, 'sub', { parent_id: group.id });
    const project = await kiln.createProject(erin, 'deep', { namespace_id: sub.id });
    const { status, body } = await kiln.api('GET', '/projects/ENC%2Fsub%2Fdeep', { token: erin.token });
    expect(status).toBe(200);
    expect(body.id).toBe(project.id);
    expect(body.path_with_namespace).toBe('enc/sub/deep');
  });

  it('a bare word cannot name a project: 404 Project Not Found', async () => {
    const { status, body } = await kiln.api('GET', '/projects/deep', { token: erin.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('timestamps', () => {
  it('are ISO 8601 UTC with milliseconds', async () => {
    const { body } = await kiln.api('GET', '/user', { token: erin.token });
    expect(body.created_at).toBe('2026-11-22T08:00:00.000Z');
  });
});

describe("Kiln's HTTP server", () => {
  it('answers a malformed request with 400', async () => {
    const base = new URL(await listenOnLoopback(kiln.app));
    const text = await new Promise<string>((resolve) => {
      const socket = connect(Number(base.port), base.hostname);
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      // A header line without a colon: Fastify writes its 400 and destroys the socket at once.
      socket.write('GET /api/v4/version HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n');
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toContain('"statusCode":400');
  });
});
