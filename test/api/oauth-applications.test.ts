import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { tokenRequest } from './oauth-driver.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln({ protectedPathsPerMinute: 10_000 });
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

const create = (body: Record<string, unknown>, token = kiln.root.token) => kiln.api('POST', '/applications', { token, body });

describe('POST /api/v4/applications', () => {
  it('as an administrator: 201 with GitLab\'s fields and the secret once', async () => {
    const { status, body } = await create({ name: 'CI', redirect_uri: 'https://ci.example/cb', scopes: 'api read_user' });
    expect(status).toBe(201);
    expect(body).toEqual({ id: expect.any(Number), application_id: expect.stringMatching(/^[0-9a-f]{64}$/), application_name: 'CI', callback_url: 'https://ci.example/cb', confidential: true, secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const list = await kiln.api('GET', '/applications', { token: kiln.root.token });
    const listed = list.body.find((app: { id: number }) => app.id === body.id);
    expect(listed).toEqual({ id: body.id, application_id: body.application_id, application_name: 'CI', callback_url: 'https://ci.example/cb', confidential: true });
  });

  it('the issued secret authenticates the client (password grant with Basic)', async () => {
    const { body } = await create({ name: 'Basic', redirect_uri: 'https://x.example/cb', scopes: 'api' });
    const result = await tokenRequest(kiln, { grant_type: 'password', username: 'alice', password: alice.password }, { authorization: `Basic ${Buffer.from(`${body.application_id}:${body.secret}`).toString('base64')}` });
    expect(result.status).toBe(200);
  });

  it('accepts trusted=true (a Kiln extension): the application skips consent', async () => {
    const { body } = await create({ name: 'Trusted', redirect_uri: 'https://t.example/cb', scopes: 'api', trusted: true });
    expect(body.secret).toBeDefined();
    const row = await kiln.deps.db.selectFrom('oauth_applications').select('trusted').where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row.trusted).toBe(1);
  });

  it('accepts confidential=false', async () => {
    const { body } = await create({ name: 'SPA', redirect_uri: 'https://spa.example/cb', scopes: 'read_user', confidential: false });
    expect(body.confidential).toBe(false);
  });

  for (const [name, body, field, message] of [
    ['a missing name', { redirect_uri: 'https://x.example', scopes: 'api' }, null, 'name is missing'],
    ['a javascript: redirect URI', { name: 'x', redirect_uri: 'javascript:alert(1)', scopes: 'api' }, 'redirect_uri', 'is forbidden by the server.'],
    ['a data: redirect URI', { name: 'x', redirect_uri: 'data:text/html,hi', scopes: 'api' }, 'redirect_uri', 'is forbidden by the server.'],
    ['a redirect URI with a fragment', { name: 'x', redirect_uri: 'https://x.example/cb#frag', scopes: 'api' }, 'redirect_uri', 'cannot contain a fragment.'],
    ['a relative redirect URI', { name: 'x', redirect_uri: '/cb', scopes: 'api' }, 'redirect_uri', 'must be an absolute URI.'],
    ['an unknown scope', { name: 'x', redirect_uri: 'https://x.example/cb', scopes: 'api write_everything' }, 'scopes', "doesn't match configured on the server."],
  ] as const) {
    it(`refuses ${name} with 400`, async () => {
      const result = await create(body);
      expect(result.status).toBe(400);
      if (field === null) expect(result.body).toEqual({ error: message });
      else expect(result.body.message[field]).toContain(message);
    });
  }

  it('as an administrator accepts the admin scope sudo (an instance-wide application)', async () => {
    const { status, body } = await create({ name: 'Admin tool', redirect_uri: 'https://x.example/cb', scopes: 'api sudo' });
    expect(status).toBe(201);
    const row = await kiln.deps.db.selectFrom('oauth_applications').select(['scopes', 'owner_id']).where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ scopes: 'api sudo', owner_id: null });
  });

  it('as a non-administrator: 403; without a token: 401', async () => {
    expect((await create({ name: 'x', redirect_uri: 'https://x.example', scopes: 'api' }, alice.token)).status).toBe(403);
    expect((await kiln.api('GET', '/applications', { token: alice.token })).status).toBe(403);
    expect((await kiln.api('GET', '/applications')).status).toBe(401);
  });
});

describe('POST /api/v4/applications/:id/renew-secret', () => {
  it('as an administrator: a new secret; the old one stops working', async () => {
    const { body: created } = await create({ name: 'Renew', redirect_uri: 'https://x.example/cb', scopes: 'api' });
    const renewed = await kiln.api('POST', `/applications/${created.id}/renew-secret`, { token: kiln.root.token });
    expect(renewed.status).toBe(200);
    expect(renewed.body.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(renewed.body.secret).not.toBe(created.secret);
    const auth = (secret: string) => ({ authorization: `Basic ${Buffer.from(`${created.application_id}:${secret}`).toString('base64')}` });
    expect((await tokenRequest(kiln, { grant_type: 'password', username: 'alice', password: alice.password }, auth(created.secret))).status).toBe(401);
    expect((await tokenRequest(kiln, { grant_type: 'password', username: 'alice', password: alice.password }, auth(renewed.body.secret))).status).toBe(200);
  });
});

describe('DELETE /api/v4/applications/:id', () => {
  it('as an administrator: 204, and the application\'s tokens stop working; unknown id 404', async () => {
    const { body: created } = await create({ name: 'Gone', redirect_uri: 'https://x.example/cb', scopes: 'api' });
    const token = await tokenRequest(kiln, { grant_type: 'password', username: 'alice', password: alice.password, client_id: created.application_id, client_secret: created.secret });
    expect((await kiln.api('DELETE', `/applications/${created.id}`, { token: kiln.root.token })).status).toBe(204);
    expect((await kiln.api('GET', '/user', { headers: { authorization: `Bearer ${token.body.access_token}` } })).status).toBe(401);
    const missing = await kiln.api('DELETE', `/applications/${created.id}`, { token: kiln.root.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Application Not Found' });
  });
});
