// CI secrets: runner authentication tokens (`glrt-…` for runners created with POST /user/runners,
// random ones from a legacy registration), registration tokens and job tokens. Only SHA-256 digests
// are stored; a token is shown once, when it is made.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../platform/crypto.js';

export const tokenDigest = sha256Hex;

/** 20 characters of [a-zA-Z0-9_-] after the prefix, as GitLab's tokens. */
export function newToken(prefix = ''): string {
  return `${prefix}${randomBytes(15).toString('base64url')}`;
}

/** A credential from the request: the body or query `token`, else the named header. */
export function presentedToken(input: Record<string, unknown>, headers: Record<string, unknown>, header: string, param = 'token'): string | null {
  const fromBody = input[param];
  if (typeof fromBody === 'string' && fromBody !== '') return fromBody;
  const fromHeader = headers[header];
  return typeof fromHeader === 'string' && fromHeader !== '' ? fromHeader : null;
}
