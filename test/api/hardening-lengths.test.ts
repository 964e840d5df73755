// Text fields have GitLab's length limits on every route (issue 13, item 6; issue 33): platform/http/params.ts
// applies them by parameter name, in the model's words; the account actions apply their models' own
// (accounts/text-limits.ts), so pages refuse alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let dora: TestUser;
let project: any;
let issue: any;

// Ruby counts characters, not UTF-16 units or bytes: 255 'é' or emoji are within the limit.
const chars = (count: number, char = 'é') => char.repeat(count);

beforeAll(async () => {
  kiln = await testKiln();
  dora = await kiln.createUser('dora');
  project = await kiln.createProject(dora, 'shop');
  issue = (await kiln.api('POST', `/projects/${project.id}/issues`, { token: dora.token, body: { title: 'First' } })).body;
});
afterAll(() => kiln.close());

describe('POST /api/v4/groups', () => {
  describe('as a user', () => {
    it('answers 400 naming name when it is over 255 characters', async () => {
      const { status, body } = await kiln.api('POST', '/groups', { token: dora.token, body: { name: chars(256), path: 'long-group' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { name: ['is too long (maximum is 255 characters)'] } });
    });

    it('accepts a name of 255 characters, even of four-byte ones', async () => {
      const { status } = await kiln.api('POST', '/groups', { token: dora.token, body: { name: chars(255, '🔥'), path: 'emoji-group' } });
      expect(status).toBe(201);
    });

    it('reports Grape\'s parameter errors before lengths', async () => {
      const { status, body } = await kiln.api('POST', '/groups', { token: dora.token, body: { name: chars(256) } });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'path is missing' });
    });
  });
});

describe('POST /api/v4/projects', () => {
  describe('as a user', () => {
    it('answers 400 naming name when it is over 255 characters', async () => {
      const { status, body } = await kiln.api('POST', '/projects', { token: dora.token, body: { name: chars(256), path: 'long-project' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { name: ['is too long (maximum is 255 characters)'] } });
    });

    it('answers 400 naming description when it is over 2,000 characters (Project), and accepts 2,000', async () => {
      const { status, body } = await kiln.api('POST', '/projects', { token: dora.token, body: { name: 'described', description: chars(2001) } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { description: ['is too long (maximum is 2000 characters)'] } });
      expect((await kiln.api('POST', '/projects', { token: dora.token, body: { name: 'described', description: chars(2000) } })).status).toBe(201);
    });
  });
});

describe('PUT /api/v4/projects/:id', () => {
  describe('as the owner', () => {
    it('answers 400 naming description when it is over 2,000 characters, and keeps the description', async () => {
      const { status, body } = await kiln.api('PUT', `/projects/${project.id}`, { token: dora.token, body: { description: chars(2001) } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { description: ['is too long (maximum is 2000 characters)'] } });
      expect((await kiln.api('GET', `/projects/${project.id}`, { token: dora.token })).body.description).toBe('');
    });
  });
});

describe('group descriptions (Namespace: 255 characters)', () => {
  it('POST /api/v4/groups answers 400 naming description when it is over 255 characters', async () => {
    const { status, body } = await kiln.api('POST', '/groups', { token: dora.token, body: { name: 'described', path: 'described', description: chars(256) } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { description: ['is too long (maximum is 255 characters)'] } });
  });

  it('PUT /api/v4/groups/:id answers 400 naming description when it is over 255 characters, and accepts 255', async () => {
    const group = await kiln.createGroup(dora, 'team');
    const { status, body } = await kiln.api('PUT', `/groups/${group.id}`, { token: dora.token, body: { description: chars(256) } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { description: ['is too long (maximum is 255 characters)'] } });
    expect((await kiln.api('PUT', `/groups/${group.id}`, { token: dora.token, body: { description: chars(255) } })).status).toBe(200);
  });
});

describe('PUT /api/v4/users/:id', () => {
  describe('as an administrator', () => {
    it.each([
      ['name', 255],
      ['bio', 255],
      ['pronouns', 50],
      ['location', 500],
      ['organization', 500],
    ])('answers 400 naming %s when it is over %i characters (User, UserDetail)', async (field, max) => {
      const { status, body } = await kiln.api('PUT', `/users/${dora.id}`, { token: kiln.root.token, body: { [field]: chars(max + 1) } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { [field]: [`is too long (maximum is ${max} characters)`] } });
      expect((await kiln.api('PUT', `/users/${dora.id}`, { token: kiln.root.token, body: { [field]: chars(max) } })).status).toBe(200);
    });

    it('answers 400 naming website_url when it is over 500 characters', async () => {
      const { status, body } = await kiln.api('PUT', `/users/${dora.id}`, { token: kiln.root.token, body: { website_url: `https://dora.example/${'x'.repeat(480)}` } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { website_url: ['is too long (maximum is 500 characters)'] } });
    });
  });
});

describe('PUT /api/v4/projects/:id/issues/:issue_iid', () => {
  describe('as the author', () => {
    it('answers 400 naming title when it is over 255 characters, and keeps the title', async () => {
      const { status, body } = await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}`, { token: dora.token, body: { title: chars(256) } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
      expect((await kiln.api('GET', `/projects/${project.id}/issues/${issue.iid}`, { token: dora.token })).body.title).toBe('First');
    });
  });
});

describe('POST /api/v4/projects/:id/issues/:issue_iid/notes', () => {
  describe('as the author', () => {
    it('answers 400 naming note when the body is over 1,000,000 characters', async () => {
      const { status, body } = await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: dora.token, body: { body: 'x'.repeat(1_000_001) } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { note: ['is too long (maximum is 1000000 characters)'] } });
    });
  });
});

describe('POST /api/v4/applications', () => {
  describe('as an administrator', () => {
    it('answers 400 naming name when it is over 255 characters', async () => {
      const { status, body } = await kiln.api('POST', '/applications', { token: kiln.root.token, body: { name: chars(256), redirect_uri: 'https://app.example/cb', scopes: 'api' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { name: ['is too long (maximum is 255 characters)'] } });
    });
  });
});
