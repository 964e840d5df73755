import { describe, expect, it } from 'vitest';
import { matchesRegistered, redirectUriProblem, validateRedirectUris } from '../../src/oauth/redirect-uri.js';

describe('redirect URI registration', () => {
  it.each([
    ['https://app.example/cb', true, null],
    ['http://app.example/cb', true, null],
    ['http://app.example/cb', false, 'must be an HTTPS/SSL URI.'],
    ['http://127.0.0.1/cb', false, null],
    ['myapp://callback', true, null],
    ['urn:ietf:wg:oauth:2.0:oob', true, null],
    ['javascript:alert(1)', true, 'is forbidden by the server.'],
    ['JavaScript:alert(1)', true, 'is forbidden by the server.'],
    ['data:text/html,x', true, 'is forbidden by the server.'],
    ['vbscript:msgbox', true, 'is forbidden by the server.'],
    ['https://app.example/cb#frag', true, 'cannot contain a fragment.'],
    ['/relative/cb', true, 'must be an absolute URI.'],
    ['localhost:3000/cb', true, 'must specify a scheme.'],
  ])('%s (http allowed: %s) → %s', (uri, allowHttp, problem) => {
    expect(redirectUriProblem(uri, allowHttp)).toBe(problem);
  });

  it('splits one URI per line and refuses a blank field', () => {
    expect(validateRedirectUris('https://a.example/cb\r\nhttps://b.example/cb\n', true)).toEqual([]);
    expect(validateRedirectUris('  \n ', true)).toEqual(["can't be blank"]);
  });
});

describe('redirect URI matching', () => {
  const registered = ['https://app.example/cb', 'https://app.example/q?x=1', 'http://127.0.0.1/loop', 'http://localhost:3000/cb', 'myapp://cb'];
  it.each([
    ['exact', 'https://app.example/cb', true],
    ['trailing slash', 'https://app.example/cb/', false],
    ['prefix', 'https://app.example/c', false],
    ['longer path', 'https://app.example/cb/evil', false],
    ['added query', 'https://app.example/cb?x=1', false],
    ['registered query, exact', 'https://app.example/q?x=1', true],
    ['registered query, changed', 'https://app.example/q?x=2', false],
    ['upper-case host', 'https://APP.example/cb', false],
    ['fragment', 'https://app.example/cb#x', false],
    ['other host', 'https://evil.example/cb', false],
    ['userinfo trick', 'https://app.example@evil.example/cb', false],
    ['loopback IP, any port', 'http://127.0.0.1:61234/loop', true],
    ['loopback IP, other path', 'http://127.0.0.1:61234/other', false],
    ['localhost name, other port', 'http://localhost:3001/cb', false],
    ['custom scheme', 'myapp://cb', true],
  ])('%s', (_name, requested, ok) => {
    expect(matchesRegistered(requested, registered)).toBe(ok);
  });
});
