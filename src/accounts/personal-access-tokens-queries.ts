// The token look-up every API request makes (personal-access-tokens.ts), through the row cache.
import { q, type Statement } from '../platform/db/statements.js';
import type { CachedTable } from '../platform/db/reads.js';

// `emails`: the primary address's confirmation (unconfirmed-tokens.ts); confirming it makes the look-up stale.
export const TOKEN_TABLES: readonly CachedTable[] = ['personal_access_tokens', 'users', 'emails'];

/** The token of this digest with what a request needs of its user (TokenRow): every column of a wide row costs its conversion. */
export function tokenWithUser(digest: string): Statement {
  return q`select u.id, u.username, u.name, u.state, u.admin, u.otp_required, u.last_activity_on, u.created_at,
        case when e.id is not null and e.confirmed_at is null then 1 else 0 end as address_unconfirmed,
        t.id as token_id, t.scopes, t.expires_at, t.revoked, t.last_used_at
      from personal_access_tokens t join users u on u.id = t.user_id
        left join emails e on e.user_id = u.id and e.email_lower = u.email_lower
      where t.token_digest = ${digest}`;
}
