// Bodies from callers without credentials (issue 13, item 6): the alert endpoint checks the project and
// the key before it parses anything large, and every endpoint open to anonymous callers bounds what it
// reads and parses.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let alice: TestUser;
let notifyPath: string;
let key: string;

const MiB = 1024 * 1024;
/** `[[[…]]]`: cheap to send, slow to parse (each level is a new array). */
const nested = (bytes: number) => '['.repeat(bytes / 2) + ']'.repeat(bytes / 2);

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  const project = await kiln.createProject(alice, 'shop');
  const created = await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: alice.token, body: { name: 'Main' } });
  notifyPath = new URL(created.body.url).pathname;
  key = created.body.token;
});
afterAll(() => kiln.close());
afterEach(() => vi.restoreAllMocks());

/** Spy on JSON.parse; `parsedLarge()` tells whether it was given a text of `min` characters or more. */
function watchParse(min = 64 * 1024) {
  const spy = vi.spyOn(JSON, 'parse');
  return () => spy.mock.calls.some(([text]) => typeof text === 'string' && text.length >= min);
}

async function postRaw(url: string, payload: string, headers: Record<string, string> = {}) {
  const response = await kiln.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload });
  return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : null, headers: response.headers };
}

describe('POST /:full_path/alerts/notify/:name/:endpoint_identifier.json', () => {
  describe('with a wrong key', () => {
    it('refuses 10 MiB of nested JSON with 400 without reading it into a parse', async () => {
      const parsedLarge = watchParse();
      const response = await postRaw(notifyPath, nested(10 * MiB), { authorization: 'Bearer wrong' });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/payload is too big/);
      expect(response.headers.connection).toBe('close');
      expect(parsedLarge()).toBe(false);
    });

    it('refuses 900 KiB of nested JSON with 401, before parsing it', async () => {
      const parsedLarge = watchParse();
      const response = await postRaw(notifyPath, nested(900 * 1024), { authorization: 'Bearer wrong' });
      expect(response.status).toBe(401);
      expect(parsedLarge()).toBe(false);
    });
  });

  describe('for a project that does not exist', () => {
    it('answers 404 to 900 KiB of nested JSON without parsing it', async () => {
      const parsedLarge = watchParse();
      const response = await postRaw(notifyPath.replace(/^\/[^/]+\/shop\//, '/alice/nothing/'), nested(900 * 1024), { authorization: `Bearer ${key}` });
      expect(response.status).toBe(404);
      expect(parsedLarge()).toBe(false);
    });
  });

  describe('with the key', () => {
    it('refuses 900 KiB of nested JSON with the size-and-depth 400, found without JSON.parse', async () => {
      const parsedLarge = watchParse();
      const response = await postRaw(notifyPath, nested(900 * 1024), { authorization: `Bearer ${key}` });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/nested deeper than 100 levels/);
      expect(parsedLarge()).toBe(false);
    });

    it('still accepts a large flat payload under 1 MiB', async () => {
      const response = await postRaw(notifyPath, JSON.stringify({ title: 'Big', description: 'x'.repeat(900 * 1024) }), { authorization: `Bearer ${key}` });
      expect(response.status).toBe(200);
    });
  });
});

describe('POST /api/v4/projects', () => {
  describe('as an anonymous caller', () => {
    it('refuses 1 MiB of nested JSON with 400 before parsing it', async () => {
      const parsedLarge = watchParse();
      const response = await postRaw('/api/v4/projects', nested(MiB - 2));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: '400 Bad request - The request body is nested deeper than 100 levels' });
      expect(parsedLarge()).toBe(false);
    });
  });

  describe('as a user', () => {
    it('accepts JSON nested 100 levels deep in a large body', async () => {
      let value: unknown = 'end';
      for (let level = 0; level < 99; level += 1) value = { v: value };
      const response = await postRaw('/api/v4/projects', JSON.stringify({ name: 'deep', path: 'deep', padding: 'x'.repeat(32 * 1024), extra: value }), { 'private-token': alice.token });
      expect(response.status).toBe(201);
    });
  });
});

describe('POST under a namespaced path (pages and git)', () => {
  it('refuses a JSON body over 1 MiB with 413 although forms there may be larger', async () => {
    const parsedLarge = watchParse();
    const response = await postRaw('/alice/shop/-/settings/operations', JSON.stringify({ blob: 'x'.repeat(2 * MiB) }));
    expect(response.status).toBe(413);
    expect(parsedLarge()).toBe(false);
  });
});

describe.each([
  ['POST /users/sign_in', '/users/sign_in'],
  ['POST /users/sign_in/two_factor', '/users/sign_in/two_factor'],
  ['POST /oauth/token', '/oauth/token'],
  ['POST /oauth/revoke', '/oauth/revoke'],
])('%s', (_name, url) => {
  describe('as an anonymous caller', () => {
    it('refuses a form over 64 KiB with 413', async () => {
      const payload = `grant_type=password&username=alice&password=${'x'.repeat(65 * 1024)}`;
      const response = await kiln.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
      expect(response.statusCode).toBe(413);
    });
  });
});
