// Repeated reads answer each caller for themselves whatever is kept between requests (the row cache,
// the entity cache): who asks, whether they are an administrator, and the day memberships expire by.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { DAY_MS } from '../../src/platform/clock.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let reporter: TestUser;
let project: any;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('cache-scope-owner');
  developer = await kiln.createUser('cache-scope-developer');
  reporter = await kiln.createUser('cache-scope-reporter');
  project = await kiln.createProject(owner, 'cache-scope', { visibility: 'private' });
  // The developer's membership ends with today (the test clock's 2026-11-22).
  const added = await kiln.api('POST', `/projects/${project.id}/members`, { token: owner.token, body: { user_id: developer.id, access_level: 30, expires_at: '2026-11-22' } });
  expect(added.status).toBe(201);
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
});
afterAll(async () => {
  await kiln.close();
});

const accessOf = (body: any) => body.permissions?.project_access?.access_level;

describe('GET /api/v4/projects/:id', () => {
  describe('asked again', () => {
    it('gives each caller their own answer, and anonymous callers none of theirs', async () => {
      expect(accessOf((await kiln.api('GET', `/projects/${project.id}`, { token: developer.token })).body)).toBe(30);
      expect(accessOf((await kiln.api('GET', `/projects/${project.id}`, { token: reporter.token })).body)).toBe(20);
      expect(accessOf((await kiln.api('GET', `/projects/${project.id}`, { token: developer.token })).body)).toBe(30);
      expect((await kiln.api('GET', `/projects/${project.id}`)).status).toBe(404);
    });

    it('follows the day: a membership that ended yesterday no longer reads the project or lists it', async () => {
      expect((await kiln.api('GET', `/projects/${project.id}`, { token: developer.token })).status).toBe(200);
      kiln.clock.advance(DAY_MS);
      expect((await kiln.api('GET', `/projects/${project.id}`, { token: developer.token })).status).toBe(404);
      expect((await kiln.api('GET', '/projects', { token: developer.token })).body.map((listed: any) => listed.id)).not.toContain(project.id);
      expect((await kiln.api('GET', `/projects/${project.id}`, { token: reporter.token })).status).toBe(200);
    });
  });
});
