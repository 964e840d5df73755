// Issuing an access token (and its refresh token): in the caller's transaction (a builder transaction
// or a group-commit work, either as a `Tx`), or alone. Tokens are 32 random bytes as 64 hex
// characters, like GitLab's Doorkeeper generator (RFC 6749 §10.10 entropy).
import { randomBytes } from 'node:crypto';
import type { Tx } from '../platform/db/statements.js';
import type { Deps } from '../platform/deps.js';
import { sha256Hex } from '../platform/crypto.js';
import { insertAccessToken } from './token-queries.js';

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

/** The secrets of a new token, and the statement that stores their digests. */
function newToken(deps: Deps, input: IssueInput) {
  const accessToken = newSecret();
  const refreshToken = input.withRefresh ? newSecret() : null;
  const createdAt = deps.clock.now();
  const expiresIn = deps.config.accessTokenLifetimeSeconds;
  const statement = insertAccessToken({
    application_id: input.applicationId,
    user_id: input.userId,
    token_digest: sha256Hex(accessToken),
    refresh_digest: refreshToken ? sha256Hex(refreshToken) : null,
    previous_refresh_digest: input.previousRefreshDigest ?? null,
    scopes: input.scopes.join(' '),
    expires_in: expiresIn,
    family_id: input.familyId ?? randomBytes(16).toString('hex'),
    grant_id: input.grantId ?? null,
    created_at: createdAt,
  });
  const issued = (id: number | string): IssuedToken => ({ id: Number(id), accessToken, refreshToken, scopes: input.scopes, expiresIn, createdAt });
  return { statement, issued };
}

/** A token issued in the caller's transaction. */
export async function issueToken(deps: Deps, tx: Tx, input: IssueInput): Promise<IssuedToken> {
  const { statement, issued } = newToken(deps, input);
  const [row] = await tx.all<{ id: number | string }>(statement);
  return issued(row.id);
}

/** A token issued on its own (one row: no transaction needed). */
export async function issueTokenAlone(deps: Deps, input: IssueInput): Promise<IssuedToken> {
  const { statement, issued } = newToken(deps, input);
  const { rows } = await deps.groupCommit.write<{ id: number | string }>(statement);
  return issued(rows[0].id);
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
