// The personal access token of a request (registered as a token resolver at setup): its user and
// scopes, or why it no longer works. Runs on every API request.
import type { Deps } from '../platform/deps.js';
import type { TokenLookup } from '../platform/auth/principal.js';
import { sha256Hex } from '../platform/crypto.js';
import type { UserRow } from './lookup.js';
import { today } from './access.js';
import { toAuthUser } from './user-entities.js';
import { TOKEN_TABLES, tokenWithUser } from './personal-access-tokens-queries.js';
import { noteActivity } from './record-activity.js';
import { unconfirmedRefusal, type AddressFacts } from './unconfirmed-tokens.js';

// last_used_at is written at most every 10 minutes per token, as GitLab does, to keep reads read-only.
const LAST_USED_INTERVAL_MS = 10 * 60_000;

/** A personal access token's row with the columns of its user a request needs, as the look-ups read it. */
export type TokenRow = Pick<UserRow, 'id' | 'username' | 'name' | 'state' | 'admin' | 'otp_required' | 'last_activity_on'> & AddressFacts & {
  token_id: number;
  scopes: string;
  expires_at: string | null;
  revoked: number;
  last_used_at: number | null;
};

export async function resolvePersonalAccessToken(deps: Deps, token: string): Promise<TokenLookup> {
  // Runs on every API request: a look-up of the row cache (platform/db/README.md).
  const rows = await deps.reads.cached<TokenRow>(tokenWithUser(sha256Hex(token)), TOKEN_TABLES);
  return rows[0] ? tokenLookupOf(deps, rows[0]) : null;
}

/**
 * What a found token allows: refused when revoked or expired or when its user is kept out for an
 * unconfirmed address (unconfirmed-tokens.ts), else its user and scopes (noting
 * when it was last used and the user's activity). Shared with the look-up that reads the route's
 * project with the token (resolve-token-with-project.ts).
 */
export async function tokenLookupOf(deps: Deps, row: TokenRow): Promise<TokenLookup> {
  const now = deps.clock.now();
  if (row.revoked === 1) return { status: 'revoked' };
  if (row.expires_at !== null && row.expires_at < today(now)) return { status: 'expired' };
  const refused = await unconfirmedRefusal(deps, row, now);
  if (refused) return refused;
  if (row.last_used_at === null || now - Number(row.last_used_at) > LAST_USED_INTERVAL_MS) {
    await deps.db.updateTable('personal_access_tokens').set({ last_used_at: now }).where('id', '=', row.token_id).execute();
  }
  // The day the user was last seen (GitLab's last_activity_on, GET /user/activities): once a day.
  await noteActivity(deps, row, now);
  return {
    status: 'ok',
    principal: {
      user: toAuthUser(row),
      scopes: row.scopes.split(' '),
      via: 'personal_access_token',
      tokenId: Number(row.token_id),
    },
  };
}
