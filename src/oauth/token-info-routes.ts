// GET /oauth/token/info (specification "Token information"; GitLab's OAuth documentation) and the OIDC
// userinfo endpoint (§11). A bad token is 401 `invalid_token` with WWW-Authenticate (docs/decisions.md).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { insufficientScope } from '../platform/http/api-error.js';
import { invalidTokenError, noStore, sendOAuthError } from './errors.js';
import { bearerToken } from './bearer.js';
import { expiresAt, liveAccessToken } from './resolve-token.js';
import { splitScopes } from './scopes.js';
import { GROUP_ROLE_LEVELS, groupRoleClaims, userClaims } from './claims.js';
import { allowCors, corsHeader } from './cors.js';
import { directGroupsAt, memberGroupPaths } from './finder.js';

// The token information answer's shape, compiled once into a serialiser by Fastify (fast-json-stringify):
// every client polls this endpoint, and the compiled serialiser writes the few fields in less time than
// JSON.stringify (docs/performance.md). Only the 200 answer: errors keep the generic serialiser.
const nullableInteger = { type: ['integer', 'null'] } as const;
const scopeList = { type: 'array', items: { type: 'string' } } as const;
const TOKEN_INFO_RESPONSE = {
  200: {
    type: 'object',
    properties: {
      resource_owner_id: { type: 'integer' },
      scope: scopeList,
      expires_in: nullableInteger,
      application: { type: 'object', properties: { uid: { type: ['string', 'null'] } }, required: ['uid'] },
      created_at: { type: 'integer' },
      scopes: scopeList,
      expires_in_seconds: nullableInteger,
    },
    required: ['resource_owner_id', 'scope', 'expires_in', 'application', 'created_at', 'scopes', 'expires_in_seconds'],
  },
};

export function tokenInfoRoutes(app: FastifyInstance, deps: Deps): void {
  allowCors(app, '/oauth/token/info', ['GET']);
  app.get('/oauth/token/info', { config: { ability: { credential: 'oauth' } }, schema: { response: TOKEN_INFO_RESPONSE } }, async (request, reply) => {
    corsHeader(reply);
    const row = await liveAccessToken(deps, bearerToken(request));
    if (!row) return sendOAuthError(reply, invalidTokenError(), { state: 'unauthorized' });
    const expiry = expiresAt(row);
    const expiresIn = expiry === null ? null : Math.max(0, Math.round((expiry - deps.clock.now()) / 1000));
    const scopes = splitScopes(row.scopes);
    return noStore(reply).send({
      resource_owner_id: Number(row.id),
      scope: scopes,
      expires_in: expiresIn,
      application: { uid: row.application_uid ?? null },
      created_at: Math.floor(Number(row.token_created_at) / 1000),
      // Deprecated aliases the specification still lists (Versioning 3).
      scopes,
      expires_in_seconds: expiresIn,
    });
  });

  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/oauth/userinfo',
      config: { ability: { credential: 'oauth' } },
      handler: async (request, reply) => {
        corsHeader(reply);
        const row = await liveAccessToken(deps, bearerToken(request));
        if (!row) return sendOAuthError(reply, invalidTokenError());
        const scopes = splitScopes(row.scopes);
        if (!scopes.includes('openid')) {
          const error = insufficientScope(['openid']);
          return noStore(reply).code(error.status).headers(error.headers).send(error.body);
        }
        const groups = await memberGroupPaths(deps, Number(row.id));
        const roles = groupRoleClaims(await directGroupsAt(deps, Number(row.id), GROUP_ROLE_LEVELS));
        return noStore(reply).send({ sub: String(row.id), ...userClaims(deps, row, scopes), groups, ...roles });
      },
    });
  }
  allowCors(app, '/oauth/userinfo', ['GET', 'POST']);
}
