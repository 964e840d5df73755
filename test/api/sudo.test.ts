// Sudo needs the endpoint's scope as well as `sudo` (GitLab's `sudo!` runs after the scope check of
// the endpoint: lib/api/helpers.rb, doc/api/rest/index.md "Sudo"). A `sudo` scope alone, or with
// `read_api` on a write, acts as nobody.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { createPersonalAccessToken } from '../../src/accounts/personal-access-tokens.js';

let kiln: TestKiln;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

async function tokenFor(user: TestUser, scopes: string[]): Promise<string> {
  const { token } = await createPersonalAccessToken(kiln.deps, { userId: user.id, name: `t-${scopes.join('-')}`, scopes });
  return token;
}

const INSUFFICIENT = 'The request requires higher privileges than provided by the access token.';
const projectsOf = (username: string) =>
  kiln.deps.db.selectFrom('projects').select('path').where('full_path_lower', 'like', `${username}/%`).execute();

beforeAll(async () => {
  kiln = await testKiln();
  admin = await kiln.createUser('boss', { admin: true });
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
});
afterAll(() => kiln.close());

describe('POST /api/v4/projects with Sudo', () => {
  describe('as an administrator with a `read_api sudo` token', () => {
    it('answers 403 insufficient_scope and creates nothing', async () => {
      const token = await tokenFor(admin, ['read_api', 'sudo']);
      const { status, body } = await kiln.api('POST', '/projects', { token, headers: { sudo: 'bob' }, body: { name: 'via-read-api' } });
      expect(status).toBe(403);
      expect(body).toEqual({ error: 'insufficient_scope', error_description: INSUFFICIENT, scope: 'api read_api' });
      expect(await projectsOf('bob')).toEqual([]);
    });

    it('still reads as that user (GET needs only read_api)', async () => {
      const token = await tokenFor(admin, ['read_api', 'sudo']);
      const { status, body } = await kiln.api('GET', '/user', { token, headers: { sudo: 'bob' } });
      expect(status).toBe(200);
      expect(body.username).toBe('bob');
    });
  });

  describe('as an administrator with a `sudo`-only token', () => {
    it('answers 403 insufficient_scope on a write and on a read, acting as nobody', async () => {
      const token = await tokenFor(admin, ['sudo']);
      const write = await kiln.api('POST', '/projects', { token, headers: { sudo: 'bob' }, body: { name: 'via-sudo-only' } });
      expect(write.status).toBe(403);
      expect(write.body.error).toBe('insufficient_scope');
      const read = await kiln.api('GET', '/user', { token, headers: { sudo: 'bob' } });
      expect(read.status).toBe(403);
      expect(read.body.error).toBe('insufficient_scope');
      expect(await projectsOf('bob')).toEqual([]);
    });
  });

  describe('as an administrator with an `api sudo` token', () => {
    it('creates the project as the named user', async () => {
      const token = await tokenFor(admin, ['api', 'sudo']);
      const { status, body } = await kiln.api('POST', '/projects', { token, headers: { sudo: 'bob' }, body: { name: 'via-api-sudo' } });
      expect(status).toBe(201);
      expect(body.path_with_namespace).toBe('bob/via-api-sudo');
      expect(body.creator_id).toBe(bob.id);
    });
  });

  describe('as a non-administrator with an `api sudo` token', () => {
    it('answers 403 "Must be admin to use sudo" and creates nothing', async () => {
      const token = await tokenFor(alice, ['api', 'sudo']);
      const { status, body } = await kiln.api('POST', '/projects', { token, headers: { sudo: 'bob' }, body: { name: 'via-alice' } });
      expect(status).toBe(403);
      expect(body).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
      expect(await projectsOf('bob')).not.toContainEqual({ path: 'via-alice' });
    });
  });
});
