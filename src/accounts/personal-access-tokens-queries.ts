// The token look-up every API request makes (personal-access-tokens.ts), through the row cache.
import { q, type Statement } from '../platform/db/statements.js';
import type { CachedTable } from '../platform/db/reads.js';

export const TOKEN_TABLES: readonly CachedTable[] = ['personal_access_tokens', 'users'];

/** The token of this digest with what a request needs of its user (TokenRow): every column of a wide row costs its conversion. */
export function tokenWithUser(digest: string): Statement {
  return q`select u.id, u.username, u.name, u.state, u.admin, u.otp_required, u.last_activity_on, t.id as token_id, t.scopes, t.expires_at, t.revoked, t.last_used_at
      from personal_access_tokens t join users u on u.id = t.user_id
      where t.token_digest = ${digest}`;
}
