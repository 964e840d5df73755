// PKCE rules (RFC 7636; docs/decisions.md "PKCE"): S256 only, verifier 43–128 characters of the
// unreserved alphabet, compared in constant time.
import { createHash } from 'node:crypto';
import { safeEqual } from '../platform/crypto.js';

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** base64url(SHA-256) without padding is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export function isValidVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export type ChallengeCheck = { ok: true; challenge: string | null } | { ok: false; description: string };

/**
 * The authorization request's PKCE parameters. `plain`, a missing method with a challenge, or a
 * malformed challenge are `invalid_request` (RFC 7636 §4.4.1; RFC 9700 §2.1.1 and ASVS 10.4.6 refuse plain).
 */
export function checkChallenge(challenge: string | undefined, method: string | undefined, required: boolean): ChallengeCheck {
  if (!challenge) {
    if (method) return { ok: false, description: 'code_challenge_method was sent without a code_challenge.' };
    if (required) return { ok: false, description: 'PKCE (code_challenge with code_challenge_method S256) is required for this application.' };
    return { ok: true, challenge: null };
  }
  if (method !== 'S256') return { ok: false, description: 'Only code_challenge_method S256 is supported.' };
  if (!S256_CHALLENGE.test(challenge)) return { ok: false, description: 'code_challenge must be the 43-character base64url SHA-256 of the code verifier.' };
  return { ok: true, challenge };
}

/**
 * The token request's verifier against what the code stored (RFC 7636 §4.6, RFC 9700 §2.1.1):
 * a challenge needs a matching well-formed verifier; a verifier without a challenge is a downgrade.
 */
export function verifierMatches(storedChallenge: string | null, verifier: string | undefined): boolean {
  if (storedChallenge === null) return verifier === undefined || verifier === '';
  if (!verifier || !isValidVerifier(verifier)) return false;
  return safeEqual(s256Challenge(verifier), storedChallenge);
}
