import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
});
afterAll(() => kiln.close());

describe('POST /api/v4/projects', () => {
  it('creates a project in the caller\'s namespace and answers 201 with GitLab\'s fields', async () => {
    const { status, body, headers } = await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'Web App', visibility: 'private' } });
    expect(status).toBe(201);
    expect(headers['content-type']).toBe('application/json');
    expect(body).toMatchObject({ name: 'Web App', path: 'Web-App', path_with_namespace: 'alice/Web-App', visibility: 'private', web_url: 'http://kiln.test/alice/Web-App' });
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body.namespace).toMatchObject({ kind: 'user', full_path: 'alice' });
  });

  it('refuses a duplicate path with a validation error', async () => {
    await kiln.createProject(alice, 'dup');
    const { status, body } = await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'dup', path: 'dup' } });
    expect(status).toBe(400);
    expect(body.message.path).toEqual(['has already been taken']);
  });
});

describe('GET /api/v4/projects/:id', () => {
  it('finds a project by URL-encoded path', async () => {
    const project = await kiln.createProject(alice, 'by-path');
    const { status, body } = await kiln.api('GET', '/projects/alice%2Fby-path', { token: alice.token });
    expect(status).toBe(200);
    expect(body.id).toBe(project.id);
  });

  it('hides a private project from a non-member with 404', async () => {
    const project = await kiln.createProject(alice, 'secret');
    const { status, body } = await kiln.api('GET', `/projects/${project.id}`, { token: bob.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Project Not Found' });
  });

  it('answers 401 without a token and with an unknown token', async () => {
    expect((await kiln.api('GET', '/projects/1')).body).toEqual({ message: '401 Unauthorized' });
    const unknown = await kiln.api('GET', '/projects/1', { token: 'nope' });
    expect(unknown.status).toBe(401);
  });

  it('the path wins over a query parameter of the same name', async () => {
    const project = await kiln.createProject(alice, 'path-wins');
    const { status, body } = await kiln.api('GET', `/projects/${project.id}?id=%3Cbuilt-in+function+id%3E`, { token: alice.token });
    expect(status).toBe(200);
    expect(body.id).toBe(project.id);
  });
});

describe('GET /api/v4/projects', () => {
  it('pages with GitLab headers and Link', async () => {
    const carol = await kiln.createUser('carol');
    for (let i = 0; i < 5; i += 1) await kiln.createProject(carol, `p${i}`);
    const { status, body, headers } = await kiln.api('GET', '/projects?membership=true&per_page=2&page=2', { token: carol.token });
    expect(status).toBe(200);
    expect(body).toHaveLength(2);
    expect(headers['x-total']).toBe('5');
    expect(headers['x-total-pages']).toBe('3');
    expect(headers['x-page']).toBe('2');
    expect(headers['x-next-page']).toBe('3');
    expect(headers['x-prev-page']).toBe('1');
    expect(headers.link).toBe(
      '<http://kiln.test/api/v4/projects?membership=true&page=1&per_page=2>; rel="prev", ' +
        '<http://kiln.test/api/v4/projects?membership=true&page=3&per_page=2>; rel="next", ' +
        '<http://kiln.test/api/v4/projects?membership=true&page=1&per_page=2>; rel="first", ' +
        '<http://kiln.test/api/v4/projects?membership=true&page=3&per_page=2>; rel="last"',
    );
  });

  it('rejects per_page=0 in Grape\'s words', async () => {
    const { status, body } = await kiln.api('GET', '/projects?per_page=0', { token: alice.token });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'per_page has a value not allowed' });
  });
});
