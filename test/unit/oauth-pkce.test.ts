import { describe, expect, it } from 'vitest';
import { checkChallenge, isValidVerifier, s256Challenge, verifierMatches } from '../../src/oauth/pkce.js';

// RFC 7636 Appendix B example.
const RFC_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const RFC_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('PKCE verifier format', () => {
  it.each([
    ['43 unreserved characters', 'a'.repeat(43), true],
    ['128 characters', 'A'.repeat(128), true],
    ['all allowed symbols', `${'a'.repeat(39)}-._~`, true],
    ['42 characters', 'a'.repeat(42), false],
    ['129 characters', 'a'.repeat(129), false],
    ['a space', `${'a'.repeat(42)} `, false],
    ['a plus', `${'a'.repeat(42)}+`, false],
    ['a slash', `${'a'.repeat(42)}/`, false],
    ['non-ASCII', `${'a'.repeat(42)}é`, false],
  ])('%s → %s', (_name, verifier, valid) => {
    expect(isValidVerifier(verifier)).toBe(valid);
  });
});

describe('S256', () => {
  it('matches RFC 7636 Appendix B', () => {
    expect(s256Challenge(RFC_VERIFIER)).toBe(RFC_CHALLENGE);
  });
});

describe('authorization request challenge rules', () => {
  it.each([
    ['no PKCE, optional', undefined, undefined, false, true],
    ['no PKCE, required (public client)', undefined, undefined, true, false],
    ['S256 with a 43-character challenge', RFC_CHALLENGE, 'S256', false, true],
    ['plain', RFC_CHALLENGE, 'plain', false, false],
    ['method missing', RFC_CHALLENGE, undefined, false, false],
    ['lower-case s256', RFC_CHALLENGE, 's256', false, false],
    ['method without challenge', undefined, 'S256', false, false],
    ['a 42-character challenge', RFC_CHALLENGE.slice(1), 'S256', false, false],
    ['a padded challenge', `${RFC_CHALLENGE.slice(0, 42)}=`, 'S256', false, false],
  ])('%s', (_name, challenge, method, required, ok) => {
    expect(checkChallenge(challenge, method, required).ok).toBe(ok);
  });
});

describe('token request verifier rules', () => {
  it.each([
    ['matching verifier', RFC_CHALLENGE, RFC_VERIFIER, true],
    ['wrong verifier', RFC_CHALLENGE, 'x'.repeat(43), false],
    ['missing verifier with a challenge', RFC_CHALLENGE, undefined, false],
    ['malformed verifier', RFC_CHALLENGE, 'short', false],
    ['verifier without a stored challenge (downgrade)', null, RFC_VERIFIER, false],
    ['neither', null, undefined, true],
  ])('%s', (_name, stored, verifier, ok) => {
    expect(verifierMatches(stored, verifier)).toBe(ok);
  });
});
