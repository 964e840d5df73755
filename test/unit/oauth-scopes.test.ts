import { describe, expect, it } from 'vitest';
import { parseScopes, resolveScopes } from '../../src/oauth/scopes.js';

describe('scope parsing', () => {
  it.each([
    ['api', ['api']],
    ['api read_user', ['api', 'read_user']],
    ['read_user  api', ['read_user', 'api']],
    ['api api', ['api']],
  ])('%s', (raw, scopes) => {
    expect(parseScopes(raw)).toEqual({ ok: true, scopes });
  });

  it.each([[''], ['   '], ['api\tread_user'], ['api\nread_user']])('refuses %j', (raw) => {
    expect(parseScopes(raw).ok).toBe(false);
  });
});

describe('scope resolution against an application', () => {
  it.each([
    ['no scope → default api', undefined, ['api', 'read_user'], ['api']],
    ['no scope, app without api → invalid', undefined, ['read_user'], null],
    ['subset in any order', 'read_user api', ['api', 'read_user'], ['read_user', 'api']],
    ['scope the app lacks', 'sudo', ['api'], null],
    ['case-sensitive', 'API', ['api'], null],
  ])('%s', (_name, requested, allowed, expected) => {
    expect(resolveScopes(requested, allowed)).toEqual(expected);
  });
});
