// Revoking tokens in bulk: everything a code issued (code reuse, RFC 6749 §4.1.2) and a whole refresh
// family (refresh-token reuse, RFC 9700 §4.14.2). Revoking a row kills its access and refresh token.
import type { Deps } from '../platform/deps.js';

export async function revokeGrantTokens(deps: Deps, grantId: number): Promise<void> {
  await deps.db.updateTable('oauth_access_tokens').set({ revoked_at: deps.clock.now() }).where('grant_id', '=', grantId).where('revoked_at', 'is', null).execute();
}

export async function revokeFamily(deps: Deps, familyId: string): Promise<void> {
  await deps.db.updateTable('oauth_access_tokens').set({ revoked_at: deps.clock.now() }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
}

/** "Authorized applications" revoke: every live token the user granted the application. */
export async function revokeUserApplicationTokens(deps: Deps, userId: number, applicationId: number): Promise<void> {
  await deps.db
    .updateTable('oauth_access_tokens')
    .set({ revoked_at: deps.clock.now() })
    .where('user_id', '=', userId)
    .where('application_id', '=', applicationId)
    .where('revoked_at', 'is', null)
    .execute();
}
