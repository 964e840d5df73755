// The writes of issuing and rotating OAuth tokens as raw statements, so the refresh grant (the token
// endpoint's hot path: every client refreshes every two hours) can run as a group-commit work
// (platform/db/group-commit.ts), the authorization-code grant in its builder transaction (both as a
// `Tx`), and a token issued alone as one group-commit write (issue-token.ts).
import { q, type Statement } from '../platform/db/statements.js';
import type { OauthAccessTokensTable } from '../platform/db/tables/oauth.js';

/** A new token's columns: a live token is neither rotated nor revoked. */
export type AccessTokenRow = Omit<OauthAccessTokensTable, 'id' | 'rotated_at' | 'revoked_at'>;

/** A new live token row; returns its `id`. */
export function insertAccessToken(row: AccessTokenRow): Statement {
  return q`insert into oauth_access_tokens (application_id, user_id, token_digest, refresh_digest, previous_refresh_digest, scopes, expires_in, family_id, grant_id, rotated_at, revoked_at, created_at)
    values (${row.application_id}, ${row.user_id}, ${row.token_digest}, ${row.refresh_digest}, ${row.previous_refresh_digest}, ${row.scopes}, ${row.expires_in}, ${row.family_id}, ${row.grant_id}, null, null, ${row.created_at})
    returning id`;
}

/**
 * Marks the token `id` rotated and revoked, only if it is neither yet: returns its `id` when this call
 * rotated it, no row when another exchange of the same refresh token got there first.
 */
export function rotateAccessToken(id: number, now: number): Statement {
  return q`update oauth_access_tokens set rotated_at = ${now}, revoked_at = ${now}
    where id = ${id} and rotated_at is null and revoked_at is null
    returning id`;
}
