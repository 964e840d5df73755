// POST /oauth/revoke (RFC 7009) and POST /oauth/introspect (RFC 7662).
// Revocation answers 200 `{}` for unknown tokens too (no existence oracle); who may revoke what is
// the action's (revoke-token.ts).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { DESCRIPTIONS, OAuthError, invalidClient, invalidRequest, noStore, sendOAuthError } from './errors.js';
import { optionalClient, type ApplicationRow } from './client-auth.js';
import { bodyParams } from './token-route.js';
import { bearerToken } from './bearer.js';
import { expiresAt, liveAccessToken, tokenState, findAccessToken } from './resolve-token.js';
import { allowCors, corsHeader } from './cors.js';
import { revokeToken, type TokenTypeHint } from './revoke-token.js';

const HINTS = new Set(['access_token', 'refresh_token']);

export function revokeRoutes(app: FastifyInstance, deps: Deps): void {
  allowCors(app, '/oauth/revoke', ['POST']);
  app.post('/oauth/revoke', { config: { ability: { credential: 'oauth' } } }, async (request, reply) => {
    corsHeader(reply);
    try {
      const params = bodyParams(request);
      const client = await optionalClient(deps, request, params);
      if (!params.token) throw invalidRequest('Missing required parameter: token.');
      if (params.token_type_hint !== undefined && !HINTS.has(params.token_type_hint)) {
        throw new OAuthError('unsupported_token_type', DESCRIPTIONS.unsupported_token_type);
      }
      await revokeToken(deps, params.token, params.token_type_hint as TokenTypeHint | undefined, client);
      return noStore(reply).code(200).send({});
    } catch (error) {
      if (error instanceof OAuthError) return sendOAuthError(reply, error);
      throw error;
    }
  });

  app.post('/oauth/introspect', { config: { ability: { credential: 'oauth' } } }, async (request, reply) => {
    try {
      const params = bodyParams(request);
      // The caller is a client (credentials) or holds a live bearer token of its own.
      const hasBasic = /^Basic\s/i.test(request.headers.authorization ?? '');
      let callerAppId: number | null = null;
      let callerTokenId: number | null = null;
      if (hasBasic || params.client_id) {
        const caller: ApplicationRow | null = await optionalClient(deps, request, params);
        callerAppId = caller ? Number(caller.id) : null;
      } else {
        const bearer = /^Bearer\s/i.test(request.headers.authorization ?? '') ? bearerToken(request) : undefined;
        const own = await liveAccessToken(deps, bearer);
        if (!bearer) throw invalidRequest('Request need to be authorized by a client or a bearer token.');
        if (!own) throw invalidClient(false);
        callerTokenId = Number(own.token_id);
        callerAppId = own.application_id === null ? null : Number(own.application_id);
      }
      if (!params.token) throw invalidRequest('Missing required parameter: token.');
      const row = await findAccessToken(deps, params.token);
      const now = deps.clock.now();
      const visible =
        row &&
        tokenState(row, now) === 'ok' &&
        row.state === 'active' &&
        Number(row.token_id) !== callerTokenId &&
        // Default policy: a caller sees its own application's tokens and application-less ones.
        (row.application_id === null || Number(row.application_id) === callerAppId);
      if (!row || !visible) return noStore(reply).send({ active: false });
      const expiry = expiresAt(row);
      return noStore(reply).send({
        active: true,
        scope: row.scopes,
        client_id: row.application_uid ?? null,
        username: row.username,
        sub: String(row.id),
        token_type: 'Bearer',
        ...(expiry === null ? {} : { exp: Math.floor(expiry / 1000) }),
        iat: Math.floor(Number(row.token_created_at) / 1000),
      });
    } catch (error) {
      if (error instanceof OAuthError) return sendOAuthError(reply, error);
      throw error;
    }
  });
}
