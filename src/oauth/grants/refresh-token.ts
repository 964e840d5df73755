// grant_type=refresh_token (RFC 6749 §6; docs/decisions.md "refresh tokens"): every use rotates the pair and
// retires the old access token too; a rotated token presented again revokes the whole family
// (RFC 9700 §4.14.2); scope can only narrow; the token belongs to the client it was issued to.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { sha256Hex } from '../../platform/crypto.js';
import { readClientCredentials, authenticateClient } from '../client-auth.js';
import { invalidClient, invalidGrant, invalidScope, missingParameter } from '../errors.js';
import { parseScopes, splitScopes } from '../scopes.js';
import { issueToken, tokenResponse } from '../issue-token.js';
import { revokeFamily } from '../revoke-tokens.js';
import { rotateAccessToken } from '../token-queries.js';

export async function refreshTokenGrant(deps: Deps, request: FastifyRequest, params: Record<string, string>) {
  const credentials = readClientCredentials(request, params);
  const client = credentials ? await authenticateClient(deps, credentials) : null;
  if (!params.refresh_token) throw missingParameter('refresh_token');
  const digest = sha256Hex(params.refresh_token);
  const token = await deps.db
    .selectFrom('oauth_access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.id', 't.application_id', 't.user_id', 't.scopes', 't.family_id', 't.grant_id', 't.rotated_at', 't.revoked_at', 'u.state'])
    .where('t.refresh_digest', '=', digest)
    .executeTakeFirst();
  if (!token) throw invalidGrant();
  if (token.application_id !== null) {
    if (!client) {
      // A token of a confidential application needs that application's credentials.
      const owner = await deps.db.selectFrom('oauth_applications').select('confidential').where('id', '=', token.application_id).executeTakeFirst();
      if (owner?.confidential === 1) throw invalidClient(false);
    } else if (Number(client.id) !== Number(token.application_id)) {
      throw invalidGrant();
    }
  } else if (client) {
    throw invalidGrant();
  }
  if (token.rotated_at !== null) {
    await revokeFamily(deps, token.family_id);
    throw invalidGrant();
  }
  if (token.revoked_at !== null || token.state !== 'active') throw invalidGrant();
  const granted = splitScopes(token.scopes);
  let scopes = granted;
  const requested = params.scope ?? params.scopes;
  if (requested !== undefined && requested !== '') {
    const parsed = parseScopes(requested);
    if (!parsed.ok || !parsed.scopes.every((scope) => granted.includes(scope))) throw invalidScope();
    scopes = parsed.scopes;
  }
  const now = deps.clock.now();
  // A group-commit work (raw statements through `tx` only): on SQLite the refreshes of one turn of the
  // event loop share a commit. Another exchange of the same refresh token that rotated it first,
  // whether in this batch or before, leaves no row to rotate: that is reuse.
  const issued = await deps.groupCommit.transaction(async (tx) => {
    if ((await tx.all(rotateAccessToken(Number(token.id), now))).length !== 1) return null;
    return issueToken(deps, tx, {
      applicationId: token.application_id === null ? null : Number(token.application_id),
      userId: Number(token.user_id),
      scopes,
      withRefresh: true,
      familyId: token.family_id,
      grantId: token.grant_id === null ? null : Number(token.grant_id),
      previousRefreshDigest: digest,
    });
  });
  if (!issued) {
    await revokeFamily(deps, token.family_id);
    throw invalidGrant();
  }
  return tokenResponse(issued);
}
