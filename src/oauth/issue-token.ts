// Issuing an access token (and its refresh token) inside the caller's transaction. Tokens are 32
// random bytes as 64 hex characters, like GitLab's Doorkeeper generator (RFC 6749 §10.10 entropy).
import { randomBytes } from 'node:crypto';
import type { Executor } from '../platform/db/database.js';
import type { Deps } from '../platform/deps.js';
import { sha256Hex } from '../platform/crypto.js';

export function newSecret(): string {
  return randomBytes(32).toString('hex');
}

export interface IssueInput {
  applicationId: number | null;
  userId: number;
  scopes: string[];
  withRefresh: boolean;
  familyId?: string;
  grantId?: number | null;
  previousRefreshDigest?: string | null;
}

export interface IssuedToken {
  id: number;
  accessToken: string;
  refreshToken: string | null;
  scopes: string[];
  expiresIn: number;
  createdAt: number;
}

export async function issueToken(deps: Deps, trx: Executor, input: IssueInput): Promise<IssuedToken> {
  const accessToken = newSecret();
  const refreshToken = input.withRefresh ? newSecret() : null;
  const createdAt = deps.clock.now();
  const expiresIn = deps.config.accessTokenLifetimeSeconds;
  const row = await trx
    .insertInto('oauth_access_tokens')
    .values({
      application_id: input.applicationId,
      user_id: input.userId,
      token_digest: sha256Hex(accessToken),
      refresh_digest: refreshToken ? sha256Hex(refreshToken) : null,
      previous_refresh_digest: input.previousRefreshDigest ?? null,
      scopes: input.scopes.join(' '),
      expires_in: expiresIn,
      family_id: input.familyId ?? randomBytes(16).toString('hex'),
      grant_id: input.grantId ?? null,
      rotated_at: null,
      revoked_at: null,
      created_at: createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), accessToken, refreshToken, scopes: input.scopes, expiresIn, createdAt };
}

/**
 * The token response body (spec "Access token response"; docs/decisions.md): `token_type` `bearer`, `scope`
 * as a space-separated string, `created_at` in Unix seconds, `refresh_token` only when issued.
 */
export function tokenResponse(token: IssuedToken, extra: Record<string, unknown> = {}) {
  return {
    access_token: token.accessToken,
    token_type: 'bearer',
    expires_in: token.expiresIn,
    ...(token.refreshToken ? { refresh_token: token.refreshToken } : {}),
    scope: token.scopes.join(' '),
    created_at: Math.floor(token.createdAt / 1000),
    ...extra,
  };
}
