// Authentication, scopes, Sudo and blocked users (GitLab's REST API documentation).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { createPersonalAccessToken } from '../../src/accounts/personal-access-tokens.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;

async function tokenFor(user: TestUser, scopes: string[], expiresAt?: string): Promise<string> {
  const { token } = await createPersonalAccessToken(kiln.deps, { userId: user.id, name: `t-${scopes.join('-')}`, scopes, expiresAt });
  return token;
}

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
});
afterAll(() => kiln.close());

const INSUFFICIENT = 'The request requires higher privileges than provided by the access token.';

describe('GET /api/v4/user', () => {
  describe('without credentials', () => {
    it('answers 401 {"message":"401 Unauthorized"} with no WWW-Authenticate', async () => {
      const { status, body, headers } = await kiln.api('GET', '/user');
      expect(status).toBe(401);
      expect(body).toEqual({ message: '401 Unauthorized' });
      expect(headers['www-authenticate']).toBeUndefined();
      expect(headers['content-type']).toBe('application/json');
    });
  });

  describe('with a token sent each way a client sends it', () => {
    it('accepts the PRIVATE-TOKEN header', async () => {
      const { status, body } = await kiln.api('GET', '/user', { headers: { 'PRIVATE-TOKEN': alice.token } });
      expect(status).toBe(200);
      expect(body.username).toBe('alice');
    });

    it('accepts the private_token query parameter', async () => {
      const { status, body } = await kiln.api('GET', `/user?private_token=${alice.token}`);
      expect(status).toBe(200);
      expect(body.username).toBe('alice');
    });

    it('accepts a personal access token as Authorization: Bearer', async () => {
      const { status, body } = await kiln.api('GET', '/user', { headers: { authorization: `Bearer ${alice.token}` } });
      expect(status).toBe(200);
      expect(body.username).toBe('alice');
    });

    it('accepts the access_token query parameter', async () => {
      const { status, body } = await kiln.api('GET', `/user?access_token=${bob.token}`);
      expect(status).toBe(200);
      expect(body.username).toBe('bob');
    });

    it('accepts private_token in a form body', async () => {
      const { status, body } = await kiln.api('POST', '/projects', { form: { private_token: alice.token, name: 'form-token' } });
      expect(status).toBe(201);
      expect(body.path_with_namespace).toBe('alice/form-token');
    });
  });

  describe('with an unknown token', () => {
    for (const [how, options] of [
      ['PRIVATE-TOKEN', { headers: { 'private-token': 'glpat-unknown' } }],
      ['Bearer', { headers: { authorization: 'Bearer glpat-unknown' } }],
    ] as const) {
      it(`answers 401 {"message":"401 Unauthorized"} (${how})`, async () => {
        const { status, body } = await kiln.api('GET', '/user', options);
        expect(status).toBe(401);
        expect(body).toEqual({ message: '401 Unauthorized' });
      });
    }
  });

  describe('with an expired token', () => {
    it('answers 401 invalid_token with the RFC 6750 header', async () => {
      const token = await tokenFor(alice, ['api'], '2026-11-23');
      expect((await kiln.api('GET', '/user', { token })).status).toBe(200);
      kiln.clock.advance(3 * 24 * 3600_000);
      try {
        const { status, body, headers } = await kiln.api('GET', '/user', { token });
        const description = 'Token is expired. You can either do re-authorization or token refresh.';
        expect(status).toBe(401);
        expect(body).toEqual({ error: 'invalid_token', error_description: description });
        expect(headers['www-authenticate']).toBe(`Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="${description}"`);
      } finally {
        kiln.clock.advance(-3 * 24 * 3600_000);
      }
    });
  });

  describe('with a revoked token', () => {
    it('answers 401 invalid_token "Token was revoked…"', async () => {
      const token = await tokenFor(alice, ['api']);
      const self = await kiln.api('GET', '/personal_access_tokens/self', { token });
      expect((await kiln.api('DELETE', `/personal_access_tokens/${self.body.id}`, { token: alice.token })).status).toBe(204);
      const { status, body, headers } = await kiln.api('GET', '/user', { token });
      expect(status).toBe(401);
      expect(body).toEqual({ error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' });
      expect(headers['www-authenticate']).toContain('error="invalid_token"');
    });
  });

  describe('with a read_user token', () => {
    it('answers 200: /user admits read_user', async () => {
      const token = await tokenFor(alice, ['read_user']);
      expect((await kiln.api('GET', '/user', { token })).status).toBe(200);
    });
  });

  describe('with a token of an unrelated scope', () => {
    it('answers 403 insufficient_scope listing the endpoint scope first', async () => {
      const token = await tokenFor(alice, ['read_repository']);
      const { status, body, headers } = await kiln.api('GET', '/user', { token });
      expect(status).toBe(403);
      expect(body).toEqual({ error: 'insufficient_scope', error_description: INSUFFICIENT, scope: 'read_user api read_api' });
      expect(headers['content-type']).toBe('application/json');
      expect(headers['www-authenticate']).toContain('error="insufficient_scope"');
    });
  });
});

describe('scopes on /api/v4/projects', () => {
  it('GET with a read_api token answers 200', async () => {
    const token = await tokenFor(alice, ['read_api']);
    expect((await kiln.api('GET', '/projects', { token })).status).toBe(200);
  });

  it('HEAD with a read_api token answers 200', async () => {
    const token = await tokenFor(alice, ['read_api']);
    expect((await kiln.request('HEAD', '/api/v4/projects', { token })).statusCode).toBe(200);
  });

  it('POST with a read_api token answers 403 insufficient_scope "api read_api"', async () => {
    const token = await tokenFor(alice, ['read_api']);
    const { status, body } = await kiln.api('POST', '/projects', { token, body: { name: 'nope' } });
    expect(status).toBe(403);
    expect(body).toEqual({ error: 'insufficient_scope', error_description: INSUFFICIENT, scope: 'api read_api' });
  });

  it('GET with a read_user token answers 403: read_user is not admitted on projects', async () => {
    const token = await tokenFor(alice, ['read_user']);
    const { status, body } = await kiln.api('GET', '/projects', { token });
    expect(status).toBe(403);
    expect(body.scope).toBe('api read_api');
  });

  it('DELETE with a read_api token answers 403', async () => {
    const project = await kiln.createProject(alice, 'scoped-delete');
    const token = await tokenFor(alice, ['read_api']);
    expect((await kiln.api('DELETE', `/projects/${project.id}`, { token })).status).toBe(403);
    expect((await kiln.api('GET', `/projects/${project.id}`, { token })).status).toBe(200);
  });
});

describe('Sudo', () => {
  it('as an administrator with the sudo scope, the Sudo header acts as that user (by username)', async () => {
    const { status, body } = await kiln.api('GET', '/user', { token: kiln.root.token, headers: { sudo: 'alice' } });
    expect(status).toBe(200);
    expect(body.username).toBe('alice');
  });

  it('as an administrator, the sudo parameter acts as that user (by id)', async () => {
    const { status, body } = await kiln.api('GET', `/user?sudo=${bob.id}`, { token: kiln.root.token });
    expect(status).toBe(200);
    expect(body.username).toBe('bob');
  });

  it('creates records as the impersonated user', async () => {
    const { status, body } = await kiln.api('POST', '/projects', { token: kiln.root.token, headers: { sudo: 'bob' }, body: { name: 'made-by-sudo' } });
    expect(status).toBe(201);
    expect(body.path_with_namespace).toBe('bob/made-by-sudo');
  });

  it('as a non-administrator answers 403 "Must be admin to use sudo"', async () => {
    const { status, body } = await kiln.api('GET', '/user', { token: alice.token, headers: { sudo: 'bob' } });
    expect(status).toBe(403);
    expect(body).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
  });

  it('as an administrator without the sudo scope answers 403 insufficient_scope "sudo"', async () => {
    const admin = await kiln.createUser('admin2', { admin: true, scopes: ['api'] });
    const { status, body } = await kiln.api('GET', '/user', { token: admin.token, headers: { sudo: 'bob' } });
    expect(status).toBe(403);
    expect(body).toEqual({ error: 'insufficient_scope', error_description: INSUFFICIENT, scope: 'sudo' });
  });

  it('naming an unknown user answers 404 with GitLab\'s sentence', async () => {
    const { status, body } = await kiln.api('GET', '/user', { token: kiln.root.token, headers: { sudo: 'nobody' } });
    expect(status).toBe(404);
    expect(body).toEqual({ message: "404 User with ID or username 'nobody' Not Found" });
  });

  it('without credentials answers 401', async () => {
    const { status, body } = await kiln.api('GET', '/user', { headers: { sudo: 'alice' } });
    expect(status).toBe(401);
    expect(body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('blocked users', () => {
  it('a blocked user\'s token answers 403 "Your account has been blocked." until unblocked', async () => {
    const carol = await kiln.createUser('carol');
    expect((await kiln.api('POST', `/users/${carol.id}/block`, { token: kiln.root.token })).status).toBe(201);
    const { status, body } = await kiln.api('GET', '/user', { token: carol.token });
    expect(status).toBe(403);
    expect(body).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
    expect((await kiln.api('POST', `/users/${carol.id}/unblock`, { token: kiln.root.token })).status).toBe(201);
    expect((await kiln.api('GET', '/user', { token: carol.token })).status).toBe(200);
  });
});
