// The token look-up every API request makes (personal-access-tokens.ts), read through the read cache.
import { q, type Statement } from '../platform/db/statements.js';

/** The token of this digest with its user's row. */
export function tokenWithUser(digest: string): Statement {
  return q`select u.*, t.id as token_id, t.scopes, t.expires_at, t.revoked, t.last_used_at
      from personal_access_tokens t join users u on u.id = t.user_id
      where t.token_digest = ${digest}`;
}
