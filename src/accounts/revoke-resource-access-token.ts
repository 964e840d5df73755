// DELETE /projects/:id/access_tokens/:token_id (GitLab's ResourceAccessTokens::RevokeService): the
// token stops working and its bot leaves the project or group, in one transaction. The bot user stays
// (as the author of what it did).
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { NotFoundError } from '../platform/errors.js';
import type { MemberSource } from './member-source.js';
import { findResourceToken } from './resource-access-tokens-finder.js';

export async function revokeResourceAccessToken(deps: Deps, source: MemberSource, tokenId: number): Promise<void> {
  const row = await findResourceToken(deps, source, tokenId);
  if (!row) throw new NotFoundError();
  await inTransaction(deps.db, async (trx) => {
    await trx.updateTable('personal_access_tokens').set({ revoked: 1 }).where('id', '=', tokenId).execute();
    await trx.deleteFrom('members').where('user_id', '=', Number(row.user_id)).where('source_type', '=', source.type).where('source_id', '=', source.id).execute();
  });
}
