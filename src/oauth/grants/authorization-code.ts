// grant_type=authorization_code (RFC 6749 §4.1.3; docs/security.md): the code is bound to
// client, redirect URI, user, scopes and PKCE challenge, lives 10 minutes, and is consumed by a
// conditional UPDATE so two concurrent exchanges give exactly one token. Reuse revokes what it issued.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import { sha256Hex } from '../../platform/crypto.js';
import { requiredClient } from '../client-auth.js';
import { invalidGrant, missingParameter } from '../errors.js';
import { verifierMatches } from '../pkce.js';
import { splitScopes } from '../scopes.js';
import { issueToken, tokenResponse } from '../issue-token.js';
import { signIdToken } from '../id-token.js';
import { directGroupPaths } from '../finder.js';
import { revokeGrantTokens } from '../revoke-tokens.js';

export async function authorizationCodeGrant(deps: Deps, request: FastifyRequest, params: Record<string, string>) {
  const application = await requiredClient(deps, request, params);
  if (!params.code) throw missingParameter('code');
  if (!params.redirect_uri) throw missingParameter('redirect_uri');
  const grant = await deps.db.selectFrom('oauth_access_grants').selectAll().where('code_digest', '=', sha256Hex(params.code)).executeTakeFirst();
  if (!grant || Number(grant.application_id) !== Number(application.id)) throw invalidGrant();
  if (grant.revoked_at !== null) {
    await revokeGrantTokens(deps, Number(grant.id));
    throw invalidGrant();
  }
  const now = deps.clock.now();
  if (Number(grant.expires_at) <= now) throw invalidGrant();
  if (grant.redirect_uri !== params.redirect_uri) throw invalidGrant();
  if (!verifierMatches(grant.code_challenge, params.code_verifier)) throw invalidGrant();
  const user = await deps.db.selectFrom('users').selectAll().where('id', '=', grant.user_id).executeTakeFirst();
  if (!user || user.state !== 'active') throw invalidGrant();

  const scopes = splitScopes(grant.scopes);
  const issued = await inTransaction(deps.db, async (trx) => {
    const consumed = await trx
      .updateTable('oauth_access_grants')
      .set({ revoked_at: now })
      .where('id', '=', grant.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(consumed.numUpdatedRows) !== 1) return null;
    return issueToken(deps, trx, { applicationId: Number(application.id), userId: Number(user.id), scopes, withRefresh: true, grantId: Number(grant.id) });
  });
  if (!issued) {
    // Lost the race against another exchange of the same code: that is reuse too (RFC 9700 §4.2.4).
    await revokeGrantTokens(deps, Number(grant.id));
    throw invalidGrant();
  }
  const idToken = scopes.includes('openid')
    ? signIdToken(deps, { user, clientId: application.uid, scopes, nonce: grant.nonce, authTime: Number(grant.created_at), groupsDirect: await directGroupPaths(deps, Number(user.id)) })
    : undefined;
  return tokenResponse(issued, idToken ? { id_token: idToken } : {});
}
