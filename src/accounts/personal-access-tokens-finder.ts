// Personal access tokens as the API lists and finds them.
import type { Deps } from '../platform/deps.js';
import type { TokenRow } from './token-entities.js';

/** Every token (administrators), or one user's, in creation order. */
export function tokensQuery(deps: Deps, userId: number | undefined) {
  const query = deps.db.selectFrom('personal_access_tokens').selectAll().orderBy('id');
  return userId === undefined ? query : query.where('user_id', '=', userId);
}

export async function findToken(deps: Deps, tokenId: number): Promise<TokenRow | undefined> {
  return deps.db.selectFrom('personal_access_tokens').selectAll().where('id', '=', tokenId).executeTakeFirst();
}
