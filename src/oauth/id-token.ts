// OpenID Connect id_token (OIDC Core §2, §3.1.3.6) signed RS256 with the instance signing key, and
// the JWKS that publishes its public half (GitLab's OAuth documentation).
import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { cacheSlot } from '../platform/instance-caches.js';
import type { UserRow } from '../accounts/api.js';
import { userClaims } from './claims.js';

// The app's signing key, parsed once per secrets object.
const KEYS = cacheSlot('oauth.signing-keys', () => ({ secrets: undefined as object | undefined, keys: undefined as { privateKey: KeyObject; jwk: Record<string, string> } | undefined }));

function keys(deps: Deps) {
  const slot = deps.caches.of(KEYS);
  let cached = slot.secrets === deps.secrets ? slot.keys : undefined;
  if (!cached) {
    const privateKey = createPrivateKey(deps.secrets.signingKeyPem);
    const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' }) as { kty: string; n: string; e: string };
    // RFC 7638 thumbprint as the key id: stable for a given key.
    const thumbprint = createHash('sha256').update(JSON.stringify({ e: publicJwk.e, kty: publicJwk.kty, n: publicJwk.n })).digest('base64url');
    cached = { privateKey, jwk: { kty: publicJwk.kty, kid: thumbprint, e: publicJwk.e, n: publicJwk.n, use: 'sig', alg: 'RS256' } };
    slot.secrets = deps.secrets;
    slot.keys = cached;
  }
  return cached;
}

export function jwks(deps: Deps) {
  return { keys: [keys(deps).jwk] };
}

export interface IdTokenInput {
  user: UserRow;
  clientId: string;
  scopes: string[];
  nonce: string | null;
  authTime: number;
  /** The `groups_direct` claim (finder.ts directGroupPaths): GitLab puts it in the ID token only, not in userinfo. */
  groupsDirect: string[];
}

export function signIdToken(deps: Deps, input: IdTokenInput): string {
  const { privateKey, jwk } = keys(deps);
  const now = Math.floor(deps.clock.now() / 1000);
  const header = { typ: 'JWT', kid: jwk.kid, alg: 'RS256' };
  const payload = {
    iss: deps.config.baseUrl,
    sub: String(input.user.id),
    aud: input.clientId,
    exp: now + 120,
    iat: now,
    auth_time: Math.floor(input.authTime / 1000),
    ...(input.nonce ? { nonce: input.nonce } : {}),
    ...userClaims(deps, input.user, input.scopes),
    groups_direct: input.groupsDirect,
  };
  const signingInput = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  const signature = sign('sha256', Buffer.from(signingInput), privateKey).toString('base64url');
  return `${signingInput}.${signature}`;
}
