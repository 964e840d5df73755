// Who may give a personal access token the `sudo` and `admin_mode` scopes: GitLab offers them only to
// administrators (the available scopes of a non-admin exclude both), on the profile page and in
// whatever creates the token for them; an administrator may still create them through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { signedIn } from './oauth-driver.js';

let kiln: TestKiln;
let alice: TestUser;
let admin: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  admin = await kiln.createUser('ada', { admin: true });
});
afterAll(() => kiln.close());

async function tokenNames(userId: number): Promise<string[]> {
  const rows = await kiln.deps.db.selectFrom('personal_access_tokens').select('name').where('user_id', '=', userId).execute();
  return rows.map((row) => row.name);
}

describe('POST /profile/personal_access_tokens', () => {
  describe('as a user who is not an administrator', () => {
    it.each(['sudo', 'admin_mode'])('refuses the %s scope with 400 and creates nothing', async (scope) => {
      const web = await signedIn(kiln, alice);
      const response = await web.post('/profile/personal_access_tokens', { name: `with-${scope}`, 'scopes[]': scope }, { csrfFrom: '/profile/personal_access_tokens' });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('scopes can only contain available scopes');
      expect(response.body).not.toContain('created-personal-access-token');
      expect(await tokenNames(alice.id)).not.toContain(`with-${scope}`);
    });

    it('is not offered sudo or admin_mode on the form, only the other scopes', async () => {
      const web = await signedIn(kiln, alice);
      const form = (await web.get('/profile/personal_access_tokens')).body;
      expect(form).toContain('value="read_api"');
      expect(form).not.toContain('value="sudo"');
      expect(form).not.toContain('value="admin_mode"');
    });
  });

  describe('as an administrator', () => {
    it('is offered sudo and creates a token with it', async () => {
      const web = await signedIn(kiln, admin);
      expect((await web.get('/profile/personal_access_tokens')).body).toContain('value="sudo"');
      const response = await web.post('/profile/personal_access_tokens', { name: 'admin-sudo', 'scopes[]': 'sudo' }, { csrfFrom: '/profile/personal_access_tokens' });
      expect(response.statusCode).toBe(200);
      expect(await tokenNames(admin.id)).toContain('admin-sudo');
    });
  });
});

describe('POST /api/v4/users/:id/personal_access_tokens', () => {
  describe('as an administrator', () => {
    it('may create a sudo token (GitLab checks only that the scopes exist)', async () => {
      const { status, body } = await kiln.api('POST', `/users/${admin.id}/personal_access_tokens`, { token: kiln.root.token, body: { name: 'api-sudo', scopes: ['sudo', 'api'] } });
      expect(status).toBe(201);
      expect(body.scopes).toEqual(['sudo', 'api']);
    });
  });

  describe('as a user', () => {
    it('answers 403 and creates nothing, sudo or not', async () => {
      const { status } = await kiln.api('POST', `/users/${alice.id}/personal_access_tokens`, { token: alice.token, body: { name: 'self-sudo', scopes: ['sudo'] } });
      expect(status).toBe(403);
      expect(await tokenNames(alice.id)).not.toContain('self-sudo');
    });
  });
});

describe('POST /api/v4/user/personal_access_tokens', () => {
  it('does not exist, so it creates no sudo token for a user (404)', async () => {
    const { status } = await kiln.api('POST', '/user/personal_access_tokens', { token: alice.token, body: { name: 'own-sudo', scopes: ['sudo'] } });
    expect(status).toBe(404);
    expect(await tokenNames(alice.id)).not.toContain('own-sudo');
  });
});
