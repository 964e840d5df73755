// The user (or a trusted application's standing consent) approved: issue a 10-minute single-use code
// bound to client, user, redirect URI, scopes and challenge, or an implicit token without a refresh
// token (RFC 6749 §4.1.2, §4.2.2; docs/decisions.md).
import type { Deps } from '../../platform/deps.js';
import { sha256Hex } from '../../platform/crypto.js';
import { issueTokenAlone, newSecret } from '../issue-token.js';
import { destinationOf, redirectWith, type AuthorizeRequest } from './validate.js';

export const CODE_LIFETIME_MS = 10 * 60_000;

export async function approveAuthorization(deps: Deps, userId: number, request: AuthorizeRequest): Promise<string> {
  const destination = destinationOf(request);
  if (request.responseType === 'token') {
    const token = await issueTokenAlone(deps, { applicationId: Number(request.application.id), userId, scopes: request.scopes, withRefresh: false });
    return redirectWith(destination, { access_token: token.accessToken, token_type: 'bearer', expires_in: token.expiresIn, scope: token.scopes.join(' ') });
  }
  const code = newSecret();
  const now = deps.clock.now();
  await deps.db
    .insertInto('oauth_access_grants')
    .values({
      application_id: request.application.id,
      user_id: userId,
      code_digest: sha256Hex(code),
      redirect_uri: request.redirectUri,
      scopes: request.scopes.join(' '),
      code_challenge: request.codeChallenge,
      code_challenge_method: request.codeChallenge ? 'S256' : null,
      nonce: request.nonce,
      expires_at: now + CODE_LIFETIME_MS,
      revoked_at: null,
      created_at: now,
    })
    .execute();
  return redirectWith(destination, { code });
}
