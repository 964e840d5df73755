// RFC 7009 revocation of one token by whoever presents it. Unknown tokens are not an error (no
// existence oracle); a confidential application's token can be revoked only by that application
// (Doorkeeper 5.5, docs/decisions.md "revocation by another client").
import type { Deps } from '../platform/deps.js';
import { sha256Hex } from '../platform/crypto.js';
import { OAuthError } from './errors.js';
import type { ApplicationRow } from './client-auth.js';

export type TokenTypeHint = 'access_token' | 'refresh_token';

async function findForRevocation(deps: Deps, token: string, hint: TokenTypeHint | undefined) {
  const digest = sha256Hex(token);
  const byAccess = () => deps.db.selectFrom('oauth_access_tokens').select(['id', 'application_id']).where('token_digest', '=', digest).executeTakeFirst();
  const byRefresh = () => deps.db.selectFrom('oauth_access_tokens').select(['id', 'application_id']).where('refresh_digest', '=', digest).executeTakeFirst();
  // The hint orders the search; the other kind is still tried (RFC 7009 §2.1).
  return hint === 'refresh_token' ? ((await byRefresh()) ?? (await byAccess())) : ((await byAccess()) ?? (await byRefresh()));
}

/** Revokes the token (its access and refresh token alike); `client` is the authenticated caller, if any. */
export async function revokeToken(deps: Deps, token: string, hint: TokenTypeHint | undefined, client: ApplicationRow | null): Promise<void> {
  const row = await findForRevocation(deps, token, hint);
  if (!row) return;
  if (row.application_id !== null) {
    const owner = await deps.db.selectFrom('oauth_applications').select(['id', 'confidential']).where('id', '=', row.application_id).executeTakeFirst();
    if (owner?.confidential === 1 && (!client || Number(client.id) !== Number(owner.id))) {
      throw new OAuthError('unauthorized_client', 'You are not authorized to revoke this token', 403);
    }
  }
  await deps.db.updateTable('oauth_access_tokens').set({ revoked_at: deps.clock.now() }).where('id', '=', row.id).where('revoked_at', 'is', null).execute();
}
