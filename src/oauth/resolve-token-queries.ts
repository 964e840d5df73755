// The OAuth token look-up every OAuth-authenticated request makes (resolve-token.ts), through the
// row cache.
import { q, type Statement } from '../platform/db/statements.js';
import type { CachedTable } from '../platform/db/reads.js';

/** The access token of this digest with its user's row and its application's uid. */
/** What accessTokenWithUser reads (the row cache, platform/db/reads.ts). */
export const ACCESS_TOKEN_TABLES: readonly CachedTable[] = ['oauth_access_tokens', 'users', 'emails', 'oauth_applications'];

export function accessTokenWithUser(digest: string): Statement {
  return q`select u.*, case when e.id is not null and e.confirmed_at is null then 1 else 0 end as address_unconfirmed, t.id as token_id, t.application_id, t.scopes, t.expires_in, t.revoked_at, t.created_at as token_created_at, a.uid as application_uid
      from oauth_access_tokens t
      join users u on u.id = t.user_id
      left join emails e on e.user_id = u.id and e.email_lower = u.email_lower
      left join oauth_applications a on a.id = t.application_id
      where t.token_digest = ${digest}`;
}
