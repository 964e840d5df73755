// The application settings take effect: default_project_visibility and default_group_visibility when
// a creation names no visibility (never above the parent's), and restricted_visibility_levels for
// everyone but administrators (GitLab's "<level> has been restricted by your GitLab administrator").
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let admin: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('settings-owner');
  admin = await kiln.createUser('settings-admin', { admin: true });
});
afterAll(() => kiln.close());

async function settings(body: Record<string, unknown>): Promise<void> {
  const response = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

beforeEach(() => settings({ default_project_visibility: 'private', default_group_visibility: 'private', restricted_visibility_levels: [] }));

let serial = 0;
const unique = (prefix: string) => `${prefix}-${++serial}`;

describe('POST /api/v4/projects', () => {
  describe('without a visibility', () => {
    it('takes default_project_visibility', async () => {
      await settings({ default_project_visibility: 'internal' });
      const { status, body } = await kiln.api('POST', '/projects', { token: owner.token, body: { name: unique('p') } });
      expect(status).toBe(201);
      expect(body.visibility).toBe('internal');
    });

    it("is lowered to the group's visibility when the default is above it", async () => {
      await settings({ default_project_visibility: 'public' });
      const group = await kiln.createGroup(owner, unique('g'), { visibility: 'internal' });
      const { status, body } = await kiln.api('POST', '/projects', { token: owner.token, body: { name: unique('p'), namespace_id: group.id } });
      expect(status).toBe(201);
      expect(body.visibility).toBe('internal');
    });

    it('is refused when the default itself is restricted', async () => {
      await settings({ default_project_visibility: 'internal', restricted_visibility_levels: ['internal'] });
      const { status, body } = await kiln.api('POST', '/projects', { token: owner.token, body: { name: unique('p') } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { visibility_level: ['internal has been restricted by your GitLab administrator'] } });
    });
  });

  describe('with a restricted visibility', () => {
    it('refuses a user who is not an administrator, in GitLab words', async () => {
      await settings({ restricted_visibility_levels: ['public'] });
      const { status, body } = await kiln.api('POST', '/projects', { token: owner.token, body: { name: unique('p'), visibility: 'public' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { visibility_level: ['public has been restricted by your GitLab administrator'] } });
    });

    it('lets an administrator create it', async () => {
      await settings({ restricted_visibility_levels: ['public'] });
      const { status, body } = await kiln.api('POST', '/projects', { token: admin.token, body: { name: unique('p'), visibility: 'public' } });
      expect(status).toBe(201);
      expect(body.visibility).toBe('public');
    });
  });
});

describe('PUT /api/v4/projects/:id', () => {
  describe('as the owner, not an administrator', () => {
    it('refuses a change to a restricted visibility and keeps the old one', async () => {
      const project = await kiln.createProject(owner, unique('p'), { visibility: 'private' });
      await settings({ restricted_visibility_levels: ['internal'] });
      const { status, body } = await kiln.api('PUT', `/projects/${project.id}`, { token: owner.token, body: { visibility: 'internal' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { visibility_level: ['internal has been restricted by your GitLab administrator'] } });
      expect((await kiln.api('GET', `/projects/${project.id}`, { token: owner.token })).body.visibility).toBe('private');
    });

    it('still saves other changes of a project whose visibility is already restricted', async () => {
      const project = await kiln.createProject(owner, unique('p'), { visibility: 'internal' });
      await settings({ restricted_visibility_levels: ['internal'] });
      const { status, body } = await kiln.api('PUT', `/projects/${project.id}`, { token: owner.token, body: { visibility: 'internal', description: 'kept' } });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.description).toBe('kept');
    });
  });

  describe('as an administrator', () => {
    it('changes it to a restricted visibility', async () => {
      const project = await kiln.createProject(owner, unique('p'), { visibility: 'private' });
      await settings({ restricted_visibility_levels: ['internal'] });
      const { status, body } = await kiln.api('PUT', `/projects/${project.id}`, { token: admin.token, body: { visibility: 'internal' } });
      expect(status).toBe(200);
      expect(body.visibility).toBe('internal');
    });
  });
});

describe('POST /api/v4/groups', () => {
  describe('without a visibility', () => {
    it('takes default_group_visibility', async () => {
      await settings({ default_group_visibility: 'public' });
      const path = unique('g');
      const { status, body } = await kiln.api('POST', '/groups', { token: owner.token, body: { name: path, path } });
      expect(status).toBe(201);
      expect(body.visibility).toBe('public');
    });

    it("is lowered to the parent's visibility for a subgroup", async () => {
      await settings({ default_group_visibility: 'public' });
      const parent = await kiln.createGroup(owner, unique('g'), { visibility: 'internal' });
      const path = unique('sub');
      const { status, body } = await kiln.api('POST', '/groups', { token: owner.token, body: { name: path, path, parent_id: parent.id } });
      expect(status).toBe(201);
      expect(body.visibility).toBe('internal');
    });
  });

  describe('with a restricted visibility', () => {
    it('refuses a user who is not an administrator', async () => {
      await settings({ restricted_visibility_levels: ['public'] });
      const path = unique('g');
      const { status, body } = await kiln.api('POST', '/groups', { token: owner.token, body: { name: path, path, visibility: 'public' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { visibility_level: ['public has been restricted by your GitLab administrator'] } });
    });

    it('lets an administrator create it', async () => {
      await settings({ restricted_visibility_levels: ['public'] });
      const path = unique('g');
      const { status, body } = await kiln.api('POST', '/groups', { token: admin.token, body: { name: path, path, visibility: 'public' } });
      expect(status).toBe(201);
      expect(body.visibility).toBe('public');
    });
  });
});

describe('PUT /api/v4/groups/:id', () => {
  describe('as the owner, not an administrator', () => {
    it('refuses a change to a restricted visibility and keeps the old one', async () => {
      const group = await kiln.createGroup(owner, unique('g'), { visibility: 'private' });
      await settings({ restricted_visibility_levels: ['public'] });
      const { status, body } = await kiln.api('PUT', `/groups/${group.id}`, { token: owner.token, body: { visibility: 'public' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { visibility_level: ['public has been restricted by your GitLab administrator'] } });
      expect((await kiln.api('GET', `/groups/${group.id}`, { token: owner.token })).body.visibility).toBe('private');
    });
  });

  describe('as an administrator', () => {
    it('changes it to a restricted visibility', async () => {
      const group = await kiln.createGroup(owner, unique('g'), { visibility: 'private' });
      await settings({ restricted_visibility_levels: ['public'] });
      const { status, body } = await kiln.api('PUT', `/groups/${group.id}`, { token: admin.token, body: { visibility: 'public' } });
      expect(status).toBe(200);
      expect(body.visibility).toBe('public');
    });
  });
});

describe('GET /projects/new and /groups/new', () => {
  it('preselect the instance default visibility', async () => {
    await settings({ default_project_visibility: 'public', default_group_visibility: 'internal' });
    const web = new WebSession(kiln);
    await web.signIn(owner.username, owner.password);
    expect((await web.get('/projects/new')).body).toMatch(/value="public"[^>]*checked/);
    expect((await web.get('/groups/new')).body).toMatch(/value="internal"[^>]*checked/);
  });
});

describe('POST /projects/new and /groups/new', () => {
  it('give a project and a group the instance defaults when the form names no visibility', async () => {
    await settings({ default_project_visibility: 'internal', default_group_visibility: 'internal' });
    const web = new WebSession(kiln);
    await web.signIn(owner.username, owner.password);
    const groupPath = unique('webg');
    expect((await web.post('/groups/new', { name: groupPath, path: groupPath, description: '' })).statusCode).toBe(303);
    const projectPath = unique('webp');
    expect((await web.post('/projects/new', { name: projectPath, path: projectPath, description: '' })).statusCode).toBe(303);
    expect((await kiln.api('GET', `/groups/${groupPath}`, { token: owner.token })).body.visibility).toBe('internal');
    expect((await kiln.api('GET', `/projects/${owner.username}%2F${projectPath}`, { token: owner.token })).body.visibility).toBe('internal');
  });
});
