// POST /projects/:id/access_tokens/:token_id/rotate (GitLab's PersonalAccessTokens::RotateService for
// bots): the token is revoked and a new one with the same name and scopes is made for the same bot,
// expiring on the given day or a week from today. The bot's membership does not expire (GitLab sets
// its expiry to none since 17.9, so that the bot, and with it the token's tie to the project or group,
// outlives the token): a membership given an expiry by an older Kiln loses it here. The revoke is
// conditional, so of two concurrent rotations one fails.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { BadRequestError, NotFoundError } from '../platform/errors.js';
import { today } from './access.js';
import { createPersonalAccessToken } from './create-personal-access-token.js';
import type { MemberSource } from './member-source.js';
import { findResourceToken, type ResourceTokenRow } from './resource-access-tokens-finder.js';
import { RESOURCE_TOKEN_SCOPES } from './create-resource-access-token.js';
import { revokePersonalAccessToken } from './revoke-personal-access-token.js';

const WEEK_MS = 7 * 24 * 3600_000;

export async function rotateResourceAccessToken(deps: Deps, source: MemberSource, tokenId: number, expiresAt: string | undefined): Promise<{ row: ResourceTokenRow; token: string }> {
  const old = await findResourceToken(deps, source, tokenId);
  if (!old) throw new NotFoundError();
  const now = deps.clock.now();
  if (old.revoked === 1) throw new BadRequestError('Token already revoked');
  if (old.expires_at !== null && old.expires_at < today(now)) throw new BadRequestError('Token already expired');
  const expiry = expiresAt ?? today(now + WEEK_MS);
  return inTransaction(deps.db, async (trx) => {
    if (!(await revokePersonalAccessToken(deps, tokenId, trx))) throw new BadRequestError('Token already revoked');
    const { row, token } = await createPersonalAccessToken(
      deps,
      { userId: Number(old.user_id), name: old.name, scopes: old.scopes.split(' '), expiresAt: expiry, availableScopes: RESOURCE_TOKEN_SCOPES },
      undefined,
      trx,
    );
    await trx.updateTable('members').set({ expires_at: null, updated_at: now }).where('user_id', '=', Number(old.user_id)).where('source_type', '=', source.type).where('source_id', '=', source.id).execute();
    return { row: { ...row, access_level: old.access_level }, token };
  });
}
