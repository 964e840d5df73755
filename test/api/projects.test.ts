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

  it('without a token answers 401', async () => {
    expect(await kiln.api('POST', '/projects', { body: { name: 'anonymous' } })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });

  describe('in a group, the visibility', () => {
    it('public in a private group answers 400 "public is not allowed in a private group." and creates nothing', async () => {
      const group = await kiln.createGroup(alice, 'vis-private');
      const { status, body } = await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'leak', namespace_id: group.id, visibility: 'public' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { visibility_level: ['public is not allowed in a private group.'] } });
      expect((await kiln.api('GET', '/projects/vis-private%2Fleak', { token: alice.token })).status).toBe(404);
    });

    it('internal in a private group answers 400 as well', async () => {
      const group = await kiln.createGroup(alice, 'vis-private-2');
      const { status, body } = await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'inside', namespace_id: group.id, visibility: 'internal' } });
      expect(status).toBe(400);
      expect(body.message.visibility_level).toEqual(['internal is not allowed in a private group.']);
    });

    it('public in an internal group answers 400; internal and private there are accepted', async () => {
      const group = await kiln.createGroup(alice, 'vis-internal', { visibility: 'internal' });
      const refused = await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'open', namespace_id: group.id, visibility: 'public' } });
      expect(refused.body).toEqual({ message: { visibility_level: ['public is not allowed in a internal group.'] } });
      expect((await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'same', namespace_id: group.id, visibility: 'internal' } })).status).toBe(201);
      expect((await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'less', namespace_id: group.id, visibility: 'private' } })).status).toBe(201);
    });

    it('is checked against the group itself, not its parent: a private subgroup of a public group keeps its projects private', async () => {
      const top = await kiln.createGroup(alice, 'vis-top', { visibility: 'public' });
      const sub = await kiln.createGroup(alice, 'closed', { parent_id: top.id, visibility: 'private' });
      const { status } = await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'x', namespace_id: sub.id, visibility: 'public' } });
      expect(status).toBe(400);
    });

    it('is free in a personal namespace', async () => {
      const { status, body } = await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'personal-public', visibility: 'public' } });
      expect(status).toBe(201);
      expect(body.visibility).toBe('public');
    });
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

  it('answers 401 with an unknown token, even for a public project', async () => {
    const project = await kiln.createProject(alice, 'public-with-bad-token', { visibility: 'public' });
    const unknown = await kiln.api('GET', `/projects/${project.id}`, { token: 'nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: '401 Unauthorized' });
  });

  describe('without a token', () => {
    it('answers 404 Project Not Found for a private project, as for a missing one', async () => {
      const project = await kiln.createProject(alice, 'anon-private');
      expect(await kiln.api('GET', `/projects/${project.id}`)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect((await kiln.api('GET', '/projects/999999')).status).toBe(404);
    });

    it('answers 404 for an internal project (signed-in users only)', async () => {
      const project = await kiln.createProject(alice, 'anon-internal', { visibility: 'internal' });
      expect((await kiln.api('GET', `/projects/${project.id}`)).status).toBe(404);
    });

    it('shows a public project, without permissions', async () => {
      const project = await kiln.createProject(alice, 'anon-public', { visibility: 'public' });
      const { status, body } = await kiln.api('GET', '/projects/alice%2Fanon-public');
      expect(status).toBe(200);
      expect(body).toMatchObject({ id: project.id, visibility: 'public', path_with_namespace: 'alice/anon-public' });
      expect(body.permissions).toBeUndefined();
    });
  });

  it('the path wins over a query parameter of the same name', async () => {
    const project = await kiln.createProject(alice, 'path-wins');
    const { status, body } = await kiln.api('GET', `/projects/${project.id}?id=%3Cbuilt-in+function+id%3E`, { token: alice.token });
    expect(status).toBe(200);
    expect(body.id).toBe(project.id);
  });
});

describe('DELETE /api/v4/projects/:id', () => {
  it('as a maintainer answers 403 and the project stays', async () => {
    const project = await kiln.createProject(alice, 'kept');
    const maintainer = await kiln.createUser('delete-maintainer');
    await kiln.addMember(alice, 'projects', project.id, maintainer, 40);
    expect(await kiln.api('DELETE', `/projects/${project.id}`, { token: maintainer.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: alice.token })).status).toBe(200);
  });

  it('as the owner answers 202 and the project is gone', async () => {
    const project = await kiln.createProject(alice, 'doomed');
    expect(await kiln.api('DELETE', `/projects/${project.id}`, { token: alice.token })).toMatchObject({ status: 202, body: { message: '202 Accepted' } });
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: alice.token })).status).toBe(404);
  });

  it('without a token answers 401, even for a public project', async () => {
    const project = await kiln.createProject(alice, 'doomed-public', { visibility: 'public' });
    expect((await kiln.api('DELETE', `/projects/${project.id}`)).status).toBe(401);
  });
});

describe('GET /api/v4/projects', () => {
  describe('without a token', () => {
    it('lists public projects only', async () => {
      const dana = await kiln.createUser('dana');
      const open = await kiln.createProject(dana, 'listed-public', { visibility: 'public' });
      const inside = await kiln.createProject(dana, 'listed-internal', { visibility: 'internal' });
      const closed = await kiln.createProject(dana, 'listed-private');
      const { status, body } = await kiln.api('GET', '/projects?per_page=100');
      expect(status).toBe(200);
      const ids = body.map((project: { id: number }) => project.id);
      expect(ids).toContain(open.id);
      expect(ids).not.toContain(inside.id);
      expect(ids).not.toContain(closed.id);
      expect(body.every((project: { visibility: string }) => project.visibility === 'public')).toBe(true);
    });

    it('lists nothing with membership=true: an anonymous caller is a member of nothing', async () => {
      const { status, body } = await kiln.api('GET', '/projects?membership=true');
      expect(status).toBe(200);
      expect(body).toEqual([]);
    });

    it('does not reuse a signed-in caller\'s cached page', async () => {
      const erin = await kiln.createUser('erin');
      const mine = await kiln.createProject(erin, 'cache-private');
      expect((await kiln.api('GET', '/projects?search=cache-private', { token: erin.token })).body.map((p: { id: number }) => p.id)).toEqual([mine.id]);
      expect((await kiln.api('GET', '/projects?search=cache-private')).body).toEqual([]);
    });
  });

  it('as a user lists internal projects of others but not their private ones', async () => {
    const frank = await kiln.createUser('frank');
    const inside = await kiln.createProject(frank, 'seen-internal', { visibility: 'internal' });
    const closed = await kiln.createProject(frank, 'unseen-private');
    const ids = (await kiln.api('GET', '/projects?per_page=100', { token: bob.token })).body.map((project: { id: number }) => project.id);
    expect(ids).toContain(inside.id);
    expect(ids).not.toContain(closed.id);
  });

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
