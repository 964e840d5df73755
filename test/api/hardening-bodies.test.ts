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
    it('refuses 1 MiB of nested JSON with 413 unread', async () => {
      const parsedLarge = watchParse();
      const response = await postRaw('/api/v4/projects', nested(MiB - 2));
      expect(response.status).toBe(413);
      expect(parsedLarge()).toBe(false);
    });
  });

  describe('with a token that is not valid', () => {
    it('refuses 1 MiB of nested JSON with 400 before parsing it', async () => {
      const parsedLarge = watchParse();
      const response = await postRaw('/api/v4/projects', nested(MiB - 2), { 'private-token': 'not-a-token' });
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
    const response = await postRaw('/alice/shop/-/settings/operations', JSON.stringify({ blob: 'x'.repeat(2 * MiB) }), { 'private-token': alice.token });
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

describe('bodies from callers without credentials, on every path', () => {
  const big = 'x'.repeat(100 * 1024);
  const multipart = (value: string) => `--X\r\nContent-Disposition: form-data; name="description"\r\n\r\n${value}\r\n--X--\r\n`;
  const bodies: Array<[string, string, string]> = [
    ['JSON', 'application/json', JSON.stringify({ name: 'p', description: big })],
    ['a form', 'application/x-www-form-urlencoded; charset=utf-8', `name=p&description=${big}`],
    ['multipart', 'multipart/form-data; boundary=X', multipart(big)],
  ];

  describe.each(bodies)('%s over 64 KiB', (_kind, type, payload) => {
    it.each(['/api/v4/projects', '/api/v4/projects/1/issues', '/alice/shop/-/issues', '/alice/shop/-/settings/operations'])('is refused with 413 on %s', async (url) => {
      const response = await kiln.app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({ message: '413 Request Entity Too Large' });
    });

    it('is read when the request carries credentials (then judged by them)', async () => {
      const withToken = await kiln.app.inject({ method: 'POST', url: '/api/v4/projects', headers: { 'content-type': type, 'private-token': alice.token }, payload });
      expect([201, 400]).toContain(withToken.statusCode);
      const withBadToken = await kiln.app.inject({ method: 'POST', url: '/api/v4/projects', headers: { 'content-type': type, authorization: 'Bearer nothing' }, payload });
      expect(withBadToken.statusCode).toBe(401);
    });
  });

  it("counts an anonymous visitor's session cookie as no credentials", async () => {
    const response = await kiln.app.inject({ method: 'POST', url: '/api/v4/projects', headers: { 'content-type': 'application/json', cookie: '_kiln_session=anon.abc' }, payload: bodies[0][2] });
    expect(response.statusCode).toBe(413);
  });
});

describe('parameters over Rack\'s limits', () => {
  it('answers the issue\'s reproduction (13,000 `a[]=` on the sign-in form) with 400 naming the problem', async () => {
    const response = await kiln.app.inject({ method: 'POST', url: '/users/sign_in', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a[]=&'.repeat(13_000) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: '400 Bad request - too many parameters (the limit is 4096)' });
  });

  it('refuses a query string of more than 4,096 parameters, or one nested deeper than 32 levels, with 400', async () => {
    const many = await kiln.app.inject({ method: 'GET', url: `/api/v4/projects?${'a=1&'.repeat(4097)}` });
    expect(many.statusCode).toBe(400);
    expect(many.json().message).toMatch(/too many parameters/);
    const deep = await kiln.app.inject({ method: 'GET', url: `/api/v4/projects?a${'[b]'.repeat(33)}=1` });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().message).toMatch(/nested deeper than 32 levels/);
  });

  it('refuses a NUL byte in a query or form parameter with 400 naming it', async () => {
    const query = await kiln.app.inject({ method: 'GET', url: '/api/v4/projects?search=a%00b', headers: { 'private-token': alice.token } });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toEqual({ message: '400 Bad request - parameter "search" contains a null byte' });
    const form = await kiln.app.inject({ method: 'POST', url: '/api/v4/projects', headers: { 'content-type': 'application/x-www-form-urlencoded', 'private-token': alice.token }, payload: 'name=a%00b' });
    expect(form.statusCode).toBe(400);
  });
});

describe('POST /projects/:id/repository/commits with a form body', () => {
  it('takes `actions[][…]` as Rails builds it: an array of hashes', async () => {
    const project = await kiln.createProject(alice, 'formed', { initialize_with_readme: true } as never);
    const form = new URLSearchParams([
      ['branch', 'main'],
      ['commit_message', 'Two files'],
      ['actions[][action]', 'create'],
      ['actions[][file_path]', 'a.txt'],
      ['actions[][content]', 'A'],
      ['actions[][action]', 'create'],
      ['actions[][file_path]', 'b.txt'],
      ['actions[][content]', 'B'],
    ]).toString();
    const response = await kiln.app.inject({ method: 'POST', url: `/api/v4/projects/${project.id}/repository/commits`, headers: { 'content-type': 'application/x-www-form-urlencoded', 'private-token': alice.token }, payload: form });
    expect(response.statusCode).toBe(201);
    const tree = await kiln.api('GET', `/projects/${project.id}/repository/tree`, { token: alice.token });
    expect(tree.body.map((entry: { name: string }) => entry.name).sort()).toEqual(['README.md', 'a.txt', 'b.txt']);
  });
});
