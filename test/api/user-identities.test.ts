// Users' external identities (GitLab's identities): set with provider + extern_uid on POST/PUT /users,
// shown in the admin and own views, filtered on, removed per provider, gone with the user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

const root = () => ({ token: kiln.root.token });
const newUser = (username: string, extra: Record<string, unknown> = {}) =>
  kiln.api('POST', '/users', { ...root(), body: { username, name: username, email: `${username}@example.com`, password: 'a-long-password-1', ...extra } });

describe('PUT /api/v4/users/:id with provider and extern_uid', () => {
  describe('as an administrator', () => {
    it('adds the identity and answers it in the user, then replaces its extern_uid for the same provider', async () => {
      const user = (await newUser('ident-put')).body;
      const first = await kiln.api('PUT', `/users/${user.id}`, { ...root(), body: { provider: 'test_provider', extern_uid: '1' } });
      expect(first.status).toBe(200);
      expect(first.body.identities).toEqual([{ provider: 'test_provider', extern_uid: '1', saml_provider_id: null }]);
      const second = await kiln.api('PUT', `/users/${user.id}`, { ...root(), body: { provider: 'test_provider', extern_uid: '2' } });
      expect(second.body.identities).toEqual([{ provider: 'test_provider', extern_uid: '2', saml_provider_id: null }]);
    });

    it('answers 400 naming the parameters when only one of them is given', async () => {
      const { status, body } = await kiln.api('PUT', `/users/${alice.id}`, { ...root(), body: { provider: 'test_provider' } });
      expect(status).toBe(400);
      expect(body.error).toBe('extern_uid, provider provide all or none of parameters');
    });

    it("answers 400 when another user already has that provider's extern_uid, and changes nothing", async () => {
      await kiln.api('PUT', `/users/${alice.id}`, { ...root(), body: { provider: 'clash', extern_uid: 'same' } });
      const other = (await newUser('ident-clash')).body;
      const { status, body } = await kiln.api('PUT', `/users/${other.id}`, { ...root(), body: { provider: 'clash', extern_uid: 'same', bio: 'changed' } });
      expect(status).toBe(400);
      expect(body.message).toEqual({ 'identities.extern_uid': ['has already been taken'] });
      expect((await kiln.api('GET', `/users/${other.id}`, root())).body).toMatchObject({ bio: '', identities: [] });
    });
  });

  describe('as a user', () => {
    it('answers 403', async () => {
      expect((await kiln.api('PUT', `/users/${alice.id}`, { token: alice.token, body: { provider: 'p', extern_uid: '1' } })).status).toBe(403);
    });
  });
});

describe('POST /api/v4/users with provider and extern_uid', () => {
  it('creates the user with the identity', async () => {
    const { status, body } = await newUser('ident-post', { provider: 'github', extern_uid: '42' });
    expect(status).toBe(201);
    expect(body.identities).toEqual([{ provider: 'github', extern_uid: '42', saml_provider_id: null }]);
  });

  it('answers 400 without extern_uid and creates no user', async () => {
    const { status } = await newUser('ident-half', { provider: 'github' });
    expect(status).toBe(400);
    expect((await kiln.api('GET', '/users?username=ident-half', root())).body).toEqual([]);
  });
});

describe('GET /api/v4/users?extern_uid=&provider=', () => {
  it('as an administrator finds the user with that identity, identities included in the list', async () => {
    const created = (await newUser('ident-find', { provider: 'gitea', extern_uid: 'u-7' })).body;
    const { status, body } = await kiln.api('GET', '/users?extern_uid=u-7&provider=gitea', root());
    expect(status).toBe(200);
    expect(body.map((user: { id: number }) => user.id)).toEqual([created.id]);
    expect(body[0].identities).toEqual([{ provider: 'gitea', extern_uid: 'u-7', saml_provider_id: null }]);
  });

  it('as a user answers 403', async () => {
    expect((await kiln.api('GET', '/users?extern_uid=u-7&provider=gitea', { token: alice.token })).status).toBe(403);
  });

  it('answers 400 with only one of the two', async () => {
    expect((await kiln.api('GET', '/users?extern_uid=u-7', root())).status).toBe(400);
  });
});

describe('GET /api/v4/user', () => {
  it("shows the caller's own identities", async () => {
    const user = await kiln.createUser('ident-self');
    await kiln.api('PUT', `/users/${user.id}`, { ...root(), body: { provider: 'oidc', extern_uid: 'self' } });
    expect((await kiln.api('GET', '/user', { token: user.token })).body.identities).toEqual([{ provider: 'oidc', extern_uid: 'self', saml_provider_id: null }]);
  });
});

describe('DELETE /api/v4/users/:id/identities/:provider', () => {
  describe('as an administrator', () => {
    it('answers 204 and the identity is gone', async () => {
      const user = (await newUser('ident-del', { provider: 'test_provider', extern_uid: '9' })).body;
      expect((await kiln.api('DELETE', `/users/${user.id}/identities/test_provider`, root())).status).toBe(204);
      expect((await kiln.api('GET', `/users/${user.id}`, root())).body.identities).toEqual([]);
    });

    it('answers 404 Identity Not Found for a provider the user has no identity at', async () => {
      const { status, body } = await kiln.api('DELETE', `/users/${alice.id}/identities/nowhere`, root());
      expect(status).toBe(404);
      expect(body.message).toBe('404 Identity Not Found');
    });

    it('answers 404 for an unknown user', async () => {
      expect((await kiln.api('DELETE', '/users/999999/identities/github', root())).status).toBe(404);
    });
  });

  it('as a user answers 403', async () => {
    expect((await kiln.api('DELETE', `/users/${alice.id}/identities/clash`, { token: alice.token })).status).toBe(403);
  });
});

describe('DELETE /api/v4/users/:id', () => {
  it("removes the user's identities, so the external account can be linked to another user", async () => {
    const leaving = (await newUser('ident-leaving', { provider: 'reuse', extern_uid: 'x' })).body;
    await kiln.api('DELETE', `/users/${leaving.id}`, root());
    await kiln.worker.drain();
    expect(await kiln.deps.db.selectFrom('identities').select('id').where('user_id', '=', leaving.id).execute()).toEqual([]);
    expect((await newUser('ident-next', { provider: 'reuse', extern_uid: 'x' })).status).toBe(201);
  });
});
