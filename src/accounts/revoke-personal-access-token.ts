// Revoke a personal access token: it stops working at once (checked on every request).
import type { Deps } from '../platform/deps.js';

export async function revokePersonalAccessToken(deps: Deps, tokenId: number): Promise<void> {
  await deps.db.updateTable('personal_access_tokens').set({ revoked: 1 }).where('id', '=', tokenId).execute();
}
