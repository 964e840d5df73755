// Defects reported against the users API, each pinned: the password length rule on create and on
// PUT /users/:id (Devise's 8..128 as GitLab configures it), and a duplicate username named as such
// (lib/api/users.rb: the e-mail conflict first, then the username's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

async function passwordHash(userId: number): Promise<string | null> {
  return (await kiln.deps.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()).password_hash;
}

describe('PUT /api/v4/users/:id', () => {
  describe('as an administrator', () => {
    it('refuses a password shorter than 8 characters with 400 and keeps the old one', async () => {
      const before = await passwordHash(alice.id);
      const { status, body } = await kiln.api('PUT', `/users/${alice.id}`, { token: kiln.root.token, body: { password: 'short12' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { password: ['is too short (minimum is 8 characters)'] } });
      expect(await passwordHash(alice.id)).toBe(before);
    });

    it('refuses a password longer than 128 characters with 400', async () => {
      const { status, body } = await kiln.api('PUT', `/users/${alice.id}`, { token: kiln.root.token, body: { password: 'x'.repeat(129) } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { password: ['is too long (maximum is 128 characters)'] } });
    });

    it('accepts 8 and 128 characters', async () => {
      for (const password of ['eight888', 'y'.repeat(128)]) {
        expect((await kiln.api('PUT', `/users/${alice.id}`, { token: kiln.root.token, body: { password } })).status).toBe(200);
      }
    });
  });
});

describe('POST /api/v4/users', () => {
  describe('as an administrator', () => {
    it('names the username when only the username is taken (409), whatever its case', async () => {
      for (const username of ['alice', 'ALICE']) {
        const { status, body } = await kiln.api('POST', '/users', { token: kiln.root.token, body: { username, name: 'Another', email: `another-${username}@example.com`, password: 'password-123' } });
        expect(status).toBe(409);
        expect(body).toEqual({ message: 'Username has already been taken' });
      }
    });

    it('names the e-mail when the address is taken, as GitLab checks it first', async () => {
      const { status, body } = await kiln.api('POST', '/users', { token: kiln.root.token, body: { username: 'alice', name: 'Another', email: 'alice@example.com', password: 'password-123' } });
      expect(status).toBe(409);
      expect(body).toEqual({ message: 'Email has already been taken' });
    });

    it('refuses a password longer than 128 characters with 400', async () => {
      const { status, body } = await kiln.api('POST', '/users', { token: kiln.root.token, body: { username: 'longpass', name: 'Long', email: 'long@example.com', password: 'z'.repeat(129) } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { password: ['is too long (maximum is 128 characters)'] } });
    });
  });
});
