// Revoke a personal access token (a project's or group's too: its bot's): it stops working at once
// (checked on every request) and is listed as inactive from then on. The first revocation's time is
// kept: the retention of an access token bot counts from it (prune-token-bots.ts).
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';

export async function revokePersonalAccessToken(deps: Deps, tokenId: number, executor: Executor = deps.db): Promise<boolean> {
  const revoked = await executor.updateTable('personal_access_tokens').set({ revoked: 1, revoked_at: deps.clock.now() }).where('id', '=', tokenId).where('revoked', '=', 0).executeTakeFirst();
  return Number(revoked.numUpdatedRows) > 0;
}
