// The tags API on Kiln's git hosting (doc/api/tags.md): list, get, create (lightweight or annotated)
// and delete, with GitLab's entity, refusals and push events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { commit, create, repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let world: RepositoryWorld;
let first: any;
let second: any;

const tags = (suffix = '') => `/projects/${world.project.id}/repository/tags${suffix}`;

beforeAll(async () => {
  kiln = await testKiln();
  world = await repositoryWorld(kiln);
  first = await commit(kiln, world.owner.token, world.project.id, { branch: 'main', commit_message: 'First', actions: [create('a.txt')] });
  kiln.clock.advance(3_600_000);
  second = await commit(kiln, world.owner.token, world.project.id, { branch: 'main', commit_message: 'Second', actions: [create('b.txt')] });
  for (const [tag_name, ref] of [['v1.9', first.id], ['v1.10', second.id], ['release/2.0', 'main']]) {
    const made = await kiln.api('POST', tags(), { token: world.developer.token, body: { tag_name, ref } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  }
});
afterAll(async () => {
  await kiln?.close();
});

describe('POST /api/v4/projects/:id/repository/tags', () => {
  describe('as a developer', () => {
    it('creates a lightweight tag: target is the commit, no message, no date', async () => {
      const response = await kiln.api('POST', tags(), { token: world.developer.token, body: { tag_name: 'light', ref: 'main' } });
      expect(response.status).toBe(201);
      expect(Object.keys(response.body)).toEqual(['name', 'message', 'target', 'commit', 'release', 'protected', 'created_at']);
      expect(response.body).toMatchObject({ name: 'light', message: '', target: second.id, release: null, protected: false, created_at: null, commit: { id: second.id, title: 'Second' } });
    });

    it('creates an annotated tag from a message, tagged by the caller now', async () => {
      kiln.clock.advance(60_000);
      const response = await kiln.api('POST', tags(), { token: world.developer.token, body: { tag_name: 'annotated', ref: first.id, message: '  Release notes\n\nDetails  ' } });
      expect(response.status).toBe(201);
      expect(response.body.message).toBe('Release notes\n\nDetails');
      expect(response.body.target).not.toBe(first.id);
      expect(response.body.commit.id).toBe(first.id);
      expect(response.body.created_at).toBe(new Date(kiln.clock.now()).toISOString().replace('Z', '+00:00'));
    });

    it('records a push event for the new tag', async () => {
      const events = await kiln.api('GET', `/projects/${world.project.id}/events`, { token: world.owner.token, query: { action: 'pushed', per_page: 100 } });
      const event = events.body.find((item: any) => item.push_data.ref === 'light');
      expect(event.push_data).toMatchObject({ action: 'created', ref_type: 'tag', commit_to: second.id, commit_from: null });
      expect(event.author_id).toBe(world.developer.id);
    });

    it.each([
      [{ tag_name: 'v1.9', ref: 'main' }, 'Tag v1.9 already exists'],
      [{ tag_name: 'bad..name', ref: 'main' }, 'Tag name invalid'],
      [{ tag_name: 'new', ref: 'nope' }, 'Target nope is invalid'],
      [{ tag_name: 'new', ref: '' }, 'Target is empty'],
    ])('refuses %j with 400 %j', async (body, message) => {
      const response = await kiln.api('POST', tags(), { token: world.developer.token, body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message });
    });

    it('names missing parameters', async () => {
      const response = await kiln.api('POST', tags(), { token: world.developer.token, body: {} });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'tag_name is missing, ref is missing' });
    });
  });

  describe('as a reporter', () => {
    it('is refused with 403 (admin_tag is for Developers)', async () => {
      expect((await kiln.api('POST', tags(), { token: world.reporter.token, body: { tag_name: 'x', ref: 'main' } })).status).toBe(403);
    });
  });
});

describe('GET /api/v4/projects/:id/repository/tags', () => {
  describe('as a reporter', () => {
    it('orders by the tagged commit’s date, newest first, by default', async () => {
      const response = await kiln.api('GET', tags(), { token: world.reporter.token });
      expect(response.status).toBe(200);
      expect(response.body.map((tag: any) => tag.name)).toEqual(['v1.10', 'release/2.0', 'light', 'v1.9', 'annotated']);
    });

    it.each([
      [{ order_by: 'name', sort: 'asc' }, ['annotated', 'light', 'release/2.0', 'v1.10', 'v1.9']],
      [{ order_by: 'version', sort: 'asc' }, ['annotated', 'light', 'release/2.0', 'v1.9', 'v1.10']],
      [{ order_by: 'version', sort: 'desc', search: '^v' }, ['v1.10', 'v1.9']],
    ])('lists with %j', async (query, names) => {
      const response = await kiln.api('GET', tags(), { token: world.reporter.token, query });
      expect(response.body.map((tag: any) => tag.name)).toEqual(names);
    });

    it('refuses an unknown order with Grape’s message', async () => {
      const response = await kiln.api('GET', tags(), { token: world.reporter.token, query: { order_by: 'size' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'order_by does not have a valid value' });
    });

    it('pages', async () => {
      const response = await kiln.api('GET', tags(), { token: world.reporter.token, query: { per_page: 2 } });
      expect(response.body).toHaveLength(2);
      expect(response.headers['x-total']).toBe('5');
      expect(response.headers['x-next-page']).toBe('2');
    });
  });
});

describe('GET /api/v4/projects/:id/repository/tags/:tag_name', () => {
  it('finds a name with a slash when URL-encoded', async () => {
    const response = await kiln.api('GET', tags(`/${encodeURIComponent('release/2.0')}`), { token: world.reporter.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'release/2.0', target: second.id });
  });

  it("carries the tag's release as {tag_name, description}, null without one, and whether a rule protects it", async () => {
    const made = await kiln.api('POST', `/projects/${world.project.id}/releases`, { token: world.maintainer.token, body: { tag_name: 'v1.9', description: 'Notes for **1.9**' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const rule = await kiln.api('POST', `/projects/${world.project.id}/protected_tags`, { token: world.maintainer.token, body: { name: 'v1.*' } });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const one = await kiln.api('GET', tags('/v1.9'), { token: world.reporter.token });
    expect(one.body).toMatchObject({ name: 'v1.9', release: { tag_name: 'v1.9', description: 'Notes for **1.9**' }, protected: true });
    expect(Object.keys(one.body.release)).toEqual(['tag_name', 'description']);
    const list = await kiln.api('GET', tags(), { token: world.reporter.token, query: { order_by: 'name', sort: 'asc' } });
    const byName = new Map(list.body.map((tag: any) => [tag.name, tag]));
    expect(byName.get('v1.9')).toMatchObject({ release: { tag_name: 'v1.9' }, protected: true });
    expect(byName.get('v1.10')).toMatchObject({ release: null, protected: true });
    expect(byName.get('release/2.0')).toMatchObject({ release: null, protected: false });
    expect((await kiln.api('DELETE', `/projects/${world.project.id}/protected_tags/${encodeURIComponent('v1.*')}`, { token: world.maintainer.token })).status).toBe(204);
  });

  it('answers 404 Tag Not Found', async () => {
    const response = await kiln.api('GET', tags('/nope'), { token: world.reporter.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Tag Not Found' });
  });

  it('is refused to a guest of a private project', async () => {
    expect((await kiln.api('GET', tags('/v1.9'), { token: world.guest.token })).status).toBe(403);
  });
});

describe('DELETE /api/v4/projects/:id/repository/tags/:tag_name', () => {
  it('deletes a tag as a developer and records its removal', async () => {
    const response = await kiln.api('DELETE', tags('/light'), { token: world.developer.token });
    expect(response.status).toBe(204);
    expect((await kiln.api('GET', tags('/light'), { token: world.developer.token })).status).toBe(404);
    const events = await kiln.api('GET', `/projects/${world.project.id}/events`, { token: world.owner.token, query: { action: 'pushed', per_page: 100 } });
    expect(events.body.find((item: any) => item.push_data.ref === 'light' && item.push_data.action === 'removed')).toBeDefined();
  });

  it('answers 404 Tag Not Found for a missing tag', async () => {
    const response = await kiln.api('DELETE', tags('/nope'), { token: world.developer.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Tag Not Found' });
  });

  it('is refused to a reporter', async () => {
    expect((await kiln.api('DELETE', tags('/v1.9'), { token: world.reporter.token })).status).toBe(403);
  });
});
