// Looking an OAuth access token up by digest, for the REST API (registered in the Feature's setup),
// token info, userinfo and introspection. GitLab's order: expired, then revoked (GitLab's OAuth documentation).
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { UsersTable } from '../platform/db/tables/accounts.js';
import type { TokenLookup } from '../platform/auth/principal.js';
import { sha256Hex } from '../platform/crypto.js';
import { noteActivity, toAuthUser, unconfirmedRefusal } from '../accounts/api.js';
import { splitScopes } from './scopes.js';
import { ACCESS_TOKEN_TABLES, accessTokenWithUser } from './resolve-token-queries.js';

type UserRow = Selectable<UsersTable>;

export interface AccessTokenRow extends UserRow {
  token_id: number;
  application_id: number | null;
  scopes: string;
  expires_in: number | null;
  revoked_at: number | null;
  token_created_at: number;
  application_uid: string | null;
  /** 1 when the user's primary address is recorded unconfirmed (accounts' unconfirmed-tokens.ts). */
  address_unconfirmed: number;
}

/** Every OAuth-authenticated request starts here: a look-up of the row cache (platform/db/README.md). */
export async function findAccessToken(deps: Deps, token: string): Promise<AccessTokenRow | undefined> {
  const rows = await deps.reads.cached<AccessTokenRow>(accessTokenWithUser(sha256Hex(token)), ACCESS_TOKEN_TABLES);
  return rows[0];
}

export function expiresAt(row: Pick<AccessTokenRow, 'expires_in' | 'token_created_at'>): number | null {
  return row.expires_in === null ? null : Number(row.token_created_at) + Number(row.expires_in) * 1000;
}

export function tokenState(row: AccessTokenRow, now: number): 'ok' | 'expired' | 'revoked' {
  const expiry = expiresAt(row);
  if (expiry !== null && expiry <= now) return 'expired';
  if (row.revoked_at !== null) return 'revoked';
  return 'ok';
}

/** The API's resolver: blocked users come back as principals so the API answers its own 403 for them. */
export async function resolveOAuthToken(deps: Deps, token: string): Promise<TokenLookup> {
  const row = await findAccessToken(deps, token);
  if (!row) return null;
  const state = tokenState(row, deps.clock.now());
  if (state !== 'ok') return { status: state };
  // An account kept out for its unconfirmed address: the API's 403, git's challenge.
  const refused = await unconfirmedRefusal(deps, row, deps.clock.now());
  if (refused) return refused;
  // The day the user was last seen (GET /user/activities), as a personal access token's use records it.
  await noteActivity(deps, row, deps.clock.now());
  return { status: 'ok', principal: { user: toAuthUser(row), scopes: splitScopes(row.scopes), via: 'oauth', tokenId: Number(row.token_id) } };
}

/** A usable token for OAuth's own endpoints: live, of an active user. */
export async function liveAccessToken(deps: Deps, token: string | undefined): Promise<AccessTokenRow | null> {
  if (!token) return null;
  const row = await findAccessToken(deps, token);
  if (!row || tokenState(row, deps.clock.now()) !== 'ok' || row.state !== 'active') return null;
  return row;
}
