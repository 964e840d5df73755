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

describe('GET /api/v4/user', () => {
  it('as a user returns their own private entity with web_url and avatar under KILN_BASE_URL', async () => {
    const { status, body } = await kiln.api('GET', '/user', { token: alice.token });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: alice.id,
      username: 'alice',
      name: 'User alice',
      state: 'active',
      email: 'alice@example.com',
      is_admin: false,
      web_url: 'http://kiln.test/alice',
      avatar_url: 'http://kiln.test/-/avatars/alice.svg',
    });
  });

  it('as root says is_admin true', async () => {
    const { body } = await kiln.api('GET', '/user', { token: kiln.root.token });
    expect(body).toMatchObject({ username: 'root', is_admin: true });
  });
});

describe('GET /api/v4/users', () => {
  it('as a user lists users without their e-mail addresses', async () => {
    const { status, body } = await kiln.api('GET', '/users', { token: alice.token });
    expect(status).toBe(200);
    expect(body.map((user: { username: string }) => user.username)).toEqual(expect.arrayContaining(['root', 'alice', 'bob']));
    expect(body[0].email).toBeUndefined();
  });

  it('as an administrator includes e-mail addresses', async () => {
    const { body } = await kiln.api('GET', '/users?username=bob', { token: kiln.root.token });
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ username: 'bob', email: 'bob@example.com' });
  });

  it('filters by username case-insensitively', async () => {
    const { body } = await kiln.api('GET', '/users?username=ALICE', { token: bob.token });
    expect(body.map((user: { id: number }) => user.id)).toEqual([alice.id]);
  });

  it('filters blocked users with blocked=true', async () => {
    const blocked = await kiln.createUser('blocked-one');
    await kiln.api('POST', `/users/${blocked.id}/block`, { token: kiln.root.token });
    const { body } = await kiln.api('GET', '/users?blocked=true', { token: kiln.root.token });
    expect(body.map((user: { username: string }) => user.username)).toEqual(['blocked-one']);
  });
});

describe('GET /api/v4/users?search=', () => {
  async function search(term: string, token: string | undefined = alice.token): Promise<string[]> {
    const { status, body } = await kiln.api('GET', '/users', { token, query: { search: term, per_page: 100 } });
    expect(status).toBe(200);
    return body.map((user: { username: string }) => user.username);
  }

  it('matches usernames and names by substring, any case', async () => {
    await kiln.createUser('searchable-sam');
    expect(await search('CHABLE-S')).toEqual(['searchable-sam']);
    expect(await search('user searchable')).toEqual(['searchable-sam']);
  });

  describe('as a user', () => {
    it("never matches another user's private e-mail address, whole or in part", async () => {
      expect(await search('bob@example.com')).toEqual([]);
      expect(await search('example.com')).toEqual([]);
    });

    it('matches a public e-mail address given whole', async () => {
      const shown = await kiln.createUser('shown');
      await kiln.api('POST', `/users/${shown.id}/emails`, { token: kiln.root.token, body: { email: 'Shown.Public@example.org', skip_confirmation: true } });
      expect((await kiln.api('PUT', `/users/${shown.id}`, { token: kiln.root.token, body: { public_email: 'Shown.Public@example.org' } })).status).toBe(200);
      expect(await search('shown.public@example.org')).toEqual(['shown']);
      expect(await search('shown.public@example')).toEqual([]);
    });
  });

  describe('as an administrator', () => {
    it('matches a private e-mail address given whole', async () => {
      expect(await search('bob@example.com', kiln.root.token)).toEqual(['bob']);
    });
  });

  describe('with LIKE wildcards', () => {
    it('search=% lists nobody', async () => {
      expect(await search('%')).toEqual([]);
      expect(await search('%%%')).toEqual([]);
    });

    it('_ matches only an underscore, and % only a percent sign', async () => {
      const underscored = await kiln.createUser('has_under');
      const plain = await kiln.createUser('hasxunder');
      expect(await search('s_u')).toEqual(['has_under']);
      await kiln.api('PUT', `/users/${plain.id}`, { token: kiln.root.token, body: { name: '100% Plain' } });
      await kiln.api('PUT', `/users/${underscored.id}`, { token: kiln.root.token, body: { name: '1000 Under' } });
      expect(await search('00%')).toEqual(['hasxunder']);
    });

    it('a backslash is matched literally, not as an escape', async () => {
      const slashed = await kiln.createUser('slashed');
      const joined = await kiln.createUser('joined');
      await kiln.api('PUT', `/users/${slashed.id}`, { token: kiln.root.token, body: { name: 'Xq\\zed' } });
      await kiln.api('PUT', `/users/${joined.id}`, { token: kiln.root.token, body: { name: 'Xqzed' } });
      expect(await search('q\\z')).toEqual(['slashed']);
    });
  });
});

describe('GET /api/v4/users without a token', () => {
  it('answers 403 "Not authorized to access /api/v4/users" for a listing', async () => {
    const { status, body } = await kiln.api('GET', '/users');
    expect(status).toBe(403);
    expect(body).toEqual({ message: '403 Forbidden - Not authorized to access /api/v4/users' });
  });

  it('finds one user by username, without their e-mail address', async () => {
    const { status, body } = await kiln.api('GET', '/users?username=alice');
    expect(status).toBe(200);
    expect(body).toEqual([expect.objectContaining({ id: alice.id, username: 'alice' })]);
    expect(body[0].email).toBeUndefined();
  });
});

describe('GET /api/v4/users/:id', () => {
  it('without a token answers 401', async () => {
    expect((await kiln.api('GET', `/users/${bob.id}`)).status).toBe(401);
  });

  it('finds a user by id', async () => {
    const { status, body } = await kiln.api('GET', `/users/${bob.id}`, { token: alice.token });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: bob.id, username: 'bob' });
    expect(body.email).toBeUndefined();
  });

  it('finds a user by username', async () => {
    const { body } = await kiln.api('GET', '/users/bob', { token: alice.token });
    expect(body.id).toBe(bob.id);
  });

  it('answers 404 {"message":"404 User Not Found"} for an unknown user', async () => {
    const { status, body } = await kiln.api('GET', '/users/nobody', { token: alice.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 User Not Found' });
  });
});

describe('POST /api/v4/users', () => {
  it('as an administrator creates a user (201) who can then be given a token', async () => {
    const { status, body } = await kiln.api('POST', '/users', { token: kiln.root.token, body: { username: 'newbie', name: 'New Bie', email: 'newbie@example.com', password: 'long-enough-pw' } });
    expect(status).toBe(201);
    expect(body).toMatchObject({ username: 'newbie', name: 'New Bie', email: 'newbie@example.com', state: 'active', is_admin: false });
  });

  it('accepts a form body with admin="true"', async () => {
    const { status, body } = await kiln.api('POST', '/users', { token: kiln.root.token, form: { username: 'formadmin', name: 'Form Admin', email: 'fa@example.com', password: 'long-enough-pw', admin: 'true' } });
    expect(status).toBe(201);
    expect(body.is_admin).toBe(true);
  });

  it('as a non-administrator answers 403 {"message":"403 Forbidden"}', async () => {
    const { status, body } = await kiln.api('POST', '/users', { token: alice.token, body: { username: 'x1', name: 'X', email: 'x1@example.com' } });
    expect(status).toBe(403);
    expect(body).toEqual({ message: '403 Forbidden' });
  });

  it('answers 400 "username is missing" without a username', async () => {
    const { status, body } = await kiln.api('POST', '/users', { token: kiln.root.token, body: { name: 'X', email: 'x2@example.com' } });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'username is missing' });
  });

  it('answers 409 "Username has already been taken" for a taken username (any case)', async () => {
    const { status, body } = await kiln.api('POST', '/users', { token: kiln.root.token, body: { username: 'ALICE', name: 'X', email: 'other@example.com', password: 'long-enough-pw' } });
    expect(status).toBe(409);
    expect(body).toEqual({ message: 'Username has already been taken' });
  });

  it('answers 409 "Email has already been taken" for a taken e-mail address', async () => {
    const { status, body } = await kiln.api('POST', '/users', { token: kiln.root.token, body: { username: 'alice2', name: 'X', email: 'ALICE@example.com', password: 'long-enough-pw' } });
    expect(status).toBe(409);
    expect(body).toEqual({ message: 'Email has already been taken' });
  });

  it('answers 400 with the model errors for a short password and a bad e-mail', async () => {
    const { status, body } = await kiln.api('POST', '/users', { token: kiln.root.token, body: { username: 'shorty', name: 'S', email: 'not-an-email', password: 'short' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { email: ['is invalid'], password: ['is too short (minimum is 8 characters)'] } });
  });

  it('stores the password with a slow KDF, never in clear', async () => {
    await kiln.api('POST', '/users', { token: kiln.root.token, body: { username: 'hashed', name: 'H', email: 'h@example.com', password: 'clear-text-password' } });
    const row = await kiln.deps.db.selectFrom('users').select('password_hash').where('username', '=', 'hashed').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('clear-text-password');
  });
});

describe('PUT /api/v4/users/:id', () => {
  it('as an administrator changes the name', async () => {
    const { status, body } = await kiln.api('PUT', `/users/${bob.id}`, { token: kiln.root.token, body: { name: 'Robert' } });
    expect(status).toBe(200);
    expect(body.name).toBe('Robert');
  });

  it('as a non-administrator answers 403', async () => {
    expect((await kiln.api('PUT', `/users/${bob.id}`, { token: alice.token, body: { name: 'Hacked' } })).status).toBe(403);
  });

  it('answers 404 User Not Found for an unknown id', async () => {
    const { status, body } = await kiln.api('PUT', '/users/999999', { token: kiln.root.token, body: { name: 'X' } });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 User Not Found' });
  });
});

describe('POST /api/v4/users/:id/block and /unblock', () => {
  it('as an administrator answers 201 true and changes state', async () => {
    const target = await kiln.createUser('to-block');
    const blocked = await kiln.api('POST', `/users/${target.id}/block`, { token: kiln.root.token });
    expect(blocked.status).toBe(201);
    expect(blocked.body).toBe(true);
    expect((await kiln.api('GET', `/users/${target.id}`, { token: kiln.root.token })).body.state).toBe('blocked');
    await kiln.api('POST', `/users/${target.id}/unblock`, { token: kiln.root.token });
    expect((await kiln.api('GET', `/users/${target.id}`, { token: kiln.root.token })).body.state).toBe('active');
  });

  it('as a non-administrator answers 403', async () => {
    expect((await kiln.api('POST', `/users/${bob.id}/block`, { token: alice.token })).status).toBe(403);
  });

  it('answers 404 for an unknown user', async () => {
    expect((await kiln.api('POST', '/users/999999/block', { token: kiln.root.token })).body).toEqual({ message: '404 User Not Found' });
  });
});
