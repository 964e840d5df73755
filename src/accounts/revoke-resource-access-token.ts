// DELETE /projects/:id/access_tokens/:token_id (GitLab's ResourceAccessTokens::RevokeService since
// 17.9): the token stops working, and only that. Its bot stays a member with its role: the membership
// is what ties the token to the project or group, so the token stays listed there as inactive
// (`state=inactive`) until the bot is deleted (prune-token-bots.ts, 30 days after its last token
// became inactive). The bot has no other credential, so it can do nothing more; the project's or
// group's deletion takes it too. Revoking a revoked token again changes nothing.
import type { Deps } from '../platform/deps.js';
import { NotFoundError } from '../platform/errors.js';
import type { MemberSource } from './member-source.js';
import { findResourceToken } from './resource-access-tokens-finder.js';
import { revokePersonalAccessToken } from './revoke-personal-access-token.js';

export async function revokeResourceAccessToken(deps: Deps, source: MemberSource, tokenId: number): Promise<void> {
  const row = await findResourceToken(deps, source, tokenId);
  if (!row) throw new NotFoundError();
  await revokePersonalAccessToken(deps, tokenId);
}
