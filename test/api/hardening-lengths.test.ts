// Text fields have GitLab's length limits on every route (issue 13, item 6): platform/http/params.ts
// applies them by parameter name, in the model's words.
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
